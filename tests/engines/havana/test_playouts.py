"""Random legal playouts: no crash, always a result, invariants at every step."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction, canonical_json
from games.engines.havana import ENGINE

from .playout import check_invariants, playout


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_always_end_with_a_result_and_keep_the_invariants(players):
    for seed in range(100):

        def step(before, seat, action, after):
            check_invariants(after)

        state, _ = playout(players, 1000 * players + seed, step)
        result = ENGINE.result(state)
        assert sorted(result["ranking"]) == list(range(players))
        assert result["winners"]
        if result["reason"] == "target":
            (winner,) = result["winners"]
            assert result["scores"][winner] >= state["target"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replaying_the_same_moves_gives_the_same_state_byte_for_byte(players):
    final, moves = playout(players, seed=77 + players)
    state = ENGINE.setup(players, {}, 77 + players)
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action)
    assert canonical_json(state) == canonical_json(final)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_never_changes_the_state_it_is_given(players):
    def step(before, seat, action, after):
        assert canonical_json(before) == snapshot[0]
        snapshot[0] = canonical_json(after)

    snapshot = [canonical_json(ENGINE.setup(players, {}, 5))]
    playout(players, 5, step)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_reads_back_from_its_text_line(players):
    def step(before, seat, action, after):
        for s in ENGINE.to_act(before):
            for legal in ENGINE.legal_actions(before, s):
                line = ENGINE.text(legal)
                assert "\n" not in line
                assert ENGINE.parse(line, before, s) == legal, line

    for seed in range(3):
        playout(players, 300 + seed, step)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_timeout_action_is_legal_at_every_decision_point(players):
    def step(before, seat, action, after):
        for s in ENGINE.to_act(before):
            assert ENGINE.timeout_action(before, s) in ENGINE.legal_actions(before, s)

    for seed in range(5):
        playout(players, 500 + seed, step)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_accepts_exactly_the_listed_actions(players):
    """Every listed action applies; actions met elsewhere in the game apply only
    where they are listed (apply validates a subset, which must agree)."""
    seen: dict[str, dict] = {}
    rng = random.Random(players)

    def step(before, seat, action, after):
        for s in ENGINE.to_act(before):
            listed = ENGINE.legal_actions(before, s)
            keys = {canonical_json(a) for a in listed}
            for a in listed:
                seen.setdefault(canonical_json(a), a)
            for a in rng.sample(listed, min(5, len(listed))):
                ENGINE.apply(before, s, a)
            pool = list(seen.values())
            for a in rng.sample(pool, min(20, len(pool))):
                if canonical_json(a) in keys:
                    ENGINE.apply(before, s, a)
                else:
                    with pytest.raises(IllegalAction):
                        ENGINE.apply(before, s, a)

    for seed in range(3):
        playout(players, 700 + seed, step)
