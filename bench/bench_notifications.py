"""Play-by-email benchmark: mails delivered per second, replies applied per
second, and what handing one mail to the broker costs a move.

The last figure is `notifications.enqueue` (what a move runs after its
commit, once per notification it wrote) publishing to the deployed Redis,
`BENCH_PUBLISHES` times, median with the 10th and 90th percentiles: a move's
own cost (bench_api, `api.single.move.p50`) includes one of these for each
player it tells.  Nothing consumes the queue; it is emptied afterwards.
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
    took.sort()
    emit("notifications.publish_us", statistics.median(took), "us", publishes=PUBLISHES,
         p10=round(took[len(took) // 10], 1), p90=round(took[len(took) * 9 // 10], 1),
         broker="redis")  # fmt: skip


if __name__ == "__main__":
    main(emit, throwaway_database)
    bench_publish()
