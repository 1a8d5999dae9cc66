"""The hand-off: how a process that wrote outbox rows tells the workers,
with one Redis push instead of a Celery publish per row.

A Celery publish costs the process that makes it about half a millisecond
of CPU (the message's headers and properties, kombu's routing, a new Redis
client object for every put), more than the push itself; on a move that
passes the turn that was a sixth of what the web process spent.  So the
web process pushes "<task> <id>" onto one Redis list (LPUSH on a client it
keeps) and a thread in every Celery worker (`Drain`, started by the
worker's HandOff step in config.celery) pops it and makes the publish.
Which worker pops an item does not matter: each item is popped once.

Nothing here is needed for a mail to go out exactly once.  The row is
durable before anything is pushed, and a delivery claims its row before
sending (notifications.delivery).  A push that fails (Redis away), an
item popped by a worker that dies before publishing it, or a list nobody
drains (no worker running) leaves the row pending, and the outbox sweep
queues it after NOTIFICATIONS_SWEEP_GRACE: late, never lost, never twice.
The list is bounded so that a deployment without workers cannot fill
Redis: past LIMIT items the oldest are dropped (the sweep has their rows).
A push is the one command: the trim follows only when the push's reply,
the list's length, says it is over, since every further command in the
push's round trip cost it as much CPU again.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable

import redis
from django.conf import settings

from ops import outage, redis_clients

log = logging.getLogger(__name__)

KEY = "correo:handoff"  # one list per Redis database, like push's channel
LIMIT = 100_000  # items (some 3 MB); beyond it the oldest go to the sweep instead
WAIT = 5.0  # seconds a worker's pop blocks before it looks again
BATCH = 100  # items a worker takes in one round trip once a pop found work


def give(task_name: str, notification_id: int) -> bool:
    """Push one row's task for a worker to publish; never raises.  False
    (logged and counted by ops.outage) when Redis cannot take it now: the
    row then waits for the outbox sweep."""
    url = settings.REDIS_URL
    down = outage.of("handoff", url)
    if down.skipping():
        down.skipped(task_name)
        return False
    client = redis_clients.client(url)
    try:
        if client.lpush(KEY, f"{task_name} {notification_id}") > LIMIT:
            client.ltrim(KEY, 0, LIMIT - 1)
    except redis.RedisError as error:
        down.failed(task_name, error, f"notification {notification_id} waits for the sweep")
        return False
    down.reached()
    return True


def waiting() -> int | None:
    """How many items wait in the list for a worker (None: Redis cannot say
    now).  It stays near zero while the workers drain it; a list that grows
    says no worker does."""
    url = settings.REDIS_URL
    if not url or outage.of("handoff", url).skipping():
        return None
    try:
        return redis_clients.client(url).llen(KEY)
    except redis.RedisError:
        return None  # the push that fails says so (ops.outage); a scrape need not


def parse(item: bytes) -> tuple[str, int] | None:
    """(task name, notification id) of an item `give` pushed, or None."""
    try:
        name, _, number = item.decode("ascii").partition(" ")
        return name, int(number)
    except (UnicodeDecodeError, ValueError):
        return None


class Drain(threading.Thread):
    """A worker's thread: pops what was handed off and gives each item to
    `forward` (notifications.tasks.forward, which publishes it).  It blocks
    in BRPOP on the shared list and on a wake-up list of its own, which
    `stop` pushes to, so a worker's shutdown does not wait out the pop;
    once a pop finds work it takes what else waits BATCH items at a time
    (RPOP with a count, Redis 6.2 or later), oldest first, so a burst (a
    tournament's round starting) costs a round trip per hundred mails, not
    per mail.
    While Redis is away it tries again every CORREO_REDIS_RETRY_SECONDS,
    and the sweep sends what waits meanwhile."""

    def __init__(self, url: str, forward: Callable[[bytes], object]) -> None:
        super().__init__(name="correo-handoff", daemon=True)
        self.url = url
        self.forward = forward
        self.stopping = threading.Event()
        self.wake = f"{KEY}:wake:{uuid.uuid4().hex}"
        # Its own client: a blocking pop must outlast the short socket
        # timeout the request-side client keeps.
        self.client = redis.Redis.from_url(
            url, socket_connect_timeout=settings.CORREO_REDIS_TIMEOUT,
            socket_timeout=WAIT + settings.CORREO_REDIS_TIMEOUT,
        )  # fmt: skip

    def run(self) -> None:
        down = outage.of("handoff", self.url)
        while not self.stopping.is_set():
            try:
                self._drain_once()
            except redis.RedisError as error:
                down.failed("drain", error, "the outbox sweep queues what was handed off")
                self.stopping.wait(settings.CORREO_REDIS_RETRY_SECONDS)
                continue
            down.reached()

    def _drain_once(self) -> None:
        """One blocking pop, then what else waits, until the list is empty
        (or the worker stops: what was popped is forwarded first)."""
        popped = self.client.brpop([KEY, self.wake], timeout=WAIT)
        items = [popped[1]] if popped is not None and popped[0] == KEY.encode() else []
        while items:
            for item in items:
                self._forward(item)
            if self.stopping.is_set():
                return
            items = self.client.rpop(KEY, BATCH) or []

    def _forward(self, item: bytes) -> None:
        try:
            self.forward(item)
        except Exception:  # one bad item must not end the thread
            log.exception("hand-off item %r was not forwarded; the sweep has its row", item[:80])

    def stop(self, timeout: float = WAIT + 1) -> None:
        self.stopping.set()
        try:
            with self.client.pipeline(transaction=False) as pipe:
                pipe.lpush(self.wake, "stop")
                pipe.expire(self.wake, 60)  # popped at once; a stale one goes by itself
                pipe.execute()
        except redis.RedisError:
            pass  # the pop ends by its own timeout
        self.join(timeout)
        if not self.is_alive():
            self.client.close()
