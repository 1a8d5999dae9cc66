"""Setup: tiers trimmed and stacked, the market, civic tokens, starting cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines.base import IllegalAction, canonical_json
from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS, FIRST_PLAYER_CARD, SETUP
from games.engines.pointcity.setup import _deal_pile

from .helpers import all_cards, new_game

# The published table: cards left per tier after removal.
DECK_PER_TIER = {1: (40, 24, 18), 2: (40, 24, 18), 3: (52, 36, 28), 4: (64, 48, 38)}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_cards_removed_per_player_count_follow_the_published_table(players):
    state = new_game(players, seed=players)
    in_play = [s["card"] for s in state["market"]] + state["pile"]
    tiers = Counter(CARDS[c].tier for c in in_play)
    assert (tiers[1], tiers[2], tiers[3]) == DECK_PER_TIER[players]
    removed = Counter(CARDS[c].tier for c in state["removed"] if CARDS[c].tier)
    assert [removed[t] for t in (1, 2, 3)] == SETUP[players]["remove_per_tier"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_pile_is_stacked_tier_one_on_top_tier_three_at_the_bottom(players):
    state = new_game(players, seed=7)
    dealt = [s["card"] for s in state["market"]] + state["pile"]
    tiers = [CARDS[c].tier for c in dealt]
    assert tiers == sorted(tiers)


def test_market_is_16_cards_resource_side_up_dealt_in_reading_order():
    state = new_game(2, seed=3)
    assert all(slot["side"] == "resource" for slot in state["market"])
    # Replaying the same shuffle: space i (reading order) got the i-th card dealt.
    pile, _removed = _deal_pile(random.Random(3), 2)
    assert [slot["card"] for slot in state["market"]] == pile[:16]
    assert state["pile"] == pile[16:]


@pytest.mark.parametrize(("players", "shown"), [(1, 10), (2, 10), (3, 12), (4, 14)])
def test_civic_tokens_revealed_per_player_count(players, shown):
    state = new_game(players, seed=5)
    assert len(state["display"]) == shown
    assert sorted(state["display"] + state["token_box"]) == list(range(1, 23))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_gets_an_ingenuity_card_and_the_first_player_card_starts(players):
    for seed in range(10):
        state = ENGINE.setup(players, {}, seed)
        starts = [s["stock"] for s in state["seats"]]
        assert all(len(s) == 1 and CARDS[s[0]].tier == 0 for s in starts)
        assert state["seats"][state["current"]]["stock"] == [FIRST_PLAYER_CARD]
        assert ENGINE.to_act(state) == {state["current"]}


def test_the_first_player_is_random_across_seeds():
    firsts = {ENGINE.setup(4, {}, s)["current"] for s in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_solo_human_starts_and_the_opponent_holds_an_ingenuity_card():
    state = new_game(1, seed=2)
    assert state["current"] == 0
    assert state["seats"][0]["stock"] == [FIRST_PLAYER_CARD]
    assert [CARDS[c].resource for c in state["bot"]["stock"]] == ["ingenuity"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_card_is_somewhere_exactly_once(players):
    cards = all_cards(new_game(players, seed=11))
    assert sorted(cards) == list(range(1, 165))


def test_same_seed_same_setup_other_seed_other_setup():
    assert canonical_json(new_game(3, seed=9)) == canonical_json(new_game(3, seed=9))
    assert new_game(3, seed=9)["pile"] != new_game(3, seed=10)["pile"]


def test_solo_level_is_an_option_with_three_levels():
    assert ENGINE.OPTIONS["solo_level"]["choices"] == [1, 2, 3]
    assert new_game(1, seed=1, solo_level=3)["level"] == 3
    assert new_game(1, seed=1)["level"] == ENGINE.OPTIONS["solo_level"]["default"]


@pytest.mark.parametrize("options", [{"solo_level": 4}, {"colour": "red"}])
def test_bad_options_are_refused(options):
    with pytest.raises(IllegalAction):
        ENGINE.setup(1, options, 1)


@pytest.mark.parametrize("players", [0, 5, "2", True])
def test_player_count_outside_one_to_four_is_refused(players):
    with pytest.raises(IllegalAction):
        ENGINE.setup(players, {}, 1)
