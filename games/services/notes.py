"""A moderator pins a note to a game: a `note` event everyone who sees the
game's log reads (the game's page lists the pinned notes at its top)."""

from __future__ import annotations

from games.models import Event, Game
from games.services.common import require_moderator, required_reason
from games.stream import store


def check_pin_note(game: Game, moderator, *, text) -> Event:
    """A moderator's note, on a running or an ended game; its text is its reason."""
    require_moderator(moderator)
    text = required_reason(text)
    game.refresh_from_db()
    return do_pin_note(game, actor=moderator, text=text, source=Event.Source.MODERATOR)


def do_pin_note(game: Game, *, actor, text: str, source: str) -> Event:
    return store.append(
        game, expected_seq=game.seq, kind=Event.Kind.NOTE, source=source,
        payload={"note": Event.PINNED_NOTE, "reason": text}, actor=actor, head_hash=game.head_hash,
    )  # fmt: skip
