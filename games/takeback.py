"""Undo by consent: a player asks to take back their last move; the other
seats approve or refuse; full approval appends an `undo`.

Requests and answers are events (`takeback_request`, `takeback_answer`) that do
not touch engine state.  A request is open while nothing but answers to it
followed it; any other event makes it lapse.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import service, store
from games.engines.base import IllegalAction
from games.errors import InvalidRequest
from games.models import Event, Game, Seat

ANSWERS = ("approve", "refuse")


def open_request(game: Game, head: int | None = None) -> Event | None:
    """The pending request, if the only events after it are answers to it
    (as the game stood at `head`; default: now)."""
    events = Event.objects.filter(game=game)
    if head is not None:
        events = events.filter(seq__lte=head)
    for event in events.order_by("-seq")[:10]:
        if event.kind == Event.Kind.TAKEBACK_REQUEST:
            return event
        if event.kind != Event.Kind.TAKEBACK_ANSWER:
            return None
    return None


def answers_to(game: Game, request: Event, head: int | None = None) -> dict[int, str]:
    rows = Event.objects.filter(game=game, kind=Event.Kind.TAKEBACK_ANSWER, seq__gt=request.seq)
    if head is not None:
        rows = rows.filter(seq__lte=head)
    return {event.seat: event.payload["answer"] for event in rows}


def other_seats(game: Game, seat: int) -> set[int]:
    active = Seat.objects.filter(game=game, status=Seat.Status.ACTIVE)
    return set(active.values_list("index", flat=True)) - {seat}


def status(
    game: Game, *, head: int | None = None, playing: set[int] | None = None
) -> dict[str, Any] | None:
    """The open request now, or as the game stood at `head`, when the seats
    in `playing` had not left it."""
    request = open_request(game, head)
    if request is None:
        return None
    answers = answers_to(game, request, head)
    others = other_seats(game, request.seat) if playing is None else playing - {request.seat}
    return {
        "request_seq": request.seq,
        "by": request.seat,
        "move_seq": request.payload["move_seq"],
        "answers": {str(seat): answer for seat, answer in answers.items()},
        "waiting_for": sorted(others - set(answers)),
    }


def request(game: Game, user, *, expected_seq: int, source: str = Event.Source.API) -> Event:
    """`user` asks to take back their move, which must be the latest event."""
    seat = service.seat_of(game, user)
    game.refresh_from_db()
    service.check_active(game)
    last = Event.objects.get(game=game, seq=game.seq)
    if last.kind != Event.Kind.ACTION or last.seat != seat:
        raise InvalidRequest("you can take back only your own move, while it is the latest")
    engine = service.engine_for(game)
    before = store.load(game, engine, head=game.seq - 1).state
    after = store.load(game, engine).state
    if not engine.takeback_allowed(before, seat, last.payload["action"], after):
        raise IllegalAction("that move revealed information or drew something: it stands")
    with transaction.atomic():
        event = store.append(
            game, expected_seq=expected_seq, kind=Event.Kind.TAKEBACK_REQUEST, source=source,
            payload={"move_seq": last.seq}, seat=seat, actor=user, head_hash=game.head_hash,
        )  # fmt: skip
        if not other_seats(game, seat):
            # Alone at the table (solo): nobody is there to consent or refuse.
            return _undo_move(game, event)
    return event


def answer(
    game: Game, user, *, answer: str, expected_seq: int, source: str = Event.Source.API
) -> Event:
    """Another seat approves or refuses the open request; the last approval undoes."""
    if answer not in ANSWERS:
        raise InvalidRequest("answer must be 'approve' or 'refuse'")
    seat = service.seat_of(game, user)
    game.refresh_from_db()
    pending = open_request(game)
    if pending is None:
        raise InvalidRequest("there is no open takeback request")
    if seat == pending.seat or seat in answers_to(game, pending):
        raise InvalidRequest("you cannot answer this request")
    with transaction.atomic():
        event = store.append(
            game, expected_seq=expected_seq, kind=Event.Kind.TAKEBACK_ANSWER, source=source,
            payload={"request_seq": pending.seq, "answer": answer}, seat=seat, actor=user,
            head_hash=game.head_hash,
        )  # fmt: skip
        answers = answers_to(game, pending)
        everyone_answered = set(answers) >= other_seats(game, pending.seat)
        if everyone_answered and all(a == "approve" for a in answers.values()):
            return _undo_move(game, pending)
    return event


def _undo_move(game: Game, pending: Event) -> Event:
    move_seq = pending.payload["move_seq"]
    return service.append_undo(
        game, actor=None, to_seq=move_seq - 1, source=Event.Source.SYSTEM,
        reason=f"takeback of move {move_seq} approved by every other seat",
    )  # fmt: skip
