"""Whole random games of 18Cuba, for the property tests and the benchmark.

A seeded random player picks a kind of move first (so the forty-nine par
prices of a stock round do not drown its one pass) and then one move of that
kind; in an auction it bids only near the lowest amount, because a uniform
bidder spends everything on the commissioners and the game never gets going.
Every move goes through the engine's `legal_actions` and `apply`, so a game
played here is one a person could play.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...base import Action, State
from ..engine import ENDED_BY, CubaEngine

ENGINE = CubaEngine()
ENGINE_ENDS = ENDED_BY
# Bids within this much of the lowest one listed (the commissioners' auction).
CHEAP_BID = 10
# A game that runs this long has stopped making progress: a bug, not a game.
MAX_MOVES = 20_000

Check = Callable[[State, State, int, Action], None]


@dataclass
class Played:
    state: State
    moves: int


def choose(rng: random.Random, legal: list[Action]) -> Action:
    lowest = min((a["amount"] for a in legal if a["type"] == "bid"), default=0)
    sensible = [a for a in legal if a["type"] != "bid" or a["amount"] <= lowest + CHEAP_BID]
    kinds = sorted({a["type"] for a in sensible})
    kind = rng.choice(kinds)
    return rng.choice([a for a in sensible if a["type"] == kind])


def play(
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    check: Check | None = None,
    max_moves: int = MAX_MOVES,
) -> Played:
    """Play one game to its end; `check(before, after, seat, action)` after
    every move. Raises RuntimeError when the game does not end."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, options, seed)
    for moves in range(max_moves):
        if ENGINE.is_over(state):
            return Played(state, moves)
        seat = min(ENGINE.to_act(state))
        action = choose(rng, ENGINE.legal_actions(state, seat))
        after = ENGINE.apply(state, seat, action)
        if check is not None:
            check(state, after, seat, action)
        state = after
    raise RuntimeError(f"18Cuba {players}p {options} seed {seed}: no end in {max_moves} moves")
