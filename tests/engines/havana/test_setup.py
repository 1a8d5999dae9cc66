"""Setup (rules §3): cards, bag, display, centre, players, workers."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, canonical_json
from games.engines.havana import ENGINE, data
from games.engines.havana.setup import new_game

from .helpers import cube_total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_gets_thirteen_cards_one_cube_and_one_peso(players):
    state = ENGINE.setup(players, {}, seed=7)
    for seat in state["seats"]:
        assert sorted(seat["hand"]) == sorted(data.CARD_CODES)
        values = sorted(data.card_value(c) for c in seat["hand"])
        assert values == [0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]
        assert sum(seat["cubes"].values()) == 1
        assert seat["pesos"] == 1
        assert seat["workers"] == 0
        assert seat["vp"] == 0


def test_the_bag_holds_80_cubes_ten_of_each_colour_and_40_gray():
    state = ENGINE.setup(4, {}, seed=3)
    assert cube_total(state) == 80
    counts = dict.fromkeys(data.CUBES, 0)
    for holder in [state["centre"]["cubes"], *(s["cubes"] for s in state["seats"])]:
        for colour, n in holder.items():
            counts[colour] += n
    for colour in state["bag"]:
        counts[colour] += 1
    assert counts == {"red": 10, "yellow": 10, "blue": 10, "brown": 10, "gray": 40}


def test_centre_starts_with_four_pesos_and_three_cubes_and_fifteen_workers_in_supply():
    state = ENGINE.setup(3, {}, seed=11)
    assert state["centre"]["pesos"] == 4
    assert sum(state["centre"]["cubes"].values()) == 3
    assert state["workers"] == 15
    assert len(state["bag"]) == 80 - 3 - 3


def test_twelve_buildings_lie_in_two_rows_of_six_and_the_rest_form_the_pile():
    state = ENGINE.setup(2, {}, seed=5)
    assert [len(row) for row in state["rows"]] == [6, 6]
    assert len(state["pile"]) == 36 - 12
    every = [b for row in state["rows"] for b in row] + state["pile"]
    assert sorted(every) == sorted(int(k) for k in state["buildings"])


def _cheap_end(state):
    ends = [row[0] for row in state["rows"]] + [row[-1] for row in state["rows"]]
    return any(state["buildings"][str(b)]["vp"] <= 3 for b in ends)


def test_at_least_one_end_building_is_worth_one_to_three_even_when_cheap_ones_are_rare():
    # 36 buildings, only two of them cheap: most first deals break the rule.
    table = {str(i): {"vp": 5, "cost": {"gray": 2}, "architect": False} for i in range(1, 37)}
    table["17"]["vp"] = table["30"]["vp"] = 2
    fixed = 0
    for seed in range(60):
        state = new_game(4, {}, seed, buildings=table)
        assert _cheap_end(state)
        every = [b for row in state["rows"] for b in row] + state["pile"]
        assert sorted(every) == list(range(1, 37))
        fixed += state["rows"][0][0] not in (17, 30)
    assert fixed  # the rule was actually exercised


def test_every_seed_of_the_shipped_list_has_a_cheap_end():
    assert all(_cheap_end(ENGINE.setup(4, {}, seed)) for seed in range(50))


def test_setup_is_a_pure_function_of_the_seed():
    one = canonical_json(ENGINE.setup(4, {}, seed=42))
    assert one == canonical_json(ENGINE.setup(4, {}, seed=42))
    assert one != canonical_json(ENGINE.setup(4, {}, seed=43))


@pytest.mark.parametrize("players", [1, 5])
def test_havana_is_for_two_to_four_players(players):
    with pytest.raises(IllegalAction):
        ENGINE.setup(players, {}, seed=1)


def test_unknown_option_is_refused():
    with pytest.raises(IllegalAction):
        ENGINE.setup(2, {"speed": "fast"}, seed=1)


@pytest.mark.parametrize("ages", [[30], [30, "x"], [30, -1], "30,40", [30, True]])
def test_ages_option_needs_one_whole_number_per_seat(ages):
    with pytest.raises(IllegalAction):
        ENGINE.setup(2, {"ages": ages}, seed=1)


def test_the_game_starts_with_everyone_choosing_at_once():
    state = ENGINE.setup(4, {}, seed=1)
    assert ENGINE.to_act(state) == {0, 1, 2, 3}
    assert state["phase"] == "choose"
