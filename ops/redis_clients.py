"""One Redis client per process and address, for the short commands a
request or a worker thread sends (a push, a hand-off).

redis-py's client is thread-safe and keeps a pool of connections, so one
per address is enough; building one is not free (its reply table alone is
some eighty entries), which a command sent on every move would pay each
time.  Every socket has the timeouts of CORREO_REDIS_TIMEOUT, so a Redis
that hangs holds no one for long (ops.outage says what happens then).
"""

from __future__ import annotations

import os
import threading

import redis
from django.conf import settings

_clients: dict[str, redis.Redis] = {}
_lock = threading.Lock()


def _after_fork_in_child() -> None:
    """A forked child (a Celery pool process) gets a lock of its own: the
    parent's threads may hold this one as it forks.  The clients stay;
    redis-py gives a child new connections."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def client(url: str) -> redis.Redis:
    """The process's client for `url`."""
    found = _clients.get(url)
    if found is None:
        with _lock:
            found = _clients.setdefault(url, redis.Redis.from_url(
                url, socket_connect_timeout=settings.CORREO_REDIS_TIMEOUT,
                socket_timeout=settings.CORREO_REDIS_TIMEOUT,
            ))  # fmt: skip
    return found
