"""Setup: components, editions, options and determinism."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.base import IllegalAction, canonical_json, get
from games.engines.estates import ENGINE
from games.engines.estates.data import CUBES


def test_registered_under_api_name_estates():
    assert get("estates") is ENGINE
    assert (ENGINE.MIN_PLAYERS, ENGINE.MAX_PLAYERS) == (2, 5)
    assert ENGINE.VERSION == 2


def test_twenty_four_distinct_cubes_are_laid_out_in_three_rows_of_eight():
    state = ENGINE.setup(4, {}, 11)
    rows = state["display"]
    assert [len(r) for r in rows] == [8, 8, 8]
    cubes = [c for r in rows for c in r]
    assert len(set(cubes)) == 24
    assert set(cubes) <= set(CUBES)


def test_thirty_six_cubes_six_colours_one_of_each_value():
    assert len(CUBES) == 36
    colours = Counter(c.rsplit("-", 1)[0] for c in CUBES)
    assert sorted(colours.values()) == [6] * 6


def test_neue_heimat_is_the_default_with_seventeen_roofs_five_blank():
    state = ENGINE.setup(3, {}, 5)
    assert state["edition"] == "neue-heimat"
    roofs = state["roofs"]
    assert len(roofs) == 17
    assert roofs.count(0) == 5
    assert sorted(v for v in roofs if v) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


def test_the_estates_edition_has_twelve_roofs_one_to_six_twice_no_blanks():
    state = ENGINE.setup(3, {"edition": "the-estates"}, 5)
    assert sorted(state["roofs"]) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_player_gets_twelve_cheques_and_no_stash(players):
    state = ENGINE.setup(players, {}, 1)
    assert state["money"] == [12] * players
    assert state["stash"] == [0] * players


def test_start_player_is_drawn_from_the_seed():
    starts = {ENGINE.setup(5, {}, seed)["active"] for seed in range(40)}
    assert starts == {0, 1, 2, 3, 4}


def test_special_pieces_and_mayor_start_beside_the_board():
    state = ENGINE.setup(2, {}, 1)
    assert set(state["specials"].values()) == {"supply"}
    assert sorted(state["specials"]) == ["cancel", "mayor", "permit1", "permit2", "permit3"]
    assert state["mayor"] is None
    assert set(state["certificates"].values()) == {None}


def test_rows_start_with_a_requirement_of_four_lots_and_five_white_lots():
    view = ENGINE.view(ENGINE.setup(2, {}, 1), None)
    assert [row["requirement"] for row in view["board"]] == [4, 4, 4]
    singles = [lot["lot"] for row in view["board"] for lot in row["lots"] if lot["single"]]
    assert singles == ["a1", "a7", "b3", "b5", "c2"]


def test_same_seed_same_state_byte_for_byte():
    one = ENGINE.setup(4, {"edition": "the-estates", "rounds": 3}, 99)
    two = ENGINE.setup(4, {"edition": "the-estates", "rounds": 3}, 99)
    assert canonical_json(one) == canonical_json(two)
    assert canonical_json(one) != canonical_json(ENGINE.setup(4, {"rounds": 3}, 98))


def test_every_round_is_shuffled_at_setup():
    state = ENGINE.setup(3, {"rounds": 3}, 4)
    assert len(state["setups"]) == 3
    displays = {canonical_json(s["display"]) for s in state["setups"]}
    assert len(displays) == 3


@pytest.mark.parametrize(
    "options",
    [{"edition": "monopoly"}, {"rounds": 0}, {"rounds": "2"}, {"colour": "red"}],
)
def test_bad_options_are_refused(options):
    with pytest.raises(IllegalAction):
        ENGINE.setup(3, options, 1)


@pytest.mark.parametrize("players", [1, 6, "3"])
def test_two_to_five_players_only(players):
    with pytest.raises(IllegalAction):
        ENGINE.setup(players, {}, 1)


def test_state_is_plain_json():
    state = ENGINE.setup(5, {"rounds": 2}, 3)
    import json

    assert json.loads(json.dumps(state)) == state


def test_neue_heimat_flags_its_copied_white_lots_and_roof_values_as_provisional():
    assert ENGINE.PROVISIONAL_DATA is True  # some of its games have provisional data
    assert ENGINE.provisional({}) == ["white_lots", "roof_values"]  # the default edition
    assert ENGINE.provisional({"edition": "neue-heimat"}) == ["white_lots", "roof_values"]
    assert ENGINE.provisional({"edition": "the-estates"}) == []
    for edition in ("neue-heimat", "the-estates"):
        state = ENGINE.setup(3, {"edition": edition}, 1)
        for seat in (0, 1, None):
            assert ENGINE.view(state, seat)["provisional"] == ENGINE.provisional(
                {"edition": edition}
            )
