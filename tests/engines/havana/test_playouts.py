"""Random legal playouts: no crash, always a result, Havana's invariants at
every step (the shared contract checks are in tests/engines/test_contract.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.havana import ENGINE

from .playout import POLICIES, check_invariants, playout

# slow: whole random games.
pytestmark = pytest.mark.slow


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


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_with_the_shipped_list_end_by_the_vp_target_of_the_rules(players, policy):
    """The rules end Havana only at 25/20/15 VP; the engine's "no building can
    ever be paid" end is a safety net the provisional list should not reach.
    A modest seeded loop here; bench/bench_havana.py counts hundreds."""
    ends = Counter()
    for seed in range(12):
        state, _ = playout(players, 7000 + 100 * players + seed, policy=POLICIES[policy])
        ends[ENGINE.result(state)["ended_by"]] += 1
    assert ends == {"target": 12}
