"""The front page: a welcome for visitors, the dashboard for players."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from web import dashboard, showcase


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html", {"titles": showcase.titles()})
    return render(request, "web/dashboard.html", dashboard.context(request.user))
