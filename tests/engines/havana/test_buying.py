"""Buying buildings after both actions (rules §4 Purchasing, Refill Buildings)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.havana import ENGINE

from .helpers import SARAH, VANESSA, act, give, start, table


def shop(spec, rows, pile=(), cards=("0", "2p"), **resources):
    """Vanessa (with `resources`) buying from `rows`; building ids 101+ are `spec`."""
    state = table(2, spec=spec)
    state["rows"] = [list(r) for r in rows]
    state["pile"] = list(pile)
    give(state, VANESSA, **resources)
    return start(state, {VANESSA: list(cards), SARAH: ["9", "8"]}, order=[VANESSA, SARAH])


def buys(state, seat=VANESSA):
    return [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "buy"]


def test_only_the_end_buildings_of_each_row_are_for_sale():
    state = shop({}, [[1, 2, 3, 4], [5, 6, 7]], gray=1)
    assert {a["building"] for a in buys(state)} == {1, 4, 5, 7}


def test_a_purchase_pays_the_exact_cost_cubes_leave_the_game_workers_and_pesos_return():
    spec = {101: {"vp": 3, "cost": {"red": 1, "gray": 2, "workers": 1, "pesos": 2}}}
    state = shop(spec, [[101, 1, 2], [3, 4, 5]], red=2, gray=3, workers=2, pesos=4)
    plan = {"red": 1, "gray": 2, "workers": 1, "pesos": 2}
    assert {"type": "buy", "building": 101, "pay": plan} in buys(state)
    supply = state["workers"]
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": plan})
    seat = after["seats"][VANESSA]
    assert seat["cubes"]["red"] == 1 and seat["cubes"]["gray"] == 1
    assert (seat["workers"], seat["pesos"], seat["vp"]) == (1, 2, 3)
    assert seat["buildings"] == [101]
    assert after["removed"]["red"] == 1 and after["removed"]["gray"] == 2
    assert after["workers"] == supply + 1
    assert after["centre"]["pesos"] == state["centre"]["pesos"]  # pesos go to the bank


def test_a_building_the_player_cannot_pay_is_not_offered():
    spec = {101: {"cost": {"blue": 1}}}
    state = shop(spec, [[101, 1, 2], [3, 4, 5]], gray=4)
    assert 101 not in {a["building"] for a in buys(state)}
    with pytest.raises(IllegalAction):
        act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"blue": 1}})


def test_five_pesos_pay_for_a_worker():
    spec = {101: {"cost": {"workers": 2}}}
    state = shop(spec, [[101, 1, 2], [3, 4, 5]], workers=1, pesos=10)
    plans = [a["pay"] for a in buys(state) if a["building"] == 101]
    assert plans == [{"workers": 1, "pesos": 5}, {"pesos": 10}]


def test_five_gray_pay_for_a_coloured_cube_of_any_colour_even_without_that_colour():
    spec = {101: {"cost": {"blue": 1, "red": 1}}}
    state = shop(spec, [[101, 1, 2], [3, 4, 5]], red=1, gray=5)
    plans = [a["pay"] for a in buys(state) if a["building"] == 101]
    assert plans == [{"red": 1, "gray": 5}]
    state = shop(spec, [[101, 1, 2], [3, 4, 5]], gray=10)
    assert [a["pay"] for a in buys(state) if a["building"] == 101] == [{"gray": 10}]


def test_substitution_never_goes_the_other_way():
    spec = {101: {"cost": {"gray": 1}}, 102: {"cost": {"pesos": 5}}}
    state = shop(spec, [[101, 1, 102], [3, 4, 5]], red=3, workers=3)
    assert not [a for a in buys(state) if a["building"] in (101, 102)]


def test_payment_plans_with_the_same_effect_are_listed_once():
    spec = {101: {"cost": {"red": 1, "any_colored": 1}}}
    state = shop(spec, [[101, 1, 2], [3, 4, 5]], red=2, yellow=1, gray=5)
    plans = [a["pay"] for a in buys(state) if a["building"] == 101]
    assert len(plans) == len({tuple(sorted(p.items())) for p in plans})
    assert {"red": 2} in plans and {"red": 1, "yellow": 1} in plans
    assert {"red": 1, "gray": 5} in plans and {"yellow": 1, "gray": 5} in plans


def test_buying_frees_the_next_card_which_can_be_bought_at_once():
    state = shop({}, [[1, 2, 3, 4], [5, 6, 7, 8]], gray=3)
    state = act(state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}})
    assert state["rows"][0][0] == 2
    state = act(state, VANESSA, {"type": "buy", "building": 2, "pay": {"gray": 1}})
    assert state["seats"][VANESSA]["buildings"] == [1, 2]
    assert "end" in {a["type"] for a in ENGINE.legal_actions(state, VANESSA)}


def test_the_turn_ends_only_when_the_player_says_so():
    state = shop({}, [[1, 2, 3], [5, 6, 7]], gray=3)
    state = act(state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}})
    assert ENGINE.to_act(state) == {VANESSA}
    state = act(state, VANESSA, {"type": "end"})
    assert ENGINE.to_act(state) == {SARAH}


def test_architect_buildings_need_the_architect_face_up_this_round():
    spec = {101: {"cost": {"gray": 1}, "architect": True}}
    without = shop(spec, [[101, 1, 2], [3, 4, 5]], gray=1)
    assert 101 not in {a["building"] for a in buys(without)}
    with_card = shop(spec, [[101, 1, 2], [3, 4, 5]], cards=("4a", "0"), gray=1)
    with_card = act(with_card, VANESSA, {"type": "architect"})
    assert 101 in {a["building"] for a in buys(with_card)}
    after = act(with_card, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    assert "4a" in after["seats"][VANESSA]["cards"]  # the Architect is not spent


def test_a_row_down_to_two_cards_gets_four_new_ones_between_its_ends():
    state = shop({}, [[1, 2, 3], [5, 6, 7]], pile=[10, 11, 12, 13, 14], gray=1)
    after = act(state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}})
    assert after["rows"][0] == [2, 10, 11, 12, 13, 3]
    assert after["pile"] == [14]


def test_a_short_pile_refills_what_it_can_and_an_empty_pile_lets_rows_shrink():
    state = shop({}, [[1, 2, 3], [5, 6, 7]], pile=[10], gray=4)
    state = act(state, VANESSA, {"type": "buy", "building": 1, "pay": {"gray": 1}})
    assert state["rows"][0] == [2, 10, 3]
    state = act(state, VANESSA, {"type": "buy", "building": 2, "pay": {"gray": 1}})
    state = act(state, VANESSA, {"type": "buy", "building": 10, "pay": {"gray": 1}})
    assert state["rows"][0] == [3]
    assert [a["building"] for a in buys(state)] == [3, 5, 7]


def test_a_single_card_row_offers_its_card_once():
    state = shop({}, [[1], [5, 6, 7]], gray=1)
    assert [a["building"] for a in buys(state)] == [1, 5, 7]


def test_conservation_also_triggers_the_row_refill():
    state = shop({}, [[1, 2, 3], [5, 6, 7]], pile=[10, 11, 12, 13], cards=("3c", "0"))
    after = act(state, VANESSA, {"type": "conserve", "building": 3})
    assert after["rows"][0] == [1, 10, 11, 12, 13, 2]
