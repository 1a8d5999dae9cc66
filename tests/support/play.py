"""Driving games through the service in tests."""

from __future__ import annotations

import random
from collections.abc import Collection

import pytest

from games.engines import base
from games.models import Game, Seat
from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for


def users_by_seat(game: Game) -> dict[int, object]:
    return {
        seat.index: seat.user for seat in Seat.objects.filter(game=game).select_related("user")
    }


def current_state(game: Game, *, use_snapshots: bool = True):
    game.refresh_from_db()
    return store.load(game, engine_for(game), use_snapshots=use_snapshots).state


def hand(game: Game, seat: int) -> list[int]:
    """A seat's hand in the test engine (duel)."""
    return current_state(game)["hands"][seat]


def random_move(game: Game, rng: random.Random):
    """Submit one random legal action of a random seat that may act."""
    engine = engine_for(game)
    state = current_state(game)
    seat = rng.choice(sorted(engine.to_act(state)))
    action = rng.choice(engine.legal_actions(state, seat))
    user = users_by_seat(game)[seat]
    return check_submit_action(game, user, action=action, expected_seq=game.seq)


def play_until_kind(
    game: Game, users: list, kinds: str | Collection[str], seed: int = 3, limit: int = 120
):
    """Random legal moves (seeded) through the service until a seat to act
    may make a move of one of `kinds`: the game, that seat, its user and its
    legal moves."""
    wanted = {kinds} if isinstance(kinds, str) else set(kinds)
    engine = base.get(game.title)
    rng = random.Random(seed)
    for _ in range(limit):
        state = store.load(game, engine).state
        if engine.is_over(state):
            break
        for seat in sorted(engine.to_act(state)):
            legal = engine.legal_actions(state, seat)
            if any(a["type"] in wanted for a in legal):
                return game, seat, users[seat], legal
        seat = rng.choice(sorted(engine.to_act(state)))
        legal = engine.legal_actions(state, seat)
        check_submit_action(game, users[seat], action=rng.choice(legal), expected_seq=game.seq)
        game = Game.objects.get(pk=game.pk)
    pytest.fail(f"no move of {sorted(wanted)} came up")
