"""Random legal playouts: no crash, always a result, Havana's invariants at
every step (the shared contract checks are in tests/engines/test_contract.py)."""

from __future__ import annotations

import pytest

from games.engines.havana import ENGINE

from .playout import check_invariants, playout


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_always_end_with_a_result_and_keep_the_invariants(players):
    for seed in range(100):

        def step(before, seat, action, after):
            check_invariants(after)

        state, _ = playout(players, 1000 * players + seed, step)
        result = ENGINE.result(state)
        assert result["winners"]
        if result["ended_by"] == "target":
            (winner,) = result["winners"]
            assert result["scores"][winner] >= state["target"]
            assert max(result["scores"]) == result["scores"][winner]
        else:
            best = max(result["scores"])
            assert result["winners"] == [s for s in range(players) if result["scores"][s] == best]
