"""The tournaments' pages: the list, and one tournament with its sign-up,
rounds, games and standings.  Acts go through tournaments.services'
check_* as the API's do; a refusal is a message on the page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engines import base
from games.errors import IllegalAction, ServiceError, in_words
from tournaments import selectors, services
from web.views.common import attempt, int_or_none, readable
from web.views.tables import clock_from, options_from, titles_typed

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


@login_required
@require_POST
def advance(request: HttpRequest, pk: int) -> HttpResponse:
    attempt(request, lambda: services.check_advance(pk, request.user),
            "The round is finished: the next one is seated.")  # fmt: skip
    return redirect("web:tournament", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HttpRequest) -> HttpResponse:
    """The organisers' form; after a refusal it comes back with what was
    typed, and the reason.  The title's options are its `<title>-<key>`
    fields, read as the table-opening form reads them."""
    if request.method == "GET":
        return render(request, "web/new_tournament.html", _form(None))
    try:
        made = services.check_create_tournament(request.user, **_from_form(request.POST))
    except (IllegalAction, ServiceError) as error:
        messages.error(request, in_words(error))
        return render(request, "web/new_tournament.html", _form(request.POST), status=400)
    messages.success(request, "The tournament takes sign-ups: start it when the players are in.")
    return redirect("web:tournament", pk=made.pk)


def _form(typed) -> dict[str, Any]:
    return {"titles": titles_typed(typed), "typed": typed, "fresh": typed is None}


def _from_form(form) -> dict[str, Any]:
    """What the form says, as the service takes it: a number that is none
    is passed on for the service to refuse."""

    def number(name: str, default: int) -> Any:
        raw = form.get(name, "").strip()
        return default if not raw else (int_or_none(raw) if int_or_none(raw) is not None else raw)

    clock = clock_from(form)
    title = form.get("title", "")
    try:
        options = options_from(base.get(title), form)
    except (KeyError, TypeError):
        options = None  # an unknown title: the service refuses it
    if clock is not None and form.get("max_timeouts", "").strip():
        clock["max_timeouts"] = number("max_timeouts", 0)
    return {
        "name": form.get("name", ""), "title": title, "options": options,
        "format": form.get("format", "swiss"), "table_size": number("table_size", 4),
        "rounds": number("rounds", 3), "round_days": number("round_days", 14),
        "clock": clock, "rated": "rated" in form, "rules": form.get("rules", ""),
    }  # fmt: skip
