"""Run callables at the same time, as concurrent requests would; call off
timers a test left waiting."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def run_together(*targets: Callable[[], object]) -> None:
    """Start one thread per target, then wait for them all.  Each thread's
    database connections are closed as it ends, as a request's are: left
    open, they outlive the test and keep pytest-django from dropping the
    test database at the end of the run."""

    def closing(target: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            finally:
                connections.close_all()

        return run

    threads = [threading.Thread(target=closing(target)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def failures_at_once(*targets: Callable[[], object]) -> list[str]:
    """Run the targets in threads released together (a barrier, so that they
    race rather than follow one another) and return what each raised, as
    its repr, for an assertion to show."""
    begin = threading.Barrier(len(targets))
    failures: list[str] = []

    def released(target: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            begin.wait()
            try:
                target()
            except Exception as exc:  # recorded so the assertion shows it
                failures.append(repr(exc))

        return run

    run_together(*(released(target) for target in targets))
    return failures


def call_off(function: Callable[..., object]) -> int:
    """Cancel every timer still waiting to call `function`; how many."""
    waiting = [
        thread
        for thread in threading.enumerate()
        if isinstance(thread, threading.Timer) and thread.function is function
    ]
    for timer in waiting:
        timer.cancel()
    return len(waiting)
