"""Turn order: the two-digit number and the full tie-break chain."""

from __future__ import annotations

import pytest

from games.engines.havana import ENGINE
from games.engines.havana.order import number, turn_order
from games.engines.havana.setup import new_game

from .helpers import SARAH, VANESSA, give, start, table


def test_the_lower_card_goes_left_to_form_the_number():
    assert number(["7", "0"]) == 7
    assert number(["9", "3t"]) == 39
    assert number(["4a", "4w"]) == 44


def test_the_lowest_number_acts_first_whatever_the_seat():
    state = table(3)
    start(state, {0: ["9", "8"], 1: ["5", "6"], 2: ["0", "1"]})
    assert state["order"] == [2, 1, 0]


def tied(**resources):
    """Vanessa and Sarah on 05; Sarah gets `resources` so Vanessa should win the tie."""
    state = table(2)
    give(state, SARAH, **resources)
    return start(state, {VANESSA: ["0", "5"], SARAH: ["5", "0"]})


@pytest.mark.parametrize(
    "resources",
    [{"red": 1}, {"pesos": 1}, {"workers": 1}, {"gray": 1}],
    ids=["coloured cubes", "pesos", "workers", "gray cubes"],
)
def test_a_tie_goes_to_the_player_with_fewer_of_each_thing_in_turn(resources):
    assert tied(**resources)["order"] == [VANESSA, SARAH]


def test_fewest_victory_points_break_a_tie_first():
    state = table(2)
    give(state, VANESSA, red=3, pesos=5, workers=2, gray=4)  # richer in everything...
    state["seats"][SARAH]["vp"] = 2  # ...but Sarah has more VP
    start(state, {VANESSA: ["0", "5"], SARAH: ["0", "5"]})
    assert state["order"] == [VANESSA, SARAH]


def test_the_chain_is_applied_in_order_coloured_before_pesos():
    state = table(2)
    give(state, VANESSA, pesos=9)
    give(state, SARAH, red=1)
    start(state, {VANESSA: ["0", "5"], SARAH: ["0", "5"]})
    assert state["order"] == [VANESSA, SARAH]


def test_the_younger_player_goes_first_on_a_full_tie_from_the_ages_option():
    state = new_game(3, {"ages": [40, 25, 33]}, 1)
    for seat in state["seats"]:
        seat["cubes"] = dict.fromkeys(seat["cubes"], 0)
        seat["cards"] = ["0", "1"]
    assert turn_order(state) == [1, 2, 0]


def test_without_ages_the_lower_seat_counts_as_younger():
    state = table(3)
    for seat in state["seats"]:
        seat["cards"] = ["0", "1"]
    assert turn_order(state) == [0, 1, 2]


def test_ages_option_reaches_the_turn_order_through_setup():
    state = ENGINE.setup(2, {"ages": [50, 20]}, seed=9)
    for seat in state["seats"]:
        seat["cubes"] = dict.fromkeys(seat["cubes"], 0)
        seat["cards"] = ["0", "1"]
    assert turn_order(state) == [1, 0]
