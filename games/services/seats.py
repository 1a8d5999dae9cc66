"""A seat leaving the game."""

from __future__ import annotations

from django.db import transaction

from games.models import Event, Game
from games.services.common import (
    active_seat_row,
    require_active,
    require_moderator,
    require_not_suspended,
    require_unlocked,
    required_reason,
    seat_of,
)
from games.stream import store
from games.stream.derived import derived_fields, engine_for, maybe_snapshot, sync_seat_statuses


def check_resign(game: Game, user, *, source: str = Event.Source.API, reason: str = "") -> Event:
    """A player leaves the seat they hold (not while a moderator holds the game locked)."""
    require_not_suspended(user)
    require_unlocked(game)
    return do_resign(game, seat_of(game, user), actor=user, source=source, reason=reason)


def check_force_resign(game: Game, moderator, *, seat, reason) -> Event:
    """A moderator resigns `seat` for its player, with a reason (also while
    the game is locked: settling a dispute may take it)."""
    require_moderator(moderator)
    reason = required_reason(reason)
    game.refresh_from_db()
    require_active(game)
    active_seat_row(game, seat)
    return do_resign(game, seat, actor=moderator, source=Event.Source.MODERATOR, reason=reason)


def do_resign(game: Game, seat: int, *, actor, source: str, reason: str = "") -> Event:
    """`seat` leaves: the title's rules for a leaving player apply, or the
    game is aborted where the title cannot go on without it."""
    game.refresh_from_db()
    require_active(game)
    engine = engine_for(game)
    loaded = store.load(game, engine)
    after = engine.resign(loaded.state, seat)
    if after is None:
        derived = {"to_act": [], "status": Game.Status.ABORTED, "result": None}
        after = loaded.state
    else:
        derived = derived_fields(engine, after)
    with transaction.atomic():
        event = store.append(
            game, expected_seq=game.seq, kind=Event.Kind.RESIGN, source=source,
            payload={"reason": reason, "aborts": derived["status"] == Game.Status.ABORTED},
            seat=seat, actor=actor, head_hash=loaded.head_hash, derived=derived,
        )  # fmt: skip
        sync_seat_statuses(game)
    maybe_snapshot(game, engine, event, after)
    return event
