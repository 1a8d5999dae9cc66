"""Rate limits on the pages that take a password or send a mail.

Log-in, sign-up and password-reset forms count against the same "auth"
scope, per client address, as the API's token and register endpoints
(config.throttling): guessing passwords through the pages is no cheaper
than through the API, and the two doors share one budget.
"""

from __future__ import annotations

import functools
import math

from django.shortcuts import render

from config.throttling import ScopedRateThrottle


class _AuthScope:
    throttle_scope = "auth"


def auth_throttled(view):
    """The view, answering its POSTs with 429 and Retry-After once the
    client has used up the "auth" rate."""

    @functools.wraps(view)
    def limited(request, *args, **kwargs):
        if request.method == "POST":
            throttle = ScopedRateThrottle()
            if not throttle.allow_request(request, _AuthScope()):
                wait = math.ceil(throttle.wait() or 1)
                response = render(
                    request,
                    "web/error.html",
                    {"status": 429, "message": f"Too many tries: wait {wait} s and try again."},
                    status=429,
                )
                response["Retry-After"] = str(wait)
                return response
        return view(request, *args, **kwargs)

    return limited
