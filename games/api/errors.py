"""Every API error is JSON {"error": code, "detail": message}, whatever raised it."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.engines.base import IllegalAction
from games.errors import NotFound, ServiceError, StaleSeq, TooFast, describe

log = logging.getLogger(__name__)


def _flatten(detail) -> str:
    """One readable sentence out of DRF's nested validation detail."""
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_flatten(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return " ".join(_flatten(item) for item in detail)
    return str(detail)


def api_exception_handler(exc, context):
    if isinstance(exc, NotFound | Http404):
        # One body for every 404, whatever was missing, as for an unknown path.
        exc = exceptions.NotFound("no such resource")
    elif isinstance(exc, IllegalAction | ServiceError):
        code, http_status, message = describe(exc)
        body = {"error": code, "detail": message}
        if isinstance(exc, StaleSeq):
            body["seq"] = exc.current
        headers = {"Retry-After": str(exc.wait)} if isinstance(exc, TooFast) else None
        return Response(body, status=http_status, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        return Response(
            {"error": "too_large", "detail": "the request body is too large"},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away (a restart, a dropped connection): nothing was
        # written, and the same request with the same seq is safe to repeat.
        log.warning("database unavailable in %s: %s", context.get("view"), exc)
        body = {"error": "unavailable", "detail": "the database is unavailable; try again"}
        return Response(
            body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "5"}
        )
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        log.exception("unhandled error in %s", context.get("view"))
        return Response(
            {"error": "server_error", "detail": "something went wrong on our side"},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"error": "invalid", "detail": _flatten(exc.detail), "fields": exc.detail}
    else:
        code = exc.get_codes()
        response.data = {
            "error": code if isinstance(code, str) else "error",
            "detail": _flatten(exc.detail),
        }
    return response


def not_found(request, exception=None):
    return JsonResponse({"error": "not_found", "detail": "no such resource"}, status=404)


def server_error(request):
    return JsonResponse(
        {"error": "server_error", "detail": "something went wrong on our side"}, status=500
    )


def bad_request(request, exception=None):
    body = {"error": "bad_request", "detail": "the request was malformed"}
    return JsonResponse(body, status=400)


def permission_denied(request, exception=None):
    return JsonResponse({"error": "forbidden", "detail": "you may not do this"}, status=403)
