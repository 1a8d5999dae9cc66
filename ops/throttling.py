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

from rest_framework import exceptions, throttling

from ops.cache import count_with
from ops.clients import client_address


class FixedWindowRateThrottle(throttling.SimpleRateThrottle):
    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends = (window + 1) * self.duration
        return self.count(f"{self.key}:{window}") <= self.num_requests

    def count(self, key: str) -> int:
        """This request's number in its window (one round trip to Redis)."""
        counter = getattr(self.cache, "count", None)  # the cache proxy passes it through
        if counter is not None:
            return counter(key, self.duration)
        return count_with(self.cache, key, self.duration)

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
        if self.count(f"{key}:{window}") <= self.num_requests:
            return None
        return self.wait() or 1.0
