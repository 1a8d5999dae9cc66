"""The talk box under the board: its list, polled on its own (so the words
being typed survive the game's redraws), and the form that sends a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.engines.base import IllegalAction
from games.errors import ServiceError, in_words
from games.models import Event
from games.selectors import viewers
from games.services.talk import check_send_message
from web import pages
from web.views.common import int_or_none, readable


@require_http_methods(["GET", "POST"])
def talk(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "POST":
        return send(request, pk)
    game, seats = readable(lambda: viewers.game_with_seats(pk))
    viewer = readable(lambda: viewers.viewer_of(game, request.user, seats))
    if int_or_none(request.GET.get("seq")) == viewer.head:
        return HttpResponse(status=204)  # htmx leaves the list alone
    context = {"game": game, "talk": pages.talk_context(game, viewer, pages.names(seats))}
    return _no_store(render(request, "web/_talk_list.html", context))


@login_required
def send(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    to = request.POST.get("to", "")
    text = request.POST.get("text", "")
    form = {}
    try:
        check_send_message(
            game, request.user, to=_audience(to), text=text, source=Event.Source.WEB
        )
    except (IllegalAction, ServiceError) as refused:
        # The words stay in the box, with the reason above them.
        form = {"error": in_words(refused), "text": text, "to": to}
    else:
        form = {"to": to}
    if not request.htmx:
        if "error" in form:
            messages.error(request, form["error"])
        return redirect("web:game", pk=pk)
    game, seats = viewers.game_with_seats(pk)
    viewer = viewers.viewer_of(game, request.user, seats)
    context = {"game": game, "talk": pages.talk_context(game, viewer, pages.names(seats), **form)}
    return _no_store(render(request, "web/_talk.html", context))


def _audience(to: str):
    """The form's `to`: a seat number as a number, the rest as words."""
    return int(to) if to.isdigit() and len(to) < 4 else to


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie, HX-Request"
    return response
