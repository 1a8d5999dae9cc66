"""Run callables at the same time, as concurrent requests would."""

from __future__ import annotations

import threading
from collections.abc import Callable


def run_together(*targets: Callable[[], object]) -> None:
    """Start one thread per target, then wait for them all."""
    threads = [threading.Thread(target=target) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
