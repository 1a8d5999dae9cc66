"""The moderator's page of a game: the audit (every event, the chain check),
undo with a reason, the clock actions, handing a seat to a bot and the
acts on the game (lock, unlock, note, force a resignation, replace a
seat's player, abort); each an event, through the service."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from games.clocks import options as clock_options
from games.engines import base, bots
from games.errors import InvalidRequest
from games.selectors import history, narration, viewers
from games.services.abort import check_abort
from games.services.bots import check_hand_to_bot
from games.services.clocks import check_extend, check_lock, check_pause, check_resume, check_unlock
from games.services.notes import check_pin_note
from games.services.replacement import check_replace_seat
from games.services.seats import check_force_resign
from games.services.undo import check_undo
from web import pages
from web.views.common import attempt, int_or_none, readable


@login_required
@require_GET
def moderate(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    audit = readable(lambda: history.audit(game, viewers.viewer_of(game, request.user)))
    engine = base.get(game.title)
    who = pages.names(viewers.seats_of(game))
    live = audit["live"]
    events = [
        {
            **event,
            "who": who.get(event["seat"], "") if event["seat"] is not None else "",
            "text": narration.event_line(engine, event, narration.seat_names(who)),
            "live": any(start <= event["seq"] <= end for start, end in live),
        }
        for event in audit["events"]
    ]
    return render(
        request,
        "web/moderate.html",
        {
            "game": game,
            "engine": engine,
            "audit": audit,
            "events": events,
            "names": who,
            "bots": bots.kinds_for(engine),
        },
    )


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    to_seq = int_or_none(request.POST.get("to_seq"))

    def write():
        if to_seq is None:
            raise InvalidRequest(gettext_noop("give the seq to go back to"))
        return check_undo(game, request.user, to_seq=to_seq, reason=request.POST.get("reason", ""))

    attempt(request, write, f"Undone back to seq {to_seq}.")
    return redirect("web:moderate", pk=pk)


@login_required
@require_POST
def clock(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    action = request.POST.get("action")
    reason = request.POST.get("reason", "").strip()

    def write():
        if not reason:
            raise InvalidRequest(gettext_noop("a clock action needs a reason"))
        if action == "pause":
            return check_pause(game, request.user, reason=reason)
        if action == "resume":
            return check_resume(game, request.user, reason=reason)
        if action == "extend":
            by = clock_options.seconds(request.POST.get("by", "").strip() or None, "by")
            seat = int_or_none(request.POST.get("seat"))
            return check_extend(game, request.user, by_seconds=by, reason=reason, seat=seat)
        raise InvalidRequest(gettext_noop("the clock action is pause, resume or extend"))

    attempt(request, write, f"Clock: {action}.")
    return redirect("web:moderate", pk=pk)


# The acts of the page's "Act on the game" form, each given the game, the
# moderator and the form; the service checks role, reason, seat and player.
ACTS = {
    "lock": lambda game, by, form: check_lock(game, by, reason=form.get("reason", "")),
    "unlock": lambda game, by, form: check_unlock(game, by, reason=form.get("reason", "")),
    "note": lambda game, by, form: check_pin_note(game, by, text=form.get("reason", "")),
    "abort": lambda game, by, form: check_abort(game, by, reason=form.get("reason", "")),
    "force_resign": lambda game, by, form: check_force_resign(
        game, by, seat=int_or_none(form.get("seat")), reason=form.get("reason", "")
    ),
    "replace_seat": lambda game, by, form: check_replace_seat(
        game,
        by,
        seat=int_or_none(form.get("seat")),
        username=form.get("username", "").strip(),
        reason=form.get("reason", ""),
    ),
}


@login_required
@require_POST
def act(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    chosen = request.POST.get("act", "")

    def write():
        if chosen not in ACTS:
            raise InvalidRequest(gettext_noop("choose what to do"))
        return ACTS[chosen](game, request.user, request.POST)

    attempt(request, write, f"Done: {chosen.replace('_', ' ')}.")
    return redirect("web:moderate", pk=pk)


@login_required
@require_POST
def hand_to_bot(request: HttpRequest, pk: int) -> HttpResponse:
    game = readable(lambda: viewers.game(pk))
    seat = int_or_none(request.POST.get("seat"))

    def write():
        if seat is None:
            raise InvalidRequest(gettext_noop("seat must be a seat number"))
        return check_hand_to_bot(
            game, request.user, seat=seat, kind=request.POST.get("kind"),
            reason=request.POST.get("reason", ""),
        )  # fmt: skip

    attempt(request, write, f"Seat {seat} is played by a bot now.")
    return redirect("web:moderate", pk=pk)
