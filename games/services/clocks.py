"""Acts on clocks: pause, resume, extend, a moderator's lock and unlock
(which stop and restart the clocks as a pause does), outage repairs,
vacation notices, and holding back a timeout that failed.

Each is an event in the game's stream (a `clock` event with the actor and
the reason; a `note` for a failed timeout), appended after the current head
together with the deadlines it moves.  The acts that touch many games (an
outage, a vacation) are one short transaction per game, retried when a move
lands first, and skip a game that already has its event, so running them
again finishes a job that stopped midway without doing any game twice.
"""

from __future__ import annotations

import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.clocks import deadlines
from games.errors import Conflict, GameLocked, InvalidRequest
from games.models import Event, Game, ModerationItem, Outage, Seat, Vacation
from games.services import queue
from games.services.common import (
    require_active,
    require_moderator,
    required_reason,
    retry_on_stale,
)
from games.stream import store

TIMEOUT_FAILED = "timeout_failed"


def _append_clock(game: Game, actor, source: str, payload: dict[str, Any]) -> Event:
    return store.append(
        game, expected_seq=game.seq, kind=Event.Kind.CLOCK, source=source, payload=payload,
        actor=actor, head_hash=game.head_hash,
    )  # fmt: skip


def _running_game(game: Game) -> None:
    game.refresh_from_db()
    require_active(game)
    if not game.clock:
        raise InvalidRequest(gettext_noop("this game has no clock"))


def check_pause(game: Game, user, *, reason: str) -> Event:
    require_moderator(user)
    return do_pause(game, actor=user, reason=reason)


def do_pause(
    game: Game, *, actor, reason: str, source: str = Event.Source.MODERATOR, flag: bool = False
) -> Event:
    """Stop every seat's clock, remembering the time each had left; `flag`
    marks the game for a moderator (a timeout under the `moderator` policy)."""
    _running_game(game)
    if game.paused:
        raise InvalidRequest(gettext_noop("the game is already paused"))
    with transaction.atomic():
        _stop_clocks(game, {"flagged": True} if flag else {})
        if flag:
            queue.do_file_item(game, ModerationItem.Kind.FLAGGED, reason)
        return _append_clock(game, actor, source, {"clock": "pause", "reason": reason})


def _stop_clocks(game: Game, marks: dict[str, bool]) -> None:
    """Each running seat keeps the time it had left; the game is marked
    paused (and with `marks`) before the event that says so is appended, so
    the deadlines' listener sees it paused."""
    now = timezone.now()
    for seat in Seat.objects.filter(game=game, deadline__isnull=False):
        seat.remaining = max((seat.deadline - now).total_seconds(), 0.0)
        seat.save(update_fields=["remaining"])
    marks = {"paused": True, **marks}
    Game.objects.filter(pk=game.pk).update(**marks)
    for name, value in marks.items():
        setattr(game, name, value)


def check_resume(game: Game, user, *, reason: str) -> Event:
    require_moderator(user)
    return do_resume(game, actor=user, reason=reason)


def do_resume(game: Game, *, actor, reason: str) -> Event:
    """Restart the clocks: each seat gets the time it had left (a new seat a full move)."""
    _running_game(game)
    if not game.paused:
        raise InvalidRequest(gettext_noop("the game is not paused"))
    if game.locked:
        raise GameLocked(gettext_noop("the game is locked: unlock it to restart its clocks"))
    with transaction.atomic():
        return _restart_clocks(game, {"flagged": False}, lambda: _append_clock(
            game, actor, Event.Source.MODERATOR, {"clock": "resume", "reason": reason}
        ))  # fmt: skip


def _restart_clocks(game: Game, marks: dict[str, bool], append) -> Event:
    """Unpause the game (and set `marks`), append the event `append()`
    writes, then give each seat to act the time it had left."""
    now = timezone.now()
    marks = {"paused": False, **marks}
    Game.objects.filter(pk=game.pk).update(**marks)
    for name, value in marks.items():
        setattr(game, name, value)
    event = append()
    for seat in Seat.objects.filter(game=game, to_act=True, remaining__isnull=False):
        seat.deadline = now + datetime.timedelta(seconds=seat.remaining)
        seat.save(update_fields=["deadline"])
    Seat.objects.filter(game=game).update(remaining=None)
    deadlines.reschedule(game)
    return event


def check_lock(game: Game, moderator, *, reason) -> Event:
    """A moderator locks a running game while a dispute is open."""
    require_moderator(moderator)
    reason = required_reason(reason)
    game.refresh_from_db()
    require_active(game)
    return do_lock(game, actor=moderator, reason=reason)


def do_lock(game: Game, *, actor, reason: str) -> Event:
    """No move, timeout or takeback is accepted until `do_unlock`; a clocked
    game's clocks stop as for a pause (`pauses` says whether this lock stopped
    them: a game paused before keeps its pause when unlocked)."""
    if game.locked:
        raise Conflict(gettext_noop("the game is already locked"))
    pauses = bool(game.clock) and not game.paused
    with transaction.atomic():
        if pauses:
            _stop_clocks(game, {"locked": True})
        else:
            Game.objects.filter(pk=game.pk).update(locked=True)
            game.locked = True
        return _append_clock(
            game,
            actor,
            Event.Source.MODERATOR,
            {"clock": "lock", "reason": reason, "pauses": pauses},
        )


def check_unlock(game: Game, moderator, *, reason) -> Event:
    require_moderator(moderator)
    reason = required_reason(reason)
    game.refresh_from_db()
    require_active(game)
    return do_unlock(game, actor=moderator, reason=reason)


def do_unlock(game: Game, *, actor, reason: str) -> Event:
    """Moves are accepted again, and clocks the lock stopped run on with the
    time each seat had left."""
    if not game.locked:
        raise Conflict(gettext_noop("the game is not locked"))
    payload = {"clock": "unlock", "reason": reason}
    with transaction.atomic():
        if game.paused and _lock_paused(game):
            return _restart_clocks(game, {"locked": False}, lambda: _append_clock(
                game, actor, Event.Source.MODERATOR, payload
            ))  # fmt: skip
        Game.objects.filter(pk=game.pk).update(locked=False)
        game.locked = False
        return _append_clock(game, actor, Event.Source.MODERATOR, payload)


def _lock_paused(game: Game) -> bool:
    """Whether the lock in force stopped the clocks (its event says)."""
    clocks = Event.objects.filter(game=game, kind=Event.Kind.CLOCK).order_by("-seq")
    for payload in clocks.values_list("payload", flat=True):
        if payload.get("clock") == "lock":
            return bool(payload.get("pauses"))
    return False


def check_extend(game: Game, user, *, by_seconds: int, reason: str, seat=None) -> Event:
    require_moderator(user)
    return do_extend(game, actor=user, by_seconds=by_seconds, reason=reason, seat=seat)


def do_extend(
    game: Game, *, actor, by_seconds: int, reason: str, seat: int | None = None
) -> Event:
    """Move one seat's deadline (or every running one) later."""
    _running_game(game)
    if game.paused:
        raise InvalidRequest(gettext_noop("the game is paused: resume it instead"))
    with transaction.atomic():
        seats = Seat.objects.filter(game=game, deadline__isnull=False)
        if seat is not None:
            seats = seats.filter(index=seat)
        if not seats.exists():
            raise InvalidRequest(gettext_noop("no running deadline to extend"))
        event = _append_clock(game, actor, Event.Source.MODERATOR, {
            "clock": "extend", "seconds": by_seconds, "seat": seat, "reason": reason,
        })  # fmt: skip
        seats.update(deadline=F("deadline") + datetime.timedelta(seconds=by_seconds), reminded=[])
        deadlines.reschedule(game)
        return event


def do_repair_outage(game_id: int, outage: Outage) -> Event | None:
    """Move the game's running deadlines later by the outage's length, with a
    `clock` event saying why.  None when the game has no running clock or
    had this outage repaired already."""
    return retry_on_stale(partial(_repair_outage, game_id, outage))


def _repair_outage(game_id: int, outage: Outage) -> Event | None:
    game = Game.objects.filter(pk=game_id).first()
    running = game is not None and game.status == Game.Status.ACTIVE and not game.paused
    if not running or game.deadline is None or _has_clock_event(game, "outage", outage.pk):
        return None
    gap = outage.length
    with transaction.atomic():
        event = _append_clock(game, None, Event.Source.SYSTEM, {
            "clock": "outage", "seconds": int(gap.total_seconds()), "reason": outage.reason,
            "outage": outage.pk,
        })  # fmt: skip
        Seat.objects.filter(game=game, deadline__isnull=False).update(
            deadline=F("deadline") + gap, next_reminder=F("next_reminder") + gap
        )
        # Every running deadline moved alike, so the earliest did too.
        Game.objects.filter(pk=game.pk).update(deadline=F("deadline") + gap)
    return event


def do_vacation_notice(game_id: int, seat: int, vacation: Vacation) -> Event | None:
    """Tell the game's table that the player of `seat` is away, and stop that
    seat's clock for the vacation's length.  None when the game ignores
    vacations, has ended, or was told already."""
    return retry_on_stale(partial(_vacation_notice, game_id, seat, vacation))


def _vacation_notice(game_id: int, seat: int, vacation: Vacation) -> Event | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or not game.clock:
        return None
    if not game.clock.get("vacation", True) or _has_clock_event(game, "vacation", vacation.pk):
        return None
    with transaction.atomic():
        event = _append_clock(game, vacation.user, Event.Source.API, {
            "clock": "vacation", "seat": seat, "until": vacation.ends_at.isoformat(),
            "reason": f"seat {seat} is on vacation", "vacation": vacation.pk,
        })  # fmt: skip
        Seat.objects.filter(game=game, index=seat, deadline__isnull=False).update(
            deadline=F("deadline") + (vacation.ends_at - vacation.starts_at), reminded=[]
        )
        deadlines.reschedule(game)
    return event


def _has_clock_event(game: Game, clock: str, key: int) -> bool:
    """Whether the stream holds the `clock` event of that outage or vacation."""
    payloads = Event.objects.filter(game=game, kind=Event.Kind.CLOCK).values_list(
        "payload", flat=True
    )
    return any(p.get("clock") == clock and p.get(clock) == key for p in payloads)


def do_hold_timeout(game: Game, seat: int, *, until: datetime.datetime) -> Event | None:
    """The timeout of `seat` failed on our side (a bug, not the player's
    doing): its deadline moves to `until`, when the sweep tries again, and
    the game is flagged for a moderator.  A `note` names the seat, once while
    the game stands still (not again on each later try).

    `game` is a fresh row the caller holds locked."""
    with transaction.atomic():
        note = None
        if not _noted(game, seat):
            note = store.append(
                game, expected_seq=game.seq, kind=Event.Kind.NOTE, source=Event.Source.TIMER,
                seat=seat, head_hash=game.head_hash, payload={
                    "note": TIMEOUT_FAILED, "seat": seat,
                    "reason": f"the timeout of seat {seat} failed on the server's side; "
                    "a moderator is asked to decide, and it is tried again meanwhile",
                },
            )  # fmt: skip
        Seat.objects.filter(game=game, index=seat).update(deadline=until)
        Game.objects.filter(pk=game.pk).update(flagged=True)
        queue.do_file_item(game, ModerationItem.Kind.FLAGGED, f"the timeout of seat {seat} failed")
        game.flagged = True
        deadlines.reschedule(game)
    return note


def _noted(game: Game, seat: int) -> bool:
    """Whether a failed-timeout note for `seat` follows the game's last move."""
    recent = Event.objects.filter(game=game).order_by("-seq").values_list("kind", "payload")
    for kind, payload in recent[:20]:
        if kind == Event.Kind.NOTE and payload.get("note") == TIMEOUT_FAILED:
            if payload.get("seat") == seat:
                return True
        elif kind != Event.Kind.CLOCK:
            return False
    return False
