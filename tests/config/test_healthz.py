"""GET /healthz: 503 only when this process cannot serve (the database);
Redis away (broker, cache) is `degraded` with 200, since play goes on."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from tests.notifications.conftest import free_port


@pytest.mark.django_db
def test_healthz_reports_the_database_broker_and_cache(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200
    assert body["ok"] is True and body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    assert body["broker"]["ok"] is True
    assert body["cache"]["ok"] is True


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_reaches_the_real_redis(client):
    body = client.get("/healthz").json()
    assert body["broker"] == {"ok": True, "mode": "redis"}
    assert body["cache"] == {"ok": True, "mode": "redis"}


@pytest.mark.redis
@pytest.mark.django_db
def test_redis_down_is_degraded_not_unavailable(client, settings, monkeypatch):
    from config.celery import app

    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    monkeypatch.setattr(app.conf, "broker_url", down)
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": down}}
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200  # keep serving: every move and read still works
    assert body["ok"] is False and body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["broker"] == {
        "ok": False, "error": "ConnectionError", "meanwhile": "mail waits in the outbox",
    }  # fmt: skip
    assert body["cache"] == {
        "ok": False, "error": "ConnectionError", "fallback": "per-process memory",
    }  # fmt: skip


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_database_down_is_unavailable(client):
    db = connection.settings_dict
    connection.ensure_connection()
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])
    response = client.get("/healthz")
    connection.close()  # the next request would get a fresh one
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["database"] == {"ok": False, "error": "OperationalError"}
