"""Play-by-email benchmark: mails delivered per second, replies applied per
second, and what handing one mail on costs a move and a worker.

The last two figures, `BENCH_PUBLISHES` times each, median with the 10th
and 90th percentiles, against the deployed Redis: `notifications.handoff_us`
is `notifications.handoff.give` (what a move runs after its commit, once per
notification it wrote: one push), and `notifications.publish_us` is
`notifications.tasks.enqueue` (the Celery publish a worker's drain makes of
each item, and what a move made itself before the hand-off).  Nothing
consumes the list or the queue; both are emptied afterwards.
"""

from __future__ import annotations

import os
import statistics
import time

from support import deployed_redis, django_setup, emit, throwaway_database

django_setup()

from notifications_run import main  # noqa: E402

PUBLISHES = int(os.environ.get("BENCH_PUBLISHES", "2000"))


def bench_publish() -> None:
    from config.celery import app
    from notifications import tasks

    with deployed_redis(11) as url:
        broker, eager = app.conf.broker_url, app.conf.task_always_eager
        app.conf.broker_url, app.conf.task_always_eager = url, False
        try:
            tasks.enqueue(tasks.deliver, 0)  # the connection, once
            took = []
            for n in range(PUBLISHES):
                started = time.perf_counter()
                if not tasks.enqueue(tasks.deliver, n + 1):
                    raise RuntimeError("the broker refused a publish")
                took.append((time.perf_counter() - started) * 1e6)
        finally:
            app.conf.broker_url, app.conf.task_always_eager = broker, eager
    emit_spread("notifications.publish_us", took, broker="redis")


def bench_handoff() -> None:
    from django.conf import settings

    from notifications import handoff

    with deployed_redis(11) as url:
        before, settings.REDIS_URL = settings.REDIS_URL, url
        try:
            handoff.give("notifications.deliver", 0)  # the connection, once
            took = []
            for n in range(PUBLISHES):
                started = time.perf_counter()
                if not handoff.give("notifications.deliver", n + 1):
                    raise RuntimeError("Redis refused a hand-off")
                took.append((time.perf_counter() - started) * 1e6)
        finally:
            settings.REDIS_URL = before
    emit_spread("notifications.handoff_us", took)


def emit_spread(name: str, took: list[float], **context) -> None:
    took.sort()
    emit(name, statistics.median(took), "us", publishes=PUBLISHES,
         p10=round(took[len(took) // 10], 1), p90=round(took[len(took) * 9 // 10], 1),
         **context)  # fmt: skip


if __name__ == "__main__":
    main(emit, throwaway_database)
    bench_handoff()
    bench_publish()
