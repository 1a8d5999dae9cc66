"""GET /healthz: can this process serve, and is anything it leans on away?

`status` is `ok`, `degraded` or `unavailable`.  Only the database makes the
process unavailable (HTTP 503: take it out of rotation).  Redis down (the
broker, the cache) is `degraded` with HTTP 200: every move and read still
works, mail waits in the outbox and the throttles count per process, and a
load balancer that took the workers out would turn a Redis outage into a
whole outage.  `ok` is true only when everything answers.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_broker() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager (no broker configured)"}
    from celery import current_app as app  # the project's (config.celery)

    timeout = settings.CORREO_REDIS_TIMEOUT
    try:
        if app.conf.broker_url.startswith(("redis://", "rediss://")):
            import redis

            probe = redis.Redis.from_url(
                app.conf.broker_url, socket_connect_timeout=timeout, socket_timeout=timeout
            )
            with probe:
                probe.ping()
        else:
            with app.connection_for_write() as broker:
                broker.ensure_connection(max_retries=0, timeout=timeout)
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__, "meanwhile": "mail waits in the outbox"}
    return {"ok": True, "mode": app.conf.broker_url.split(":", 1)[0]}


def check_cache() -> dict:
    probe = getattr(cache, "probe", None)
    if probe is None:
        return {"ok": True, "mode": "per-process memory"}
    return probe()


def healthz(request):
    checks = {"database": check_database(), "broker": check_broker(), "cache": check_cache()}
    if not checks["database"]["ok"]:
        status = "unavailable"
    elif all(check["ok"] for check in checks.values()):
        status = "ok"
    else:
        status = "degraded"
    return JsonResponse(
        {"ok": status == "ok", "status": status, **checks},
        status=503 if status == "unavailable" else 200,
    )
