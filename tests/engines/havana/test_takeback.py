"""Takeback: a move may be taken back only if it revealed nothing and drew nothing."""

from __future__ import annotations

import random

import pytest

from games.engines.havana import ENGINE

from .helpers import SARAH, TOBIAS, VANESSA, give, start, table


def try_takeback(state, seat, action):
    after = ENGINE.apply(state, seat, action)
    return after, ENGINE.takeback_allowed(state, seat, action, after)


def shop(rows, pile=(), cards=("0", "2p"), **resources):
    """Vanessa buying (both her cards are passive), Sarah after her."""
    state = table(2)
    state["rows"] = [list(r) for r in rows]
    state["pile"] = list(pile)
    give(state, VANESSA, **resources)
    return start(state, {VANESSA: list(cards), SARAH: ["9", "8"]}, order=[VANESSA, SARAH])


def test_a_face_down_choice_may_be_taken_back_while_others_still_choose():
    state = ENGINE.setup(3, {}, seed=2)
    state, allowed = try_takeback(state, VANESSA, {"type": "choose", "cards": ["0", "7"]})
    assert allowed
    _, allowed = try_takeback(state, SARAH, {"type": "choose", "cards": ["1", "8"]})
    assert allowed


def test_the_choice_that_turns_every_card_face_up_stands():
    state = ENGINE.setup(3, {}, seed=2)
    state = ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["0", "7"]})
    state = ENGINE.apply(state, SARAH, {"type": "choose", "cards": ["1", "8"]})
    after, allowed = try_takeback(state, TOBIAS, {"type": "choose", "cards": ["2p", "9"]})
    assert after["phase"] == "actions"  # revealed
    assert not allowed


def test_a_phase_three_replacement_may_be_taken_back_only_before_the_reveal():
    state = start(table(2), {VANESSA: ["0", "1"], SARAH: ["0", "1"]})
    state.update(phase="replace", turn=None, done=[], buying=False, pending=[None, None])
    state, allowed = try_takeback(state, VANESSA, {"type": "replace", "card": "9", "cover": "0"})
    assert allowed
    after, allowed = try_takeback(state, SARAH, {"type": "replace", "card": "8", "cover": "1"})
    assert after["phase"] == "actions"
    assert not allowed


def test_an_open_action_card_may_be_taken_back():
    state = table(2)
    state["centre"]["pesos"] = 6
    state = start(state, {VANESSA: ["8", "0"], SARAH: ["9", "1"]}, order=[VANESSA, SARAH])
    _, allowed = try_takeback(state, VANESSA, {"type": "pesos"})
    assert allowed


def test_the_black_market_draws_from_the_bag_and_stands():
    state = start(table(2), {VANESSA: ["7", "0"], SARAH: ["9", "1"]}, order=[VANESSA, SARAH])
    after, allowed = try_takeback(state, VANESSA, {"type": "black_market"})
    assert len(after["bag"]) == len(state["bag"]) - 2
    assert not allowed


def test_a_purchase_that_leaves_the_row_long_may_be_taken_back():
    state = shop([[1, 2, 3, 4], [5, 6, 7]], pile=[8, 9, 10, 11], gray=1)
    _, allowed = try_takeback(state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}})
    assert allowed


def test_a_purchase_that_refills_a_row_from_the_pile_stands():
    state = shop([[1, 2, 3], [5, 6, 7]], pile=[8, 9, 10, 11], gray=1)
    after, allowed = try_takeback(
        state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}}
    )
    assert after["rows"][0] == [2, 8, 9, 10, 11, 3]  # four buildings turned up
    assert not allowed


def test_a_conservation_that_refills_a_row_from_the_pile_stands():
    state = table(2)
    state["rows"], state["pile"] = [[1, 2, 3], [5, 6, 7, 12]], [8, 9, 10, 11]
    state = start(state, {VANESSA: ["3c", "0"], SARAH: ["9", "1"]}, order=[VANESSA, SARAH])
    after, allowed = try_takeback(state, VANESSA, {"type": "conserve", "building": 1})
    assert after["pile"] == []
    assert not allowed
    _, allowed = try_takeback(state, VANESSA, {"type": "conserve", "building": 12})
    assert allowed


def test_ending_a_turn_that_is_not_the_last_of_the_round_may_be_taken_back():
    state = shop([[1, 2, 3, 4], [5, 6, 7]])
    after, allowed = try_takeback(state, VANESSA, {"type": "end"})
    assert after["phase"] == "actions"
    assert allowed


def test_ending_the_last_turn_of_the_round_draws_the_resupply_and_stands():
    state = shop([[1, 2, 3, 4], [5, 6, 7]])
    state = _until_buying(ENGINE.apply(state, VANESSA, {"type": "end"}), SARAH)
    after, allowed = try_takeback(state, SARAH, {"type": "end"})
    assert after["phase"] == "replace"  # the resupply drew three cubes
    assert len(after["bag"]) < len(state["bag"])
    assert not allowed


def test_the_move_that_ends_the_game_stands():
    state = shop([[1, 2, 3, 4], [5, 6, 7]], gray=1)
    state["seats"][VANESSA]["vp"] = state["target"] - 1
    after, allowed = try_takeback(
        state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}}
    )
    assert after["end"] is not None
    assert not allowed


@pytest.mark.slow
def test_on_random_playouts_a_move_may_be_taken_back_only_if_nothing_hidden_changed():
    """Whatever the move: an allowed takeback drew no cube, turned up no
    building and no face-down choice, so undoing it hides nothing seen."""
    for seed in range(6):
        rng = random.Random(seed)
        state = ENGINE.setup(2 + seed % 3, {}, seed)
        allowed_kinds = set()
        while ENGINE.result(state) is None:
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            action = rng.choice(ENGINE.legal_actions(state, seat))
            after = ENGINE.apply(state, seat, action)
            if ENGINE.takeback_allowed(state, seat, action, after):
                allowed_kinds.add(action["type"])
                assert after["bag"] == state["bag"] and after["pile"] == state["pile"]
                assert after["end"] is None
                if state["phase"] in ("choose", "replace"):  # still face down
                    assert after["phase"] == state["phase"] and after["pending"][seat]
            state = after
        assert {"choose", "end"} <= allowed_kinds


def _until_buying(state, seat):
    """Carry out the seat's remaining cards the default way, up to buying."""
    while not state["buying"]:
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))
    return state
