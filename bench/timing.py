"""For the engine benches: one core, several runs, the min and the median.

A figure taken once on a shared machine says as much about the machine's
other work as about the engine; pinned to one core and repeated, the min is
what the engine costs and the median what a busy moment makes of it.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def pin_one_core() -> int | None:
    """Run this process on one core (the lowest it may use); which one."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def timed_runs(work: Callable[[], object], runs: int = RUNS) -> list[float]:
    """Seconds of each of `runs` calls of `work`."""
    took = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        took.append(time.perf_counter() - started)
    return took


def min_and_median(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "runs": len(values)}
