"""The lobby, a table's page and an address invitation's landing page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return HttpResponse("lobby")


@require_GET
def table(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse("table")


@require_GET
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    return HttpResponse("invitation")
