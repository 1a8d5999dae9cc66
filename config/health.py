"""GET /healthz: is the database reachable, and the broker (when one is configured)?"""

from __future__ import annotations

from django.conf import settings
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
    if not settings.REDIS_URL:
        return {"ok": True, "mode": "eager (no broker configured)"}
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        client.ping()
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "mode": "redis"}


def healthz(request):
    checks = {"database": check_database(), "broker": check_broker()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": healthy, **checks}, status=200 if healthy else 503)
