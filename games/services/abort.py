"""A moderator ends a game without a result."""

from __future__ import annotations

from django.db import transaction

from games.models import Event, Game
from games.services.common import require_active, require_moderator, required_reason
from games.stream import store
from games.stream.derived import sync_seat_statuses


def check_abort(game: Game, moderator, *, reason) -> Event:
    """A moderator aborts a running game; the reason is shown to its players."""
    require_moderator(moderator)
    reason = required_reason(reason)
    game.refresh_from_db()
    require_active(game)
    return do_abort(game, actor=moderator, reason=reason, source=Event.Source.MODERATOR)


def do_abort(game: Game, *, actor, reason: str, source: str) -> Event:
    """The game stops where it stands: status aborted, nobody to act, no result."""
    derived = {"to_act": [], "status": Game.Status.ABORTED, "result": None, "abort_reason": reason}
    with transaction.atomic():
        event = store.append(
            game, expected_seq=game.seq, kind=Event.Kind.ABORT, source=source,
            payload={"reason": reason}, actor=actor, head_hash=game.head_hash, derived=derived,
        )  # fmt: skip
        sync_seat_statuses(game)
    return event
