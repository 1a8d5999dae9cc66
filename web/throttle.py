"""Rate limits on the pages that take a password or send a mail.

Log-in (ours and the admin's), sign-up and password-reset forms count
against the same "auth" scope, per client address (config.clients), as the
API's token and register endpoints (config.throttling): guessing passwords
through the pages is no cheaper than through the API, and the doors share
one budget.  The password change form counts per user in its own
"password" scope: a stolen session must not become a way to try passwords.

An address is only one half: accounts.lockout counts failures per account
name whatever the address, and its refusals (LockedOut, raised from inside
the log-in forms) are answered here the same way, 429 with Retry-After.
"""

from __future__ import annotations

import functools
import math

from django.shortcuts import render

from accounts.lockout import LockedOut
from config.throttling import ScopedRateThrottle


def too_many(request, wait: float, message: str):
    wait = max(1, math.ceil(wait))
    response = render(request, "web/error.html", {"status": 429, "message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


def throttled(scope: str):
    """The view, answering its POSTs with 429 and Retry-After once the
    client (the user when logged in, else the address) has used up the
    scope's rate.  Reading the forms is never limited."""

    class Scope:
        throttle_scope = scope

    def decorate(view):
        @functools.wraps(view)
        def limited(request, *args, **kwargs):
            if request.method == "POST":
                throttle = ScopedRateThrottle()
                if not throttle.allow_request(request, Scope()):
                    wait = throttle.wait() or 1
                    message = f"Too many tries: wait {math.ceil(wait)} s and try again."
                    return too_many(request, wait, message)
            return view(request, *args, **kwargs)

        return limited

    return decorate


auth_throttled = throttled("auth")
password_throttled = throttled("password")


class LockedOutMiddleware:
    """A page whose log-in was refused by accounts.lockout answers 429 with
    Retry-After (the API's views answer it themselves, in JSON)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, LockedOut):
            return None
        return too_many(request, exception.wait, str(exception.detail))
