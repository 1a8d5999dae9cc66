"""Rate limits on the pages that take a password, send a mail or start a game.

Log-in (ours and the admin's), sign-up and password-reset forms count
against the same "auth" scope, per client address (ops.clients), as the
API's token and register endpoints (ops.throttling): guessing passwords
through the pages is no cheaper than through the API, and the doors share
one budget.  The password change form counts per user in its own
"password" scope: a stolen session must not become a way to try passwords.

An address is only one half: accounts.lockout counts failures per account
name whatever the address, and its refusals (LockedOut, raised from inside
the log-in forms) are answered here the same way, 429 with Retry-After.
The form that starts a game counts against the API's "create" rate, per
account, with the same counter and the same words.
"""

from __future__ import annotations

import functools
import math

from django.shortcuts import render

from accounts.lockout import LockedOut
from ops.throttling import CreateRateThrottle, ScopedRateThrottle, creation_refusal


def too_many(request, wait: float, message: str):
    wait = max(1, math.ceil(wait))
    response = render(request, "web/error.html", {"status": 429, "message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _limited(view, throttle_class, scope, refusal):
    """The view, answering its POSTs with 429, `refusal(wait)` and
    Retry-After once the client has used up the throttle's rate.  Reading
    the forms is never limited."""

    @functools.wraps(view)
    def limited(request, *args, **kwargs):
        if request.method == "POST":
            throttle = throttle_class()
            if not throttle.allow_request(request, scope):
                wait = throttle.wait() or 1
                return too_many(request, wait, refusal(wait))
        return view(request, *args, **kwargs)

    return limited


def throttled(scope: str):
    """Past the scope's rate (per user when logged in, else per address),
    a form's POST is a 429 page."""

    class Scope:
        throttle_scope = scope

    def decorate(view):
        return _limited(
            view, ScopedRateThrottle, Scope(),
            lambda wait: f"Too many tries: wait {math.ceil(wait)} s and try again.",
        )  # fmt: skip

    return decorate


auth_throttled = throttled("auth")
password_throttled = throttled("password")


def creation_throttled(view):
    """Past the "create" rate, starting a game is a 429 page that says what
    the API says."""
    return _limited(
        view, CreateRateThrottle, None, lambda wait: creation_refusal(wait).capitalize() + "."
    )


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
