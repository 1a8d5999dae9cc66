"""Error pages: JSON under /api/ (the API's contract), HTML everywhere else."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.api import errors as api_errors

MESSAGES = {
    400: "That request could not be understood.",
    403: "You may not see or do this.",
    404: "There is nothing here.",
    500: "Something went wrong on our side. Nothing you sent was lost; try again.",
}


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get(
        "Accept", ""
    )


def _page(request: HttpRequest, status: int) -> HttpResponse:
    return render(
        request, "web/error.html", {"status": status, "message": MESSAGES[status]}, status=status
    )


def bad_request(request, exception=None):
    if _wants_json(request):
        return api_errors.bad_request(request, exception)
    return _page(request, 400)


def permission_denied(request, exception=None):
    if _wants_json(request):
        return api_errors.permission_denied(request, exception)
    return _page(request, 403)


def not_found(request, exception=None):
    if _wants_json(request):
        return api_errors.not_found(request, exception)
    return _page(request, 404)


def server_error(request):
    if _wants_json(request):
        return api_errors.server_error(request)
    # No template context processors here: the error may be theirs.
    return HttpResponse(
        f"<!doctype html><title>Server error</title><h1>Server error</h1><p>{MESSAGES[500]}</p>",
        status=500,
    )
