"""The tournaments' pages: the list, and one tournament with its sign-up,
rounds, games and standings.  Acts go through tournaments.services'
check_* as the API's do; a refusal is a message on the page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from web.views.common import attempt, readable

LIST_SIZE = 50


@require_GET
def tournaments(request: HttpRequest) -> HttpResponse:
    found = [selectors.summary(t) for t in selectors.listed()[:LIST_SIZE]]
    return render(request, "web/tournaments.html", {
        "tournaments": found, "may_organise": services.may_organise(request.user),
    })  # fmt: skip


@require_GET
def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    shown = readable(lambda: selectors.detail(selectors.get(pk), request.user))
    return render(request, "web/tournament.html", {"t": shown})


@login_required
@require_POST
def sign_up(request: HttpRequest, pk: int) -> HttpResponse:
    attempt(request, lambda: services.check_sign_up(pk, request.user), "You are signed up.")
    return redirect("web:tournament", pk=pk)


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    attempt(request, lambda: services.check_withdraw(pk, request.user), "You withdrew.")
    return redirect("web:tournament", pk=pk)


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    attempt(request, lambda: services.check_start_tournament(pk, request.user),
            "The tournament has started: round 1's games are on.")  # fmt: skip
    return redirect("web:tournament", pk=pk)
