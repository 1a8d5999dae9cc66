"""One test per rule of each action card (rules §4 and havana-action-cards.md)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.havana import ENGINE

from .helpers import PETER, SARAH, TOBIAS, VANESSA, act, centre, give, kinds, start, table

ORDER = [VANESSA, SARAH, TOBIAS, PETER]


def turn(cards, seat=VANESSA, order=ORDER, players=4, setup=None):
    state = table(players)
    if setup:
        setup(state)
    return start(state, cards, order=order, turn=seat)


# Siesta and Protection need nothing from the player.


def test_siesta_and_protection_leave_only_buying():
    state = turn({VANESSA: ["0", "2p"]})
    assert state["buying"]
    assert kinds(state, VANESSA) <= {"buy", "end"}


def test_both_actions_come_before_any_purchase():
    state = turn({VANESSA: ["8", "2d"]}, setup=lambda s: give(s, VANESSA, gray=5))
    assert kinds(state, VANESSA) == {"pesos", "debris"}
    with pytest.raises(IllegalAction):
        act(state, VANESSA, {"type": "end"})
    state = act(state, VANESSA, {"type": "debris"})
    assert kinds(state, VANESSA) == {"pesos"}
    state = act(state, VANESSA, {"type": "pesos"})
    assert "end" in kinds(state, VANESSA)


def test_the_player_picks_the_order_of_the_two_actions():
    # Refreshment before Pesos leaves 5 of 10 -> Pesos takes 3 (1 + 3 = 4 in all);
    # Pesos first takes 5, then Refreshment 1 (6 in all).
    def setup(s):
        centre(s, pesos=10)

    first = turn({VANESSA: ["1", "8"]}, setup=setup)
    a = act(act(first, VANESSA, {"type": "refreshment"}), VANESSA, {"type": "pesos"})
    b = act(act(first, VANESSA, {"type": "pesos"}), VANESSA, {"type": "refreshment"})
    assert a["seats"][VANESSA]["pesos"] == 1 + 5
    assert b["seats"][VANESSA]["pesos"] == 5 + 1
    assert a["centre"]["pesos"] == b["centre"]["pesos"] == 4


def test_refreshment_takes_one_peso_from_the_centre_or_may_be_skipped():
    state = turn({VANESSA: ["1", "0"]}, setup=lambda s: centre(s, pesos=3))
    assert ENGINE.legal_actions(state, VANESSA) == [
        {"type": "refreshment"},
        {"type": "skip", "card": "refreshment"},
    ]
    taken = act(state, VANESSA, {"type": "refreshment"})
    assert (taken["seats"][VANESSA]["pesos"], taken["centre"]["pesos"]) == (1, 2)
    skipped = act(state, VANESSA, {"type": "skip", "card": "refreshment"})
    assert (skipped["seats"][VANESSA]["pesos"], skipped["centre"]["pesos"]) == (0, 3)


def test_refreshment_with_an_empty_centre_gives_nothing():
    state = turn({VANESSA: ["1", "0"]})
    assert act(state, VANESSA, {"type": "refreshment"})["seats"][VANESSA]["pesos"] == 0


def test_protection_shields_a_later_player_from_both_thieves_and_the_tax_collector():
    def setup(s):
        give(s, SARAH, pesos=8, red=2, workers=1)
        give(s, TOBIAS, pesos=4, red=1)

    cards = {VANESSA: ["5", "6"], SARAH: ["2p", "0"], PETER: ["3t", "0"]}
    state = turn(cards, setup=setup)
    assert {a["victim"] for a in ENGINE.legal_actions(state, VANESSA)} == {TOBIAS, PETER}
    state = act(state, VANESSA, {"type": "steal_pesos", "victim": TOBIAS})
    assert all(a["victim"] != SARAH for a in ENGINE.legal_actions(state, VANESSA))
    taxed = turn(cards, seat=PETER, order=[PETER, SARAH, TOBIAS, VANESSA], setup=setup)
    assert all(str(SARAH) not in a["take"] for a in ENGINE.legal_actions(taxed, PETER))


def test_a_thief_whose_followers_are_all_protected_steals_nothing():
    def setup(s):
        give(s, SARAH, pesos=8)

    state = turn(
        {VANESSA: ["0", "5"], SARAH: ["2p", "0"]}, order=[VANESSA, SARAH], players=2, setup=setup
    )
    assert ENGINE.legal_actions(state, VANESSA) == [{"type": "steal_pesos", "victim": None}]
    after = act(state, VANESSA, {"type": "steal_pesos", "victim": None})
    assert after["seats"][SARAH]["pesos"] == 8


def test_debris_is_mandatory_and_takes_gray_only():
    state = turn({VANESSA: ["2d", "0"]}, setup=lambda s: centre(s, gray=2, blue=2))
    assert ENGINE.legal_actions(state, VANESSA) == [{"type": "debris"}]
    after = act(state, VANESSA, {"type": "debris"})
    assert after["seats"][VANESSA]["cubes"]["gray"] == 2
    assert after["centre"]["cubes"]["blue"] == 2


def test_conservation_removes_an_end_building_to_the_box_or_may_be_skipped():
    state = turn({VANESSA: ["3c", "0"]})
    row = state["rows"][1]
    options = ENGINE.legal_actions(state, VANESSA)
    ends = {state["rows"][0][0], state["rows"][0][-1], row[0], row[-1]}
    assert {a["building"] for a in options if a["type"] == "conserve"} == ends
    assert {"type": "skip", "card": "conservation"} in options
    after = act(state, VANESSA, {"type": "conserve", "building": row[-1]})
    assert after["boxed"] == [row[-1]]
    assert after["rows"][1] == row[:-1]
    assert after["flags"]["conserved"]


def test_tax_collector_takes_a_peso_from_the_bank_even_with_nobody_after():
    state = turn({PETER: ["3t", "0"]}, seat=PETER)
    assert ENGINE.legal_actions(state, PETER) == [{"type": "tax", "take": {}}]
    after = act(state, PETER, {"type": "tax", "take": {}})
    assert after["seats"][PETER]["pesos"] == 1


def test_tax_collector_may_take_gray_and_skips_players_with_nothing():
    def setup(s):
        give(s, SARAH, gray=1)

    state = turn({VANESSA: ["3t", "0"]}, setup=setup)
    assert ENGINE.legal_actions(state, VANESSA) == [{"type": "tax", "take": {"1": "gray"}}]


def test_tax_collector_offers_every_combination_of_worker_or_cube_per_victim():
    def setup(s):
        give(s, SARAH, workers=1, red=1)
        give(s, TOBIAS, blue=1, gray=2)

    state = turn({VANESSA: ["3t", "0"]}, setup=setup)
    takes = [a["take"] for a in ENGINE.legal_actions(state, VANESSA)]
    assert len(takes) == 4
    assert {"1": "worker", "2": "gray"} in takes


def test_worker_gives_two_to_the_first_player_of_the_round_and_one_to_later_ones():
    cards = {VANESSA: ["0", "4w"], SARAH: ["4w", "0"], TOBIAS: ["4w", "4a"]}
    state = turn(cards)
    state = act(state, VANESSA, {"type": "worker"})
    assert state["seats"][VANESSA]["workers"] == 2
    state = act(state, VANESSA, {"type": "end"})
    state = act(state, SARAH, {"type": "worker"})
    assert state["seats"][SARAH]["workers"] == 1
    assert state["workers"] == 15 - 3


def test_worker_first_user_need_not_have_the_lowest_number():
    # Sarah acts first with 4w+4a but carries out Architect before Worker:
    # she is still the first to carry out Worker this round.
    state = turn({SARAH: ["4a", "4w"], VANESSA: ["4w", "9"]}, seat=SARAH, order=[SARAH, VANESSA])
    state = act(state, SARAH, {"type": "architect"})
    state = act(state, SARAH, {"type": "worker"})
    assert state["seats"][SARAH]["workers"] == 3
    state = act(state, SARAH, {"type": "end"})
    state = act(state, VANESSA, {"type": "worker"})
    assert state["seats"][VANESSA]["workers"] == 1


def test_worker_and_architect_with_an_empty_supply_give_nothing():
    def setup(s):
        give(s, PETER, workers=15)

    state = turn({VANESSA: ["4w", "4a"]}, setup=setup)
    state = act(state, VANESSA, {"type": "worker"})
    state = act(state, VANESSA, {"type": "architect"})
    assert state["seats"][VANESSA]["workers"] == 0
    assert not state["flags"]["worker"]  # nobody has carried Worker out yet


def test_worker_takes_the_last_worker_when_only_one_is_left():
    state = turn({VANESSA: ["4w", "0"]}, setup=lambda s: give(s, PETER, workers=14))
    assert act(state, VANESSA, {"type": "worker"})["seats"][VANESSA]["workers"] == 1


def test_architect_takes_one_worker():
    state = turn({VANESSA: ["4a", "0"]})
    assert ENGINE.legal_actions(state, VANESSA) == [{"type": "architect"}]
    assert act(state, VANESSA, {"type": "architect"})["seats"][VANESSA]["workers"] == 1


def test_pesos_thief_halves_rounded_down():
    state = turn({VANESSA: ["5", "0"]}, setup=lambda s: give(s, SARAH, pesos=5))
    after = act(state, VANESSA, {"type": "steal_pesos", "victim": SARAH})
    assert (after["seats"][VANESSA]["pesos"], after["seats"][SARAH]["pesos"]) == (2, 3)


def test_pesos_thief_acting_last_may_steal_from_any_player():
    state = turn({PETER: ["5", "0"]}, seat=PETER)
    assert {a["victim"] for a in ENGINE.legal_actions(state, PETER)} == {VANESSA, SARAH, TOBIAS}


def test_several_pesos_thieves_may_rob_the_same_player_in_turn():
    cards = {VANESSA: ["5", "0"], SARAH: ["5", "0"]}
    state = turn(cards, setup=lambda s: give(s, PETER, pesos=8))
    state = act(state, VANESSA, {"type": "steal_pesos", "victim": PETER})
    state = act(state, VANESSA, {"type": "end"})
    state = act(state, SARAH, {"type": "steal_pesos", "victim": PETER})
    assert [state["seats"][s]["pesos"] for s in (VANESSA, SARAH, PETER)] == [4, 2, 2]


def test_materials_thief_takes_one_cube_of_his_choice_gray_included():
    def setup(s):
        give(s, SARAH, red=3, gray=1)

    state = turn({VANESSA: ["6", "0"]}, setup=setup)
    from_sarah = [a["cubes"] for a in ENGINE.legal_actions(state, VANESSA) if a["victim"] == SARAH]
    assert from_sarah == [["red"], ["gray"]]


def test_materials_thief_follows_the_pesos_thief_targeting():
    state = turn({TOBIAS: ["6", "0"]}, seat=TOBIAS, setup=lambda s: give(s, VANESSA, blue=1))
    victims = {a["victim"] for a in ENGINE.legal_actions(state, TOBIAS)}
    assert victims == {PETER}  # only Peter follows; Vanessa already played
    last = turn({PETER: ["6", "0"]}, seat=PETER, setup=lambda s: give(s, VANESSA, blue=1))
    assert {"type": "steal_cubes", "victim": VANESSA, "cubes": ["blue"]} in ENGINE.legal_actions(
        last, PETER
    )


def test_materials_thief_against_an_empty_handed_player_takes_nothing():
    state = turn({TOBIAS: ["6", "0"]}, seat=TOBIAS)
    assert ENGINE.legal_actions(state, TOBIAS) == [
        {"type": "steal_cubes", "victim": PETER, "cubes": []}
    ]


def test_black_market_draws_two_for_the_first_user_and_one_for_later_ones():
    cards = {VANESSA: ["7", "0"], SARAH: ["7", "0"]}
    state = turn(cards)
    bag = len(state["bag"])
    state = act(state, VANESSA, {"type": "black_market"})
    assert sum(state["seats"][VANESSA]["cubes"].values()) == 2
    state = act(state, VANESSA, {"type": "end"})
    state = act(state, SARAH, {"type": "black_market"})
    assert sum(state["seats"][SARAH]["cubes"].values()) == 1
    assert len(state["bag"]) == bag - 3


def test_black_market_draws_what_is_left_when_the_bag_runs_dry():
    def setup(s):
        while len(s["bag"]) > 1:
            s["removed"][s["bag"].pop()] += 1

    state = turn({VANESSA: ["7", "0"]}, setup=setup)
    after = act(state, VANESSA, {"type": "black_market"})
    assert sum(after["seats"][VANESSA]["cubes"].values()) == 1
    assert after["bag"] == []


@pytest.mark.parametrize(("pesos", "taken"), [(0, 0), (1, 1), (7, 4), (10, 5)])
def test_pesos_takes_half_the_centre_rounded_up(pesos, taken):
    state = turn({VANESSA: ["8", "0"]}, setup=lambda s: centre(s, pesos=pesos))
    after = act(state, VANESSA, {"type": "pesos"})
    assert after["seats"][VANESSA]["pesos"] == taken
    assert after["centre"]["pesos"] == pesos - taken


def test_mama_lets_the_player_choose_the_coloured_cubes_but_not_the_gray_count():
    state = turn({VANESSA: ["9", "0"]}, setup=lambda s: centre(s, red=2, blue=1, gray=1))
    options = [a["cubes"] for a in ENGINE.legal_actions(state, VANESSA)]
    assert options == [["red", "red", "gray"], ["red", "blue", "gray"]]


def test_mama_on_an_empty_centre_takes_nothing():
    state = turn({VANESSA: ["9", "0"]})
    assert ENGINE.legal_actions(state, VANESSA) == [{"type": "mama", "cubes": []}]
