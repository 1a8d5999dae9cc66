"""Scoring: printed building points plus civic tokens; tie-breaker; result."""

from __future__ import annotations

import pytest

from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS, RESOURCES, TOKENS
from games.engines.pointcity.scoring import player_score, token_points

from .helpers import ALICE, BOB, CHARLIE, build, empty_stock, give, new_game, pick

ECONOMY_PRODUCERS = [3, 18, 22, 23]  # 0 printed points each
ENERGY_PRODUCERS = [1, 6, 7]
COMMUNITY_PRODUCERS = [20, 41]
POINTS_ONLY = [33, 35, 50, 56, 57, 67]  # 4 points each
PER_ECONOMY, PER_THREE_OF_A_TYPE, PER_INGENUITY = 8, 5, 7
PER_ENERGY_AND_COMMUNITY = 20


def finished(state):
    state["phase"] = "over"
    state["end"] = "the market could not be refilled"
    return ENGINE.result(state)


def test_rules_example_buildings_24_and_tokens_8_6_6_4_make_48():
    state = new_game(2, seed=2)
    empty_stock(state, ALICE)
    build(state, ALICE, ECONOMY_PRODUCERS + ENERGY_PRODUCERS + COMMUNITY_PRODUCERS + POINTS_ONLY)
    give(state, ALICE, pick(resource="ingenuity", building="civic")[:2])
    state["seats"][ALICE]["tokens"] = [
        PER_ECONOMY,
        PER_ENERGY_AND_COMMUNITY,
        PER_THREE_OF_A_TYPE,
        PER_INGENUITY,
    ]
    score = player_score(state["seats"][ALICE])
    assert score["buildings"] == 24
    assert [t["points"] for t in score["tokens"]] == [8, 6, 6, 4]
    assert score["total"] == 48
    result = finished(state)
    assert result["scores"][ALICE] == 48
    assert result["breakdown"][ALICE] == {
        "buildings": 24,
        f"civic token {PER_ECONOMY}": 8,
        f"civic token {PER_ENERGY_AND_COMMUNITY}": 6,
        f"civic token {PER_THREE_OF_A_TYPE}": 6,
        f"civic token {PER_INGENUITY}": 4,
    }
    assert result["ended_by"] == "pile_exhausted"


PERM = {"community": 2, "economy": 4, "energy": 3, "ecology": 0, "industry": 1}


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        (1, 0),  # 6 per full set of five: ecology is missing
        (2, 5),  # flat
        (3, 7),
        (4, 2 * 3),  # 2 per type with 2+: community, economy, energy
        (5, 3 * 2),  # 3 per type with 3+: economy, energy
        (6, 4 * 1),  # 4 per missing type: ecology
        (7, 2 * 3),  # 2 per unspent Ingenuity card (3 held)
        (9, 2 * 1),  # 2 per industry
        (13, 3 * 2),  # community + economy sets
        (16, 0),  # energy + ecology sets
    ],
)
def test_each_civic_token_kind_scores_by_its_rule(token, expected):
    assert token_points(TOKENS[token], PERM, 3) == expected


def test_a_full_set_token_counts_complete_sets_of_all_five():
    perm = dict.fromkeys(RESOURCES, 2) | {"industry": 3}
    assert token_points(TOKENS[1], perm, 0) == 12


def test_civic_tokens_ignore_resources_on_cards_in_stock():
    state = new_game(2, seed=2)
    empty_stock(state, ALICE)
    give(state, ALICE, pick(tier=1, resource="economy")[:5])
    state["seats"][ALICE]["tokens"] = [PER_ECONOMY, PER_THREE_OF_A_TYPE]
    assert player_score(state["seats"][ALICE])["total"] == 0


def test_civic_buildings_give_no_points_and_no_permanent_resource():
    state = new_game(2, seed=2)
    build(state, ALICE, pick(building="civic")[:3])
    score = player_score(state["seats"][ALICE])
    assert score["buildings"] == 0
    assert sum(score["permanent"].values()) == 0


def tied_game(alice_cards: int, bob_cards: int):
    state = new_game(3, seed=2)
    for seat in (ALICE, BOB, CHARLIE):
        empty_stock(state, seat)
    build(state, ALICE, [33])
    build(state, BOB, [35])  # both 4 points
    give(state, ALICE, pick(tier=1, resource="energy")[:alice_cards])
    give(state, BOB, pick(tier=1, resource="ecology")[:bob_cards])
    return finished(state)


def test_tie_goes_to_the_most_unspent_resource_cards():
    result = tied_game(alice_cards=1, bob_cards=3)
    assert result["scores"][:2] == [4, 4]
    assert result["winners"] == [BOB]
    assert result["places"] == [2, 1, 3]


def test_a_tie_on_cards_too_is_a_shared_victory():
    result = tied_game(alice_cards=2, bob_cards=2)
    assert result["winners"] == [ALICE, BOB]
    assert result["places"] == [1, 1, 3]


def test_result_lists_a_breakdown_per_player():
    result = tied_game(alice_cards=2, bob_cards=2)
    assert len(result["breakdown"]) == 3
    assert result["breakdown"][ALICE] == {"buildings": CARDS[33].points}


def test_no_result_while_the_game_runs():
    assert ENGINE.result(new_game(2, seed=2)) is None
