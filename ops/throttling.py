"""Rate limits counted in fixed windows: one counter per client and window.

DRF's own throttles keep the time of every request in the window and write
that list back to the cache on each request: at the default 1 200 a minute a
busy client's list is kilobytes, pickled to the cache and back every time.
A counter costs the same at any rate.  The price is that a client can fit up
to twice its rate around a window's edge, which is fine for abuse control.

Each class keeps DRF's scope and cache key (`throttle_<scope>_<ident>`) and
only changes the counting, so the settings' rates apply unchanged.  The
ident of an anonymous client is its address as ops.clients reads it:
never an `X-Forwarded-For` the client wrote itself, which would give it a
fresh budget with every request.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from rest_framework import exceptions, throttling

from ops.cache import count_with
from ops.clients import client_address

# A lease grows from one request, doubling while its client keeps coming to
# this process, up to this share of the rate: a client that makes a few
# requests strands nothing, and a busy one costs Redis a round trip in a
# few dozen.
LEASE_SHARE = 50
KEPT_LEASES = 10_000  # windows remembered at once; beyond, the oldest go


@dataclass
class _Lease:
    left: int  # requests this process may still admit in the window
    size: int  # the next lease to ask for
    ends: float  # the window's end (the throttle's clock)


class Leases:
    """This process's share of each window's requests, taken from the
    window's counter in Redis (or the local fallback) a lease at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, _Lease] = {}

    def take(self, key: str, limit: int, ends: float, count) -> bool:
        """One request of the window `key` (of `limit` requests, ending at
        `ends`), from the lease held or from a new one that `count(key,
        amount)` adds to the shared counter."""
        with self._lock:
            lease = self._held.get(key)
            if lease is not None and lease.left > 0:
                lease.left -= 1
                return True
            if lease is not None and lease.size == 0:
                return False  # the window is spent: the counter only grows
            size = lease.size if lease is not None else 1
        total = count(key, size)
        granted = max(0, min(size, limit - (total - size)))
        largest = max(1, limit // LEASE_SHARE)
        # A window spent says so with size 0: no more round trips in it.
        fresh = _Lease(max(granted - 1, 0), min(size * 2, largest) if granted else 0, ends)
        with self._lock:
            if key not in self._held and len(self._held) >= KEPT_LEASES:
                self._forget_ended(ends)
            self._held[key] = fresh
        return granted > 0

    def _forget_ended(self, before: float) -> None:
        """Drop the windows that end before `before` (a new window's end);
        if none does, the oldest half.  A lease forgotten is requests this
        process will not admit: never more than the rate."""
        ended = [key for key, lease in self._held.items() if lease.ends < before]
        for key in ended or list(self._held)[: len(self._held) // 2]:
            del self._held[key]

    def forget_all(self) -> None:
        with self._lock:
            self._held.clear()


leases = Leases()


class FixedWindowRateThrottle(throttling.SimpleRateThrottle):
    # This process's leases (tests give a throttle a process of its own).
    leases = leases

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends = (window + 1) * self.duration
        return self.admits(f"{self.key}:{window}")

    def admits(self, key: str) -> bool:
        """Whether the window `key` has room for one more request."""
        return self.leases.take(key, self.num_requests, self.window_ends, self.count)

    def count(self, key: str, amount: int = 1) -> int:
        """The window's counter after adding `amount` (one round trip to Redis)."""
        counter = getattr(self.cache, "count", None)  # the cache proxy passes it through
        if counter is not None:
            return counter(key, self.duration, amount)
        return count_with(self.cache, key, self.duration, amount)

    def wait(self) -> float:
        return max(self.window_ends - self.now, 0.0)

    def get_ident(self, request) -> str:
        return client_address(request)


# DRF's classes first: they pick the scope (and the user or address) and
# then hand over to the window's counting.
class AnonRateThrottle(throttling.AnonRateThrottle, FixedWindowRateThrottle):
    pass


class UserRateThrottle(throttling.UserRateThrottle, FixedWindowRateThrottle):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle, FixedWindowRateThrottle):
    pass


class CreateRateThrottle(UserRateThrottle):
    """Starting a game: its own "create" rate per account (its cache key
    names the scope and the user, so the API and the web form, which both
    use this class, share one budget).  A scope missing from the rates
    limits nothing, rather than failing every creation."""

    scope = "create"

    def get_rate(self):
        return self.THROTTLE_RATES.get(self.scope)


def creation_refusal(wait: float) -> str:
    """What a creation over the rate is told, by the API and the web form alike."""
    return f"too many games started: wait {math.ceil(wait)} s and try again"


class CreationThrottled(exceptions.Throttled):
    """The API's 429 for a creation over the rate (`Retry-After` from `wait`)."""

    def __init__(self, wait: float) -> None:
        exceptions.APIException.__init__(self, creation_refusal(wait), "throttled")
        self.wait = math.ceil(wait)


class Budget(FixedWindowRateThrottle):
    """A rate counted for an act rather than a request: the service spends
    it whichever door the act came through (a page, the API, a mail), so
    changing doors buys no fresh budget.  Its rate is the settings' rate of
    `scope`; a scope missing there limits nothing."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_rate(self):
        return self.THROTTLE_RATES.get(self.scope)

    def spend(self, ident: str) -> float | None:
        """Count one act of `ident`: None while within the rate, else the
        seconds until the next window."""
        if self.rate is None:
            return None
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends = (window + 1) * self.duration
        key = self.cache_format % {"scope": self.scope, "ident": ident}
        if self.admits(f"{key}:{window}"):
            return None
        return self.wait() or 1.0
