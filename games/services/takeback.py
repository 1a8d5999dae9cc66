"""Undo by consent: a player asks to take back their last move; the other
seats approve or refuse; full approval appends an `undo`.  What is open and
who answered is read in `games.selectors.takeback`."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_noop

from games.engines.base import IllegalAction
from games.errors import InvalidRequest
from games.models import Event, Game
from games.selectors.takeback import (
    ANSWERS,
    answers_to,
    latest_beside_talk,
    open_request,
    other_seats,
)
from games.services.common import (
    current_seq,
    require_active,
    require_not_suspended,
    require_unlocked,
    seat_of,
)
from games.services.undo import do_undo
from games.stream import store
from games.stream.derived import engine_for


def check_request_takeback(
    game: Game, user, *, expected_seq: int, source: str = Event.Source.API
) -> Event:
    """A player asks to take back the move of the seat they hold."""
    require_not_suspended(user)
    seat = seat_of(game, user)
    return do_request_takeback(game, seat, actor=user, expected_seq=expected_seq, source=source)


def do_request_takeback(game: Game, seat: int, *, actor, expected_seq: int, source: str) -> Event:
    """`seat` asks to take back its move, which must be the latest event
    (talk aside: what was said after it does not count)."""
    game.refresh_from_db()
    require_active(game)
    require_unlocked(game)
    expected_seq = current_seq(game, expected_seq)
    last = latest_beside_talk(game)
    if last is None or last.kind != Event.Kind.ACTION or last.seat != seat:
        raise InvalidRequest(
            gettext_noop("you can take back only your own move, while it is the latest")
        )
    engine = engine_for(game)
    before = store.load(game, engine, head=last.seq - 1).state
    after = store.load(game, engine).state
    if not engine.takeback_allowed(before, seat, last.payload["action"], after):
        raise IllegalAction("that move revealed information or drew something: it stands")
    with transaction.atomic():
        event = store.append(
            game, expected_seq=expected_seq, kind=Event.Kind.TAKEBACK_REQUEST, source=source,
            payload={"move_seq": last.seq}, seat=seat, actor=actor, head_hash=game.head_hash,
        )  # fmt: skip
        if not other_seats(game, seat):
            # Alone at the table (solo): nobody is there to consent or refuse.
            return _undo_move(game, event)
    return event


def check_answer_takeback(
    game: Game, user, *, answer: str, expected_seq: int, source: str = Event.Source.API
) -> Event:
    """A player answers the open request for the seat they hold."""
    if answer not in ANSWERS:
        raise InvalidRequest(gettext_noop("answer must be 'approve' or 'refuse'"))
    require_not_suspended(user)
    seat = seat_of(game, user)
    return do_answer_takeback(
        game, seat, actor=user, answer=answer, expected_seq=expected_seq, source=source
    )


def do_answer_takeback(
    game: Game, seat: int, *, actor, answer: str, expected_seq: int, source: str
) -> Event:
    """`seat` approves or refuses the open request; the last approval undoes."""
    game.refresh_from_db()
    require_unlocked(game)
    expected_seq = current_seq(game, expected_seq)
    pending = open_request(game)
    if pending is None:
        raise InvalidRequest(gettext_noop("there is no open takeback request"))
    if seat == pending.seat or seat in answers_to(game, pending):
        raise InvalidRequest(gettext_noop("you cannot answer this request"))
    with transaction.atomic():
        event = store.append(
            game, expected_seq=expected_seq, kind=Event.Kind.TAKEBACK_ANSWER, source=source,
            payload={"request_seq": pending.seq, "answer": answer}, seat=seat, actor=actor,
            head_hash=game.head_hash,
        )  # fmt: skip
        answers = answers_to(game, pending)
        everyone_answered = set(answers) >= other_seats(game, pending.seat)
        if everyone_answered and all(a == "approve" for a in answers.values()):
            return _undo_move(game, pending)
    return event


def _undo_move(game: Game, pending: Event) -> Event:
    move_seq = pending.payload["move_seq"]
    return do_undo(
        game, actor=None, to_seq=move_seq - 1, source=Event.Source.SYSTEM,
        reason=f"takeback of move {move_seq} approved by every other seat",
    )  # fmt: skip
