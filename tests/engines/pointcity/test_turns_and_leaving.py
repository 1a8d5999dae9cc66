"""Point City's side of the engine contract: its malformed actions, turn
order, leaving and timeouts.  The checks every title shares are in
tests/engines/test_contract.py."""

from __future__ import annotations

import pytest

from games.engines import base
from games.engines.pointcity import ENGINE

from .helpers import ALICE, BOB, CHARLIE, act, assert_illegal, new_game, seat_to_act


def test_pointcity_is_registered_for_one_to_four_players():
    engine = base.get("pointcity")
    assert engine is ENGINE
    assert (engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.VERSION) == (1, 4, 1)


MALFORMED = [
    "draw",
    {"type": "draw", "odd": {1, 2}},
    {"type": "flip"},
    {"type": "flip", "space": ["b3"]},
    {"type": "flip", "space": "z9"},
    {"type": "take"},
    {"type": "take", "spaces": "a1b1", "pay": []},
    {"type": "take", "spaces": [1, 2], "pay": []},
    {"type": "take", "spaces": ["a1", "b1"]},
    {"type": "take", "spaces": ["a1", "b1"], "pay": None},
    {"type": "take", "spaces": ["b1", "a1"], "pay": []},
    {"type": "take", "spaces": ["a1", "b1"], "pay": [{"x": 1}]},
    {"type": "civic", "token": 8},
    {"type": "pass"},
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_malformed_actions_raise_illegal_action_and_change_nothing(action):
    message = assert_illegal(new_game(2, seed=1), ALICE, action)
    assert isinstance(message, str) and message


def test_lookalike_values_do_not_pass_for_legal_ones():
    state = new_game(2, seed=1)
    state["phase"], state["pending"] = "civic", {"civic": 1, "refill": []}
    state["token_box"] = sorted(set(state["token_box"] + state["display"]) - {1, 8})
    state["display"] = [1, 8]
    assert {"type": "civic", "token": 1} in ENGINE.legal_actions(state, ALICE)
    for token in (True, 1.0, "1", 8.0, [8]):
        assert_illegal(state, ALICE, {"type": "civic", "token": token})


def test_only_the_seat_to_act_may_act():
    state = new_game(3, seed=1)
    assert ENGINE.legal_actions(state, BOB) == []
    assert "not your turn" in assert_illegal(state, BOB, {"type": "draw"})


def test_play_goes_clockwise_from_the_first_player():
    state = new_game(3, seed=1)
    order = []
    for _ in range(4):
        order.append(seat_to_act(state))
        state = act(state, order[-1], "draw")
    assert order == [ALICE, BOB, CHARLIE, ALICE]


def test_nothing_is_legal_after_the_end():
    state = new_game(2, seed=1)
    state["phase"], state["end"] = "over", "the market could not be refilled"
    assert ENGINE.to_act(state) == set()
    assert "over" in assert_illegal(state, ALICE, {"type": "draw"})


def test_a_resigned_player_is_skipped_and_cannot_win():
    state = ENGINE.resign(new_game(3, seed=1), BOB)
    assert ENGINE.to_act(state) == {ALICE}
    state = act(state, ALICE, "draw")
    assert ENGINE.to_act(state) == {CHARLIE}
    state["phase"], state["end"] = "over", "the market could not be refilled"
    result = ENGINE.result(state)
    assert BOB not in result["winners"]
    assert result["places"][BOB] == 3


def test_resigning_on_your_turn_passes_the_turn():
    state = ENGINE.resign(new_game(3, seed=1), ALICE)
    assert ENGINE.to_act(state) == {BOB}


def test_resigning_with_a_civic_token_pending_still_refills_the_market():
    state = new_game(3, seed=1)
    state["market"][0] = None
    state["phase"], state["pending"] = "civic", {"civic": 1, "refill": [[0, "resource"]]}
    top = state["pile"][0]
    after = ENGINE.resign(state, ALICE)
    assert after["market"][0] == {"card": top, "side": "building"}
    assert ENGINE.to_act(after) == {BOB}


def test_when_one_player_is_left_the_game_ends_and_they_win():
    state = ENGINE.resign(new_game(2, seed=1), BOB)
    result = ENGINE.result(state)
    assert result is not None and result["winners"] == [ALICE]
    assert result["places"] == [1, 2]
    assert result["ended_by"] == "resignation"


def test_a_solo_game_cannot_continue_without_its_player():
    assert ENGINE.resign(new_game(1, seed=1), ALICE) is None


def test_timeout_drafts_from_the_pile_and_takes_the_best_civic_token():
    state = new_game(2, seed=1)
    assert ENGINE.timeout_action(state, ALICE) == {"type": "draw"}
    state["phase"], state["pending"] = "civic", {"civic": 1, "refill": []}
    state["display"] = [2, 3, 6]  # flat 5, flat 7, 4 per missing type (all 5 missing: 20)
    assert ENGINE.timeout_action(state, ALICE) == {"type": "civic", "token": 6}
