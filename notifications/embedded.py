"""The embedded default has no celery beat: the development server's serving
process runs the outbox sweep (every minute) and the daily digests itself."""

from __future__ import annotations

import datetime
import logging
import os
import sys
import threading

from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)


def serving_embedded() -> bool:
    """runserver's serving process (not its autoreloader), with no broker."""
    serving = "runserver" in sys.argv and os.environ.get("RUN_MAIN") == "true"
    return serving and getattr(settings, "CORREO_EMBEDDED_SWEEP", not settings.REDIS_URL)


def _loop(interval: float, stop: threading.Event) -> None:
    from notifications import tasks

    digested_on = None
    while not stop.wait(interval):
        try:
            close_old_connections()
            tasks.sweep_outbox()
            now = datetime.datetime.now(datetime.UTC)
            if now.hour == settings.NOTIFICATIONS_DIGEST_HOUR and digested_on != now.date():
                tasks.send_digests()
                digested_on = now.date()
        except Exception:  # keep sweeping: one bad minute must not stop the mail
            log.exception("embedded outbox sweep failed")
    connection.close()


def start(interval: float = 60.0) -> threading.Event:
    stop = threading.Event()
    thread = threading.Thread(target=_loop, args=(interval, stop), name="outbox", daemon=True)
    thread.start()
    log.info("embedded outbox sweep every %.0f s", interval)
    return stop
