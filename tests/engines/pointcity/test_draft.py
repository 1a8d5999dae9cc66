"""The draft: the top two pile cards or two orthogonally adjacent market cards."""

from __future__ import annotations

from games.engines.pointcity import ENGINE
from games.engines.pointcity.market import NAMES

from .helpers import (
    ALICE,
    BOB,
    assert_illegal,
    empty_stock,
    give,
    move_to,
    new_game,
    pick,
    set_space,
    takes,
)


def test_drawing_takes_the_top_two_pile_cards_into_stock():
    state = new_game(2, seed=4)
    top_two = state["pile"][:2]
    after = ENGINE.apply(state, ALICE, {"type": "draw"})
    assert after["seats"][ALICE]["stock"][-2:] == top_two
    assert after["pile"] == state["pile"][2:]


def test_drawing_from_the_pile_never_refills_the_market():
    state = new_game(2, seed=4)
    after = ENGINE.apply(state, ALICE, {"type": "draw"})
    assert after["market"] == state["market"]


def test_pile_cards_stay_resources_even_when_only_buildings_could_be_built():
    state = new_game(2, seed=4)
    after = ENGINE.apply(state, ALICE, {"type": "draw"})
    assert after["seats"][ALICE]["city"] == []


def test_drawing_needs_two_cards_in_the_pile():
    state = new_game(2, seed=4)
    for card in state["pile"][1:]:
        move_to(state, card, state["removed"])
    assert {"type": "draw"} not in ENGINE.legal_actions(state, ALICE)
    assert "fewer than two" in assert_illegal(state, ALICE, {"type": "draw"})


def test_market_takes_are_exactly_the_24_orthogonally_adjacent_pairs():
    state = new_game(2, seed=4)
    pairs = {tuple(a["spaces"]) for a in ENGINE.legal_actions(state, ALICE) if a["type"] == "take"}
    assert len(pairs) == 24
    for a, b in pairs:
        i, j = NAMES.index(a), NAMES.index(b)
        same_row = i // 4 == j // 4 and j - i == 1
        same_column = j - i == 4
        assert same_row or same_column


def test_diagonal_or_distant_cards_cannot_be_taken():
    state = new_game(2, seed=4)
    for spaces in (["a1", "b2"], ["a1", "c1"], ["d1", "a2"]):
        message = assert_illegal(state, ALICE, {"type": "take", "spaces": spaces, "pay": []})
        assert "adjacent" in message


def test_one_pile_card_and_one_market_card_cannot_be_mixed():
    state = new_game(2, seed=4)
    for spaces in (["a1", "pile"], ["a1"], ["a1", "b1", "c1"]):
        assert_illegal(state, ALICE, {"type": "take", "spaces": spaces, "pay": []})
    assert_illegal(state, ALICE, {"type": "draw", "spaces": ["a1"]})


def test_resource_cards_taken_from_the_market_go_to_the_stock():
    state = new_game(2, seed=4)
    a1, b1 = state["market"][0]["card"], state["market"][1]["card"]
    after = ENGINE.apply(state, ALICE, {"type": "take", "spaces": ["a1", "b1"], "pay": []})
    assert after["seats"][ALICE]["stock"][-2:] == [a1, b1]
    assert ENGINE.to_act(after) == {BOB}


def test_a_building_drafted_from_the_market_is_built_at_once():
    state = new_game(2, seed=4)
    set_space(state, "a1", 2, "building")  # Mini golf: costs 2 community
    set_space(state, "a2", 20, "building")  # Tiny house: costs energy + ecology
    empty_stock(state, ALICE)
    give(state, ALICE, [c for c in pick(tier=1, resource="community") if c not in (20,)][:2])
    give(state, ALICE, [7, 10])  # an energy and an ecology card
    (take,) = takes(state, ALICE, ["a1", "a2"])
    after = ENGINE.apply(state, ALICE, take)
    assert after["seats"][ALICE]["city"] == [2, 20]
