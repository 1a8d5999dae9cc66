"""A service this process could not reach: leave it alone for a while, warn
now and then, count every time.

Redis is the cache and the broker, and neither is needed to play: while it
does not answer, the cache serves from a per-process memory (ops.cache)
and notifications wait in the outbox for the sweep (notifications.outbox).
Trying it again on every request would cost each one a connection attempt,
or a whole timeout when Redis hangs, so after a failure a process skips it
for CORREO_REDIS_RETRY_SECONDS.  One warning a minute says so, not one per
request; `correo_degraded_total{service,operation}` counts every operation
done without it.

The state is per process and per address, so a process that talks to two
Redis servers (a test, or a broker apart from the cache) keeps them apart.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from django.conf import settings

from ops.metrics import DEGRADED

log = logging.getLogger(__name__)

WARN_EVERY = 60.0  # seconds between two warnings about the same service


class Outage:
    """Whether one service at one address is being skipped, and since when."""

    def __init__(self, service: str) -> None:
        self.service = service
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.down_until = 0.0
        self.down_since: float | None = None
        self._warned_at = 0.0
        self._unwarned = 0

    def skipping(self) -> bool:
        return time.monotonic() < self.down_until

    def failed(self, operation: str, error: BaseException, instead: str) -> None:
        """`operation` did not reach the service; `instead` is what was done."""
        DEGRADED.labels(self.service, operation).inc()
        now = time.monotonic()
        with self._lock:
            self.down_until = now + settings.CORREO_REDIS_RETRY_SECONDS
            if self.down_since is None:
                self.down_since = now
            if self._warned_at and now - self._warned_at < WARN_EVERY:
                self._unwarned += 1
                return
            unwarned, self._unwarned, self._warned_at = self._unwarned, 0, now
        more = f"; {unwarned} more operations without it since the last warning"
        log.warning(
            "%s unreachable (%s: %s): %s; not tried again for %g s%s",
            self.service, type(error).__name__, error, instead,
            settings.CORREO_REDIS_RETRY_SECONDS, more if unwarned else "",
        )  # fmt: skip

    def skipped(self, operation: str) -> None:
        """`operation` went without the service, which is being left alone."""
        DEGRADED.labels(self.service, operation).inc()
        with self._lock:
            self._unwarned += 1

    def reached(self) -> None:
        """An operation reached the service: it is back, if it was away."""
        if self.down_since is None:
            return
        with self._lock:
            since, self.down_since = self.down_since, None
            self._warned_at, self._unwarned = 0.0, 0
        if since is not None:
            log.info("%s reachable again after %.1f s", self.service, time.monotonic() - since)


_outages: dict[tuple[str, str], Outage] = {}
_registry_lock = threading.Lock()


def of(service: str, address: str) -> Outage:
    """The one Outage of this process for `service` at `address`."""
    key = (service, address)
    outage = _outages.get(key)
    if outage is None:
        with _registry_lock:
            outage = _outages.setdefault(key, Outage(service))
    return outage


def _after_fork_in_child() -> None:
    """A Celery worker forks its pool's processes while its threads (the
    mail's hand-off drain) may hold one of these locks: a child must not
    inherit a lock that no thread of its own will ever release."""
    global _registry_lock
    _registry_lock = threading.Lock()
    for outage in _outages.values():
        outage._lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def forget_all() -> None:
    """Tests: every service counts as reachable again."""
    with _registry_lock:
        for outage in _outages.values():
            outage.reset()
