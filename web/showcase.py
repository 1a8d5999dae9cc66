"""The titles as a visitor first sees them: a board at its first move."""

from __future__ import annotations

import functools
from typing import Any

import boards
from games.engines import base

SHOWCASE_SEED = 1


@functools.cache
def titles() -> tuple[dict[str, Any], ...]:
    """Each title with its player counts and its board as a spectator sees a
    fresh game (a fixed seed: the picture is the same on every visit)."""
    shown = []
    for name, engine in sorted(base.available().items()):
        players = max(engine.MIN_PLAYERS, 2)
        state = engine.setup(players, {}, SHOWCASE_SEED)
        view = engine.view(state, None)
        names = {seat: f"player {seat + 1}" for seat in range(players)}
        shown.append(
            {
                "name": name,
                "title": engine.TITLE,
                "min_players": engine.MIN_PLAYERS,
                "max_players": engine.MAX_PLAYERS,
                "board": boards.render(name, view, None, names),
                "provisional": bool(getattr(engine, "PROVISIONAL_DATA", False)),
            }
        )
    return tuple(shown)
