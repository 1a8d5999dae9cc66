"""Civic buildings: one face-up civic token per civic building built."""

from __future__ import annotations

from games.engines.pointcity import ENGINE

from .helpers import ALICE, BOB, act, assert_illegal, empty_stock, give, new_game, pick, set_space

BUS_STOP = 8  # civic, costs 3 industry
POST_OFFICE = 9  # civic, costs 3 ecology
INDUSTRY = pick(tier=1, resource="industry")[:3]
ECOLOGY = pick(tier=1, resource="ecology")[:3]


def civic_pair(second_civic: bool = False) -> dict:
    state = new_game(2, seed=6)
    set_space(state, "c2", BUS_STOP, "building")
    if second_civic:
        set_space(state, "c3", POST_OFFICE, "building")
    empty_stock(state, ALICE)
    give(state, ALICE, INDUSTRY + ECOLOGY)
    return state


def test_building_a_civic_building_lets_you_take_any_face_up_token():
    state = civic_pair()
    state = act(state, ALICE, "take c2 c3 pay industry industry industry")
    assert ENGINE.to_act(state) == {ALICE}
    choices = ENGINE.legal_actions(state, ALICE)
    assert choices == [{"type": "civic", "token": t} for t in sorted(state["display"])]
    chosen = state["display"][-1]
    after = ENGINE.apply(state, ALICE, {"type": "civic", "token": chosen})
    assert after["seats"][ALICE]["tokens"] == [chosen]
    assert chosen not in after["display"]
    assert ENGINE.to_act(after) == {BOB}


def test_a_token_not_on_display_cannot_be_taken():
    state = act(civic_pair(), ALICE, "take c2 c3 pay industry industry industry")
    missing = state["token_box"][0]
    assert_illegal(state, ALICE, {"type": "civic", "token": missing})
    assert "civic token" in assert_illegal(state, ALICE, {"type": "draw"})


def test_the_refill_waits_until_the_token_is_taken():
    state = act(civic_pair(), ALICE, "take c2 c3 pay industry industry industry")
    assert state["market"][6] is None and state["market"][10] is None
    after = ENGINE.apply(state, ALICE, ENGINE.legal_actions(state, ALICE)[0])
    assert after["market"][6]["card"] == state["pile"][0]
    assert after["market"][10]["card"] == state["pile"][1]


def test_two_civic_buildings_give_two_tokens():
    state = civic_pair(second_civic=True)
    state = act(state, ALICE, "take c2 c3 pay ecology ecology ecology industry industry industry")
    first, second = state["display"][:2]
    state = act(state, ALICE, f"civic {first}")
    assert ENGINE.to_act(state) == {ALICE}
    state = act(state, ALICE, f"civic {second}")
    assert state["seats"][ALICE]["tokens"] == [first, second]
    assert ENGINE.to_act(state) == {BOB}


def test_with_no_token_left_a_civic_building_is_built_and_gives_nothing():
    state = civic_pair()
    state["token_box"] += state["display"]
    state["display"] = []
    after = act(state, ALICE, "take c2 c3 pay industry industry industry")
    assert BUS_STOP in after["seats"][ALICE]["city"]
    assert after["seats"][ALICE]["tokens"] == []
    assert ENGINE.to_act(after) == {BOB}
    assert after["market"][6] is not None  # refilled at once


def test_when_the_last_token_goes_the_second_civic_building_gives_nothing():
    state = civic_pair(second_civic=True)
    state["token_box"] += state["display"][1:]
    state["display"] = state["display"][:1]
    state = act(state, ALICE, "take c2 c3 pay ecology ecology ecology industry industry industry")
    state = act(state, ALICE, f"civic {state['display'][0]}")
    assert len(state["seats"][ALICE]["tokens"]) == 1
    assert ENGINE.to_act(state) == {BOB}
