"""Finishing test games (the duel engine) through the move service."""

from __future__ import annotations

import pytest

from games.services.moves import check_submit_action
from games.stream.derived import engine_for
from tests.support.play import current_state, users_by_seat


def play_out(game, *, cards: dict[int, int] | None = None, turns: int | None = None) -> None:
    """Play `game` to its end (or `turns` turns): the lowest seat to act
    moves; it commits its card at `cards[seat]` (an index into its sorted
    hand, 0 unless given), and passes when it may draw."""
    engine = engine_for(game)
    played = 0
    while turns is None or played < turns:
        state = current_state(game)
        if engine.result(state) is not None:
            return
        seat = min(engine.to_act(state))
        if state["phase"] == "commit":
            hand = state["hands"][seat]
            action = {"type": "commit", "card": hand[(cards or {}).get(seat, 0) % len(hand)]}
        else:
            action = {"type": "pass"}
        user = users_by_seat(game)[seat]
        check_submit_action(game, user, action=action, expected_seq=game.seq)
        played += 1


@pytest.fixture
def finish():
    return play_out
