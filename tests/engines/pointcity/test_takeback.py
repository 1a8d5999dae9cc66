"""Takeback: a move may be taken back only if it turned up no card."""

from __future__ import annotations

import pytest

from games.engines.pointcity import ENGINE

from .helpers import (
    ALICE,
    BOB,
    empty_stock,
    give,
    move_to,
    new_game,
    pick,
    random_game,
    set_market,
    set_space,
)

BUS_STOP = 8  # civic, costs 3 industry
POST_OFFICE = 9  # civic, costs 3 ecology
INDUSTRY = pick(tier=1, resource="industry")[:3]
ECOLOGY = pick(tier=1, resource="ecology")[:3]


def try_takeback(state, seat, line):
    action = ENGINE.parse(line, state, seat)
    after = ENGINE.apply(state, seat, action)
    return after, ENGINE.takeback_allowed(state, seat, action, after)


def civic_draft(second_civic: bool = False, players: int = 2):
    state = new_game(players, seed=6)
    set_space(state, "c2", BUS_STOP, "building")
    if second_civic:
        set_space(state, "c3", POST_OFFICE, "building")
    empty_stock(state, ALICE)
    give(state, ALICE, INDUSTRY + ECOLOGY)
    return state


def test_a_flip_shows_a_hidden_building_side_and_stands():
    _, allowed = try_takeback(new_game(2, seed=8), ALICE, "flip a1")
    assert not allowed


def test_a_pile_draw_takes_unseen_cards_and_stands():
    _, allowed = try_takeback(new_game(2, seed=8), ALICE, "draw")
    assert not allowed


def test_a_market_draft_refilled_from_the_pile_stands():
    state = new_game(2, seed=8)
    after, allowed = try_takeback(state, ALICE, "take b2 b3")
    assert after["pile"] == state["pile"][2:]
    assert not allowed


def test_a_draft_of_a_civic_building_may_be_taken_back_while_the_refill_waits():
    state = civic_draft()
    after, allowed = try_takeback(state, ALICE, "take c2 c3 pay industry industry industry")
    assert after["phase"] == "civic" and after["pile"] == state["pile"]
    assert allowed


def test_the_civic_choice_that_lets_the_refill_happen_stands():
    state, _ = try_takeback(civic_draft(), ALICE, "take c2 c3 pay industry industry industry")
    after, allowed = try_takeback(state, ALICE, f"civic {state['display'][0]}")
    assert ENGINE.to_act(after) == {BOB}
    assert not allowed


def test_the_first_of_two_civic_choices_may_be_taken_back():
    state = civic_draft(second_civic=True)
    state, _ = try_takeback(
        state, ALICE, "take c2 c3 pay ecology ecology ecology industry industry industry"
    )
    after, allowed = try_takeback(state, ALICE, f"civic {state['display'][0]}")
    assert after["phase"] == "civic"
    assert allowed


def test_a_pass_ends_the_game_and_stands():
    state = new_game(2, seed=8)
    for card in list(state["pile"]):
        move_to(state, card, state["removed"])
    set_market(state, "building", list(range(116, 132)))  # tier 3: nothing affordable
    empty_stock(state, ALICE)
    after, allowed = try_takeback(state, ALICE, "pass")
    assert ENGINE.result(after) is not None
    assert not allowed


def test_in_solo_the_opponents_turn_refills_the_market_so_the_draft_stands():
    state = new_game(1, seed=4)
    after, allowed = try_takeback(state, ALICE, "take a1 b1")
    assert after["bot"]["turns"] == 1
    assert not allowed


@pytest.mark.slow
def test_on_random_playouts_an_allowed_takeback_turned_up_no_card():
    kinds = set()

    def step(state, seat, action):
        after = ENGINE.apply(state, seat, action)
        if ENGINE.takeback_allowed(state, seat, action, after):
            kinds.add(action["type"])
            assert after["pile"] == state["pile"]
            assert all(
                new is None or new == old
                for new, old in zip(after["market"], state["market"], strict=True)
            )

    for players, seed in ((1, 1), (2, 2), (3, 3), (4, 4)):
        random_game(players, seed, step)
    assert kinds == {"take", "civic"}
