"""Rate limits on the pages that take a password, send a mail or start a game.

Log-in, sign-up and password-reset forms count against the same "auth"
scope, per client address, as the API's token and register endpoints
(config.throttling): guessing passwords through the pages is no cheaper
than through the API, and the two doors share one budget.  The form that
starts a game counts against the API's "create" rate, per account, with the
same counter and the same words.
"""

from __future__ import annotations

import functools
import math

from django.shortcuts import render

from config.throttling import CreateRateThrottle, ScopedRateThrottle, creation_refusal


class _AuthScope:
    throttle_scope = "auth"


def _limited(view, throttle_class, scope, refusal):
    """The view, answering its POSTs with 429, `refusal(wait)` and
    Retry-After once the client has used up the throttle's rate."""

    @functools.wraps(view)
    def limited(request, *args, **kwargs):
        if request.method == "POST":
            throttle = throttle_class()
            if not throttle.allow_request(request, scope):
                wait = math.ceil(throttle.wait() or 1)
                response = render(
                    request, "web/error.html", {"status": 429, "message": refusal(wait)},
                    status=429,
                )  # fmt: skip
                response["Retry-After"] = str(wait)
                return response
        return view(request, *args, **kwargs)

    return limited


def auth_throttled(view):
    """Past the "auth" rate, a form's POST is a 429 page."""
    return _limited(
        view, ScopedRateThrottle, _AuthScope(),
        lambda wait: f"Too many tries: wait {wait} s and try again.",
    )  # fmt: skip


def creation_throttled(view):
    """Past the "create" rate, starting a game is a 429 page that says what
    the API says."""
    return _limited(
        view, CreateRateThrottle, None, lambda wait: creation_refusal(wait).capitalize() + "."
    )
