"""The talk box under the board: its list, polled on its own (so the words
being typed survive the game's redraws), and the form that sends a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.engines.base import IllegalAction
from games.errors import ServiceError, in_words
from games.models import Event
from games.selectors import viewers
from games.services.queue import check_report_message
from games.services.talk import (
    check_hide_message,
    check_mute_seat,
    check_send_message,
    check_unmute_seat,
)
from notifications import pacing
from web import pages
from web.views.common import int_or_none, readable


@require_http_methods(["GET", "POST"])
def talk(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "POST":
        return send(request, pk)
    game, seats = readable(lambda: viewers.game_with_seats(pk))
    viewer = readable(lambda: viewers.viewer_of(game, request.user, seats))
    if viewer.seat is not None:
        pacing.seen(game.pk, request.user.pk)  # the talk box polls too
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


@login_required
@require_POST
def act(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """Report a message (a moderator: hide it), from the talk box."""
    game = readable(lambda: viewers.game(pk))
    reason = request.POST.get("reason", "")
    if request.POST.get("act") == "hide":
        done = "The message is hidden."

        def write():
            return check_hide_message(game, request.user, seq=seq, reason=reason)
    else:
        done = "Your report went to the moderators."

        def write():
            return check_report_message(game, request.user, seq=seq, reason=reason)

    return _answer(request, pk, write, done)


@login_required
@require_POST
def mute(request: HttpRequest, pk: int) -> HttpResponse:
    """Mute or hear again one seat's messages, for oneself."""
    game = readable(lambda: viewers.game(pk))
    seat = int_or_none(request.POST.get("seat"))
    if request.POST.get("mute") == "0":
        done = "You see that player's messages again."

        def write():
            return check_unmute_seat(game, request.user, seat=seat)
    else:
        done = "You no longer see that player's messages."

        def write():
            return check_mute_seat(game, request.user, seat=seat)

    return _answer(request, pk, write, done)


def _answer(request: HttpRequest, pk: int, write, done: str) -> HttpResponse:
    """The talk box again after an act, with how it went."""
    try:
        write()
    except (IllegalAction, ServiceError) as refused:
        form = {"error": in_words(refused)}
    else:
        form = {"done": done}
    if not request.htmx:
        if "error" in form:
            messages.error(request, form["error"])
        else:
            messages.success(request, done)
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
