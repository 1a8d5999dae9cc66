"""Acts on clocks: pause, resume, extend, vacation notices, outage repair.

Each is a `clock` event in the game's stream, with the actor and the reason,
appended like any other event after the current head.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import deadlines, service, store
from games.errors import Forbidden, InvalidRequest
from games.models import Event, Game, Seat


def append_clock(game: Game, actor, source: str, payload: dict[str, Any]) -> Event:
    return store.append(
        game, expected_seq=game.seq, kind=Event.Kind.CLOCK, source=source, payload=payload,
        actor=actor, head_hash=game.head_hash,
    )  # fmt: skip


def _require_moderator(user) -> None:
    if not getattr(user, "is_moderator", False):
        raise Forbidden("only moderators can do this")


def _running_game(game: Game) -> None:
    game.refresh_from_db()
    service.check_active(game)
    if not game.clock:
        raise InvalidRequest("this game has no clock")


def pause(game: Game, *, actor, reason: str, source: str = Event.Source.MODERATOR) -> Event:
    """Stop every seat's clock, remembering the time each had left."""
    _running_game(game)
    if game.paused:
        raise InvalidRequest("the game is already paused")
    now = timezone.now()
    with transaction.atomic():
        for seat in Seat.objects.filter(game=game, deadline__isnull=False):
            seat.remaining = max((seat.deadline - now).total_seconds(), 0.0)
            seat.save(update_fields=["remaining"])
        Game.objects.filter(pk=game.pk).update(paused=True)
        game.paused = True
        return append_clock(game, actor, source, {"clock": "pause", "reason": reason})


def resume(game: Game, *, actor, reason: str) -> Event:
    """Restart the clocks: each seat gets the time it had left (a new seat a full move)."""
    _running_game(game)
    if not game.paused:
        raise InvalidRequest("the game is not paused")
    now = timezone.now()
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(paused=False, flagged=False)
        game.paused = game.flagged = False
        event = append_clock(
            game, actor, Event.Source.MODERATOR, {"clock": "resume", "reason": reason}
        )
        for seat in Seat.objects.filter(game=game, to_act=True, remaining__isnull=False):
            seat.deadline = now + datetime.timedelta(seconds=seat.remaining)
            seat.save(update_fields=["deadline"])
        Seat.objects.filter(game=game).update(remaining=None)
        deadlines.reschedule(game)
        return event


def extend(game: Game, *, actor, by_seconds: int, reason: str, seat: int | None = None) -> Event:
    """Move one seat's deadline (or every running one) later."""
    _running_game(game)
    if game.paused:
        raise InvalidRequest("the game is paused: resume it instead")
    with transaction.atomic():
        seats = Seat.objects.filter(game=game, deadline__isnull=False)
        if seat is not None:
            seats = seats.filter(index=seat)
        if not seats.exists():
            raise InvalidRequest("no running deadline to extend")
        event = append_clock(game, actor, Event.Source.MODERATOR, {
            "clock": "extend", "seconds": by_seconds, "seat": seat, "reason": reason,
        })  # fmt: skip
        seats.update(deadline=F("deadline") + datetime.timedelta(seconds=by_seconds), reminded=[])
        deadlines.reschedule(game)
        return event


def moderator_pause(game: Game, user, *, reason: str) -> Event:
    _require_moderator(user)
    return pause(game, actor=user, reason=reason)


def moderator_resume(game: Game, user, *, reason: str) -> Event:
    _require_moderator(user)
    return resume(game, actor=user, reason=reason)


def moderator_extend(game: Game, user, *, by_seconds: int, reason: str, seat=None) -> Event:
    _require_moderator(user)
    return extend(game, actor=user, by_seconds=by_seconds, reason=reason, seat=seat)
