"""The cache: Redis, or a per-process memory while Redis cannot be reached.

Nothing in the cache is needed to play (the throttles' counters, the
log-in lockout, mail pacing and players' profiles use it), so a Redis that
is down or hangs must cost a request neither an error nor a wait: each
operation that fails is served by a local memory of the same interface, and
the process leaves Redis alone for a while (ops.outage).  The throttles
then count per process, so a client may get each process's rate rather than
one rate for all of them, until Redis is back; their counts in Redis simply
resume.
"""

from __future__ import annotations

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from ops import outage

FALLBACK_ENTRIES = 10_000
INSTEAD = "the cache is served from this process's memory"


class FallbackRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._outage = outage.of("cache", str(server))
        local = {key: value for key, value in params.items() if key != "OPTIONS"}
        local["OPTIONS"] = {"MAX_ENTRIES": FALLBACK_ENTRIES}
        self._fallback = LocMemCache(f"redis-fallback:{server}", local)

    def probe(self) -> dict:
        """Does Redis answer now?  (For /healthz: ignores the pause after a failure.)"""
        try:
            self._cache.get_client().ping()
        except RedisError as error:
            return {"ok": False, "error": type(error).__name__, "fallback": "per-process memory"}
        return {"ok": True, "mode": "redis"}


def _guarded(name: str, through_redis=None, in_memory=None):
    """RedisCache's `name` (or `through_redis`), falling back to the local
    memory's `name` (or `in_memory(local_cache, ...)`)."""
    through_redis = through_redis or getattr(RedisCache, name)
    in_memory = in_memory or (lambda local, *args, **kwargs: getattr(local, name)(*args, **kwargs))

    def operation(self, *args, **kwargs):
        if self._outage.skipping():
            self._outage.skipped(name)
        else:
            try:
                result = through_redis(self, *args, **kwargs)
            except RedisError as error:
                self._outage.failed(name, error, INSTEAD)
            else:
                self._outage.reached()
                return result
        return in_memory(self._fallback, *args, **kwargs)

    operation.__name__ = operation.__qualname__ = name
    operation.__doc__ = through_redis.__doc__
    return operation


# Every operation RedisCache implements itself; BaseCache builds the rest
# (get_or_set, decr, the async variants...) on top of these.
for _name in (
    "add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many",
    "delete_many", "clear",
):  # fmt: skip
    setattr(FallbackRedisCache, _name, _guarded(_name))


def _count_in_redis(
    self: FallbackRedisCache, key: str, timeout: int, amount: int = 1, version=None
) -> int:
    """The counter `key` plus `amount`, created with `timeout` seconds to
    live: a fixed window's requests so far (ops.throttling).  One round
    trip to Redis, where Django's incr makes two (EXISTS, then INCR) and a
    window's first request a third (add): a transaction creates the counter
    at 0 with its expiry if it does not exist, and no other client sees it
    between."""
    key = self.make_and_validate_key(key, version)
    pipeline = self._cache.get_client(key, write=True).pipeline(transaction=True)
    pipeline.set(key, 0, ex=timeout, nx=True)
    pipeline.incrby(key, amount)
    return int(pipeline.execute()[1])


def count_with(cache, key: str, timeout: int, amount: int = 1, version=None) -> int:
    """`FallbackRedisCache.count` for any other cache (local memory), from
    its own incr and add: a window's first request adds the counter."""
    try:
        return cache.incr(key, amount, version=version)
    except ValueError:
        if cache.add(key, amount, timeout, version=version):
            return amount
        return cache.incr(key, amount, version=version)  # another request started it meanwhile


FallbackRedisCache.count = _guarded("count", _count_in_redis, count_with)
