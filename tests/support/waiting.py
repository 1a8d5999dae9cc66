"""Waiting for another process (a Celery worker, a server) to get somewhere."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float = 15.0) -> None:
    """Poll `predicate` until it is true; fail the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")
