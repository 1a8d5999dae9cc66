"""Paying for drafted buildings: stock cards, the card drafted alongside,
Ingenuity as wild, double symbols, permanent resources once per turn."""

from __future__ import annotations

import itertools
import random

from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS, RESOURCES, STOCK_KINDS
from games.engines.pointcity.payment import plans_for

from .helpers import (
    ALICE,
    assert_illegal,
    build,
    empty_stock,
    give,
    new_game,
    pick,
    set_space,
    takes,
)

MINI_GOLF = 2  # producer, costs 2 community, 1 point, produces energy
POND = 21  # producer, costs 2 community, produces ecology
TINY_HOUSE = 20  # producer, costs energy + ecology, produces community
COMMUNITY = [c for c in pick(tier=1, resource="community") if c != TINY_HOUSE]
COMMUNITY_DOUBLE = pick(resource="community", symbols=2, tier=2)
INGENUITY = pick(resource="ingenuity")
ENERGY = [c for c in pick(tier=1, resource="energy") if c != MINI_GOLF]
ECOLOGY = [c for c in pick(tier=1, resource="ecology") if c != POND]
COMMUNITY_PRODUCERS = pick(produces="community", tier=3)  # no overlap with the above


def mini_golf_next_to(resource_card: int, stock: list[int], city: list[int] = ()) -> dict:
    """Alice to play: Mini golf (building) in a1, a resource card in b1."""
    state = new_game(2, seed=4)
    set_space(state, "a1", MINI_GOLF, "building")
    set_space(state, "b1", resource_card, "resource")
    empty_stock(state, ALICE)
    give(state, ALICE, stock)
    build(state, ALICE, list(city))
    return state


def plans(state, spaces=("a1", "b1")):
    return [a["pay"] for a in takes(state, ALICE, list(spaces))]


def test_a_building_that_cannot_be_paid_in_full_cannot_be_taken():
    state = mini_golf_next_to(ENERGY[0], [COMMUNITY[0]])
    assert plans(state) == []
    message = assert_illegal(
        state, ALICE, {"type": "take", "spaces": ["a1", "b1"], "pay": ["community"]}
    )
    assert "cannot pay" in message


def test_the_resource_drafted_alongside_may_pay_for_the_building():
    state = mini_golf_next_to(COMMUNITY[0], [COMMUNITY[1]])
    assert plans(state) == [["community", "community"]]
    after = ENGINE.apply(state, ALICE, takes(state, ALICE, ["a1", "b1"])[0])
    assert after["seats"][ALICE]["city"] == [MINI_GOLF]
    assert after["seats"][ALICE]["stock"] == []
    assert sorted(after["discard"][-2:]) == sorted(COMMUNITY[:2])


def test_ingenuity_replaces_any_one_symbol():
    state = mini_golf_next_to(ENERGY[0], INGENUITY[:2])
    assert plans(state) == [["ingenuity", "ingenuity"]]


def test_a_double_symbol_card_pays_two():
    state = mini_golf_next_to(ENERGY[0], COMMUNITY_DOUBLE[:1])
    assert plans(state) == [["community2"]]


def test_a_double_card_may_pay_a_single_symbol_without_change():
    state = mini_golf_next_to(COMMUNITY[0], COMMUNITY_DOUBLE[:1])
    assert ["community2"] in plans(state)
    choice = {"type": "take", "spaces": ["a1", "b1"], "pay": ["community2"]}
    after = ENGINE.apply(state, ALICE, choice)
    # The drafted community card is kept; the double is gone, nothing comes back.
    assert after["seats"][ALICE]["stock"] == [COMMUNITY[0]]


def test_payment_plans_are_distinct_and_waste_no_card():
    state = mini_golf_next_to(ENERGY[0], [*COMMUNITY[:2], COMMUNITY_DOUBLE[0], INGENUITY[0]])
    found = plans(state)
    assert sorted(map(tuple, found)) == sorted(
        [("community", "community"), ("community", "ingenuity"), ("community2",)]
    )
    assert len({tuple(p) for p in found}) == len(found)


def test_paying_with_a_needless_card_is_refused():
    state = mini_golf_next_to(ENERGY[0], [*COMMUNITY[:2], INGENUITY[0]])
    wasteful = {
        "type": "take",
        "spaces": ["a1", "b1"],
        "pay": ["community", "community", "ingenuity"],
    }
    assert "ways to pay" in assert_illegal(state, ALICE, wasteful)


def test_permanent_resources_pay_before_cards_and_are_not_spent():
    state = mini_golf_next_to(ENERGY[0], [COMMUNITY[0]], city=COMMUNITY_PRODUCERS[:2])
    assert plans(state) == [[]]
    after = ENGINE.apply(state, ALICE, takes(state, ALICE, ["a1", "b1"])[0])
    assert after["seats"][ALICE]["stock"] == [COMMUNITY[0], ENERGY[0]]
    assert sorted(after["seats"][ALICE]["city"]) == sorted([*COMMUNITY_PRODUCERS[:2], MINI_GOLF])


def two_buildings(stock: list[int], city: list[int] = ()) -> dict:
    state = new_game(2, seed=4)
    set_space(state, "a1", MINI_GOLF, "building")
    set_space(state, "b1", POND, "building")
    empty_stock(state, ALICE)
    give(state, ALICE, stock)
    build(state, ALICE, list(city))
    return state


def test_each_permanent_resource_pays_only_once_per_turn_across_both_buildings():
    # Together the two need 4 community; one producer covers one of them once.
    enough = two_buildings(COMMUNITY[:3], city=COMMUNITY_PRODUCERS[:1])
    assert plans(enough) == [["community"] * 3]
    short = two_buildings(COMMUNITY[:2], city=COMMUNITY_PRODUCERS[:1])
    assert plans(short) == []


def test_a_building_built_this_turn_does_not_pay_for_the_other():
    state = new_game(2, seed=4)
    set_space(state, "a1", MINI_GOLF, "building")
    set_space(state, "a2", TINY_HOUSE, "building")  # would produce community
    empty_stock(state, ALICE)
    give(state, ALICE, [ENERGY[0], ECOLOGY[0], COMMUNITY[0]])
    assert plans(state, ("a1", "a2")) == []
    give(state, ALICE, [COMMUNITY[1]])
    assert plans(state, ("a1", "a2")) == [["community", "community", "energy", "ecology"]]


def test_spent_cards_are_discarded_and_unspent_ones_stay():
    state = mini_golf_next_to(ENERGY[0], [*COMMUNITY[:2], INGENUITY[0]])
    choice = {"type": "take", "spaces": ["a1", "b1"], "pay": ["community", "ingenuity"]}
    after = ENGINE.apply(state, ALICE, choice)
    kinds = sorted(CARDS[c].stock_kind for c in after["seats"][ALICE]["stock"])
    assert kinds == ["community", "energy"]
    assert len(after["discard"]) == len(state["discard"]) + 2


def _pays(plan: dict[str, int], need: tuple[int, ...]) -> bool:
    short = 0
    for i, r in enumerate(RESOURCES):
        short += max(0, need[i] - plan.get(r, 0) - 2 * plan.get(r + "2", 0))
    return short <= plan.get("ingenuity", 0)


def _minimal_plans_by_brute_force(counts: list[int], need: tuple[int, ...]) -> set[tuple]:
    found = set()
    for chosen in itertools.product(*(range(n + 1) for n in counts)):
        plan = {k: n for k, n in zip(STOCK_KINDS, chosen, strict=True) if n}
        if not _pays(plan, need):
            continue
        if all(not _pays({**plan, k: plan[k] - 1}, need) for k in plan):
            found.add(tuple(sorted(k for k, n in plan.items() for _ in range(n))))
    return found


def test_listed_plans_are_exactly_the_minimal_ones():
    rng = random.Random(8)
    for _ in range(300):
        need = tuple(rng.choice([0, 0, 1, 2, 3]) for _ in RESOURCES)
        counts = [rng.choice([0, 0, 1, 2]) for _ in STOCK_KINDS]
        listed = {tuple(sorted(p)) for p in plans_for(need, counts)}
        assert listed == _minimal_plans_by_brute_force(counts, need), (need, counts)
