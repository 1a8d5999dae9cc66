"""The embedded default has no broker and so no celery beat: the development
server's serving process runs the beat schedule itself, in a thread.

One mechanism for every periodic task (deadline sweep, outbox sweep, daily
digests): what CELERY_BEAT_SCHEDULE says runs, run in-process and eagerly.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

from celery.schedules import maybe_schedule
from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)


def serving_embedded() -> bool:
    """runserver's serving process (not its autoreloader), with no broker."""
    serving = "runserver" in sys.argv and os.environ.get("RUN_MAIN") == "true"
    return serving and settings.CORREO_EMBEDDED_SWEEP


def run_due(app, entries: dict, last_run: dict) -> list[str]:
    """Run every entry of the beat schedule that is due; returns their names."""
    app.loader.import_default_modules()  # the apps' task modules (a worker does this)
    ran = []
    now = app.now()
    for name, entry in entries.items():
        schedule = maybe_schedule(entry["schedule"], app=app)
        due, _ = schedule.is_due(last_run.setdefault(name, now))
        if not due:
            continue
        last_run[name] = now
        try:
            app.tasks[entry["task"]].apply()
            ran.append(name)
        except Exception:  # keep going: one failing task must not stop the others
            log.exception("embedded run of %s failed", name)
    return ran


def _loop(tick: float, entries: dict, stop: threading.Event) -> None:
    from celery import current_app as app  # the project's (config.celery)

    last_run: dict = {}
    while not stop.wait(tick):
        close_old_connections()
        run_due(app, entries, last_run)
    connection.close()


def start(tick: float = 1.0, entries: dict | None = None) -> threading.Event:
    """Run `entries` (default: the beat schedule) until the returned event is set."""
    entries = settings.CELERY_BEAT_SCHEDULE if entries is None else entries
    stop = threading.Event()
    thread = threading.Thread(
        target=_loop, args=(tick, entries, stop), name="embedded-beat", daemon=True
    )
    thread.start()
    log.info("embedded beat: %s", ", ".join(entries))
    return stop
