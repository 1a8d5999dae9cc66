"""The pages' middleware: a Content-Security-Policy, and a 503 when the
database is down."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.shortcuts import render

log = logging.getLogger(__name__)


# Our pages load only our own files: scripts from our static files (htmx,
# correo.js), no inline script; inline styles stay allowed for the SVG boards'
# style attributes and htmx's indicator style.  An injected script would not
# run, whatever slipped past the templates' escaping.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'"
)
# The API docs and the admin bring their own pages (config/docs.py sets ReDoc's).
OWN_PAGES_ONLY = ("/api/", "/admin/")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith(OWN_PAGES_ONLY):
            response.setdefault("Content-Security-Policy", PAGE_POLICY)
        return response


class DatabaseUnavailableMiddleware:
    """A database that is down answers the pages with 503 and Retry-After, as
    the API does: nothing was written, and the same request is safe to repeat."""

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
