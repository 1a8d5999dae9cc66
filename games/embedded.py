"""The embedded default enforces clocks too: without a broker there is no
celery beat, so the development server sweeps deadlines from a thread."""

from __future__ import annotations

import logging
import threading

from django.db import close_old_connections

log = logging.getLogger(__name__)


def _loop(interval: float, stop: threading.Event) -> None:
    from games.sweep import sweep

    while not stop.wait(interval):
        try:
            close_old_connections()
            sweep()
        except Exception:  # keep sweeping: one bad minute must not stop the clocks
            log.exception("embedded deadline sweep failed")


def start(interval: float) -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=_loop, args=(interval, stop), name="sweep", daemon=True).start()
    log.info("embedded deadline sweep every %.0f s", interval)
    return stop
