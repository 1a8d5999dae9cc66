"""GET /healthz reports database and broker reachability."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.django_db
def test_healthz_reports_the_database_and_broker(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200
    assert body["ok"] is True
    assert body["database"] == {"ok": True, "vendor": connection.vendor}
    assert body["broker"]["ok"] is True


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_reaches_the_real_redis(client):
    assert client.get("/healthz").json()["broker"] == {"ok": True, "mode": "redis"}


@pytest.mark.django_db
def test_healthz_fails_when_the_broker_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["ok"] is False
    assert response.json()["broker"]["ok"] is False
