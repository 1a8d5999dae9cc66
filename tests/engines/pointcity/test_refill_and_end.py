"""Refill after a market draft (reading order, opposite side) and the game end."""

from __future__ import annotations

from games.engines.pointcity import ENGINE

from .helpers import (
    ALICE,
    BOB,
    act,
    empty_stock,
    give,
    move_to,
    new_game,
    pick,
    set_market,
    set_space,
)

BIRD_FEEDER = 33  # points only, costs economy + energy
TREEHOUSE = 40  # community resource side


def test_refill_in_reading_order_a_taken_resource_becomes_a_building():
    state = new_game(2, seed=8)
    next_two = state["pile"][:2]
    after = act(state, ALICE, "take b2 b3")
    assert after["market"][5] == {"card": next_two[0], "side": "building"}
    assert after["market"][9] == {"card": next_two[1], "side": "building"}
    assert after["pile"] == state["pile"][2:]


def test_refill_of_a_taken_building_comes_resource_side_up():
    state = new_game(2, seed=8)
    set_space(state, "c1", BIRD_FEEDER, "building")
    set_space(state, "d1", TREEHOUSE, "resource")
    empty_stock(state, ALICE)
    give(state, ALICE, [pick(tier=1, resource="economy")[0], pick(tier=1, resource="energy")[0]])
    next_two = state["pile"][:2]
    after = act(state, ALICE, "take c1 d1 pay economy energy")
    assert after["market"][2] == {"card": next_two[0], "side": "resource"}
    assert after["market"][3] == {"card": next_two[1], "side": "building"}


def test_the_game_ends_when_a_refill_is_needed_and_impossible():
    state = new_game(2, seed=8)
    for card in list(state["pile"]):
        move_to(state, card, state["removed"])
    assert {"type": "draw"} not in ENGINE.legal_actions(state, ALICE)
    after = act(state, ALICE, "take a1 b1")
    assert ENGINE.to_act(after) == set()
    assert ENGINE.result(after) is not None
    assert sum(slot is not None for slot in after["market"]) == 14


def test_a_pile_draw_emptying_the_pile_does_not_end_the_game():
    state = new_game(2, seed=8)
    for card in state["pile"][2:]:
        move_to(state, card, state["removed"])
    state = act(state, ALICE, "draw")
    assert state["pile"] == []
    assert ENGINE.result(state) is None
    assert ENGINE.to_act(state) == {BOB}
    state = act(state, BOB, "take c4 d4")
    assert ENGINE.result(state) is not None


def test_with_no_draft_possible_on_the_final_turn_the_only_move_is_pass():
    state = new_game(2, seed=8)
    for card in list(state["pile"]):
        move_to(state, card, state["removed"])
    expensive = list(range(116, 132))  # tier 3: nothing affordable
    set_market(state, "building", expensive)
    empty_stock(state, ALICE)
    assert ENGINE.legal_actions(state, ALICE) == [{"type": "pass"}]
    after = act(state, ALICE, "pass")
    assert ENGINE.result(after) is not None
    assert after["seats"][ALICE]["turns"] == 1


def test_when_the_pile_runs_out_during_refill_fill_what_you_can_and_end():
    state = new_game(2, seed=8)
    for card in state["pile"][1:]:
        move_to(state, card, state["removed"])
    last = state["pile"][0]
    after = act(state, ALICE, "take a1 b1")
    assert after["market"][0] == {"card": last, "side": "building"}
    assert after["market"][1] is None
    assert ENGINE.result(after) is not None
