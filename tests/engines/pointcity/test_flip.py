"""The optional flip: one resource card whose row or column is all resource sides."""

from __future__ import annotations

from games.engines.pointcity import ENGINE

from .helpers import ALICE, BOB, assert_illegal, new_game, set_space


def flips(state, seat=ALICE):
    return sorted(a["space"] for a in ENGINE.legal_actions(state, seat) if a["type"] == "flip")


def test_at_the_start_every_market_card_may_be_flipped():
    assert len(flips(new_game(2, seed=1))) == 16


def test_flip_turns_the_card_to_its_building_side_and_it_stays():
    state = new_game(2, seed=1)
    card = state["market"][9]["card"]
    after = ENGINE.apply(state, ALICE, {"type": "flip", "space": "b3"})
    assert after["market"][9] == {"card": card, "side": "building"}
    assert ENGINE.to_act(after) == {ALICE}  # the draft still follows


def test_a_card_whose_row_and_column_both_hold_a_building_cannot_flip():
    state = new_game(2, seed=1)
    # A building in b1 and in a3: a1 has building b1 in its row and a3 in its column.
    set_space(state, "b1", state["market"][1]["card"], "building")
    set_space(state, "a3", state["market"][8]["card"], "building")
    assert "a1" not in flips(state)
    message = assert_illegal(state, ALICE, {"type": "flip", "space": "a1"})
    assert "row or column" in message


def test_a_card_with_an_all_resource_column_may_flip_despite_a_mixed_row():
    state = new_game(2, seed=1)
    set_space(state, "b1", state["market"][1]["card"], "building")
    # a1's row holds b1 (building) but column a is all resources.
    assert "a1" in flips(state)
    assert "c2" in flips(state)  # row 2 is all resources


def test_a_building_cannot_be_flipped_back():
    state = new_game(2, seed=1)
    state = ENGINE.apply(state, ALICE, {"type": "flip", "space": "c3"})
    state = ENGINE.apply(state, ALICE, {"type": "draw"})
    assert "c3" not in flips(state, BOB)
    message = assert_illegal(state, BOB, {"type": "flip", "space": "c3"})
    assert "building side" in message


def test_only_one_flip_per_turn():
    state = ENGINE.apply(new_game(2, seed=1), ALICE, {"type": "flip", "space": "a1"})
    assert flips(state) == []
    message = assert_illegal(state, ALICE, {"type": "flip", "space": "d4"})
    assert "already flipped" in message


def test_the_flip_is_optional():
    state = new_game(2, seed=1)
    kinds = {a["type"] for a in ENGINE.legal_actions(state, ALICE)}
    assert {"draw", "take", "flip"} <= kinds
    after = ENGINE.apply(state, ALICE, {"type": "draw"})
    assert ENGINE.to_act(after) == {BOB}


def test_the_next_turn_may_flip_again():
    state = ENGINE.apply(new_game(2, seed=1), ALICE, {"type": "flip", "space": "a1"})
    state = ENGINE.apply(state, ALICE, {"type": "draw"})
    assert flips(state, BOB)
