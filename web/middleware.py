"""A database that is down answers the pages with 503 and Retry-After, as
the API does: nothing was written, and the same request is safe to repeat."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.shortcuts import render

log = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if request.path.startswith("/api/"):
            return None  # the API's own handler answers in JSON
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("database unavailable for %s: %s", request.path, exception)
        response = render(
            request,
            "web/error.html",
            {"status": 503, "message": "The database is unavailable. Nothing was changed; "
             "try again in a few seconds."},
            status=503,
        )  # fmt: skip
        response["Retry-After"] = "5"
        return response
