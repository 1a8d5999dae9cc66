"""Solo: the automated opponent's draft, its civic tokens and its score levels."""

from __future__ import annotations

import pytest

from games.engines.pointcity import ENGINE

from .helpers import ALICE, act, all_cards, build, empty_stock, move_to, new_game, pick, set_space


def test_the_opponent_takes_the_crossing_card_and_the_one_below_after_your_turn():
    state = new_game(1, seed=3)
    crossing, below = state["market"][4]["card"], state["market"][8]["card"]  # a2, a3
    after = act(state, ALICE, "draw")
    assert after["bot"]["stock"][-2:] == [crossing, below]
    assert after["bot"]["turns"] == 1
    assert ENGINE.to_act(after) == {ALICE}


def test_the_opponent_refills_with_the_opposite_side_like_a_player():
    state = new_game(1, seed=3)
    after = act(state, ALICE, "draw")
    next_two = state["pile"][2:4]
    assert after["market"][4] == {"card": next_two[0], "side": "building"}
    assert after["market"][8] == {"card": next_two[1], "side": "building"}


def test_the_market_tokens_move_one_column_right_and_one_row_down():
    state = act(new_game(1, seed=3), ALICE, "draw")
    assert (state["bot"]["column"], state["bot"]["row"]) == (1, 2)


def test_from_the_bottom_row_the_second_card_is_the_top_of_the_column_and_tokens_wrap():
    state = new_game(1, seed=3)
    state["bot"]["column"], state["bot"]["row"] = 3, 3  # d4
    d4, d1 = state["market"][15]["card"], state["market"][3]["card"]
    after = act(state, ALICE, "draw")
    assert after["bot"]["stock"][-2:] == [d4, d1]
    assert (after["bot"]["column"], after["bot"]["row"]) == (0, 0)


def test_the_opponent_builds_whatever_it_takes_without_paying():
    state = new_game(1, seed=3)
    set_space(state, "a2", 132, "building")  # 7 points, costs 7
    set_space(state, "a3", 130, "building")
    after = act(state, ALICE, "draw")
    assert after["bot"]["city"] == [132, 130]
    assert after["discard"] == state["discard"]


def test_the_opponent_takes_the_leftmost_token_per_civic_building():
    state = new_game(1, seed=3)
    civic = pick(building="civic", tier=3)[:2]
    set_space(state, "a2", civic[0], "building")
    set_space(state, "a3", civic[1], "building")
    display = list(state["display"])
    after = act(state, ALICE, "draw")
    assert after["bot"]["tokens"] == display[:2]
    assert after["display"] == display[2:]


def solo_end(bot_city, bot_tokens, bot_ingenuity, my_points, level):
    state = new_game(1, seed=3, solo_level=level)
    empty_stock(state, ALICE)
    state["discard"] += state["bot"]["stock"]
    state["bot"]["stock"] = []
    build(state, ALICE, my_points)
    for card in bot_city:
        move_to(state, card, state["bot"]["city"])
    state["bot"]["tokens"] = bot_tokens
    for card in pick(resource="ingenuity", building="civic")[:bot_ingenuity]:
        move_to(state, card, state["bot"]["stock"])
    assert sorted(all_cards(state)) == list(range(1, 165))
    state["phase"], state["end"] = "over", "the market could not be refilled"
    return state


# Opponent city: 3 economy producers (0 points) + 2 energy producers (1 point each:
# Mini golf 2 and 26) -> buildings 2, five permanent resources in two types.
BOT_CITY = [3, 18, 22, 2, 26]


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (1, 2 + 1 * 5 + 3 * 2),  # +1 per permanent resource, +3 per token
        (2, 2 + (3 + 2) + 5 * 2),  # economy 3+ -> 3, energy 2 -> 2; +5 per token
        (3, 2 + (6 + 3) + 7 * 2 + 1 * 2),  # 6 and 3; +7 per token, +1 per Ingenuity
    ],
)
def test_opponent_score_per_level(level, expected):
    result = ENGINE.result(solo_end(BOT_CITY, [2, 3], 2, [], level))
    assert result["opponent"] == {"score": expected}


def test_you_must_beat_the_opponent_a_tie_loses():
    # The opponent scores 2 + 5 + 6 = 13 at one star.
    win = ENGINE.result(solo_end(BOT_CITY, [2, 3], 2, [130, 126, 50], 1))  # 7 + 5 + 4
    assert (win["scores"], win["opponent"], win["winners"]) == ([16], {"score": 13}, [ALICE])
    assert win["places"] == [1]
    tie = ENGINE.result(solo_end(BOT_CITY, [2, 3], 2, [33, 35, 83], 1))  # 4 + 4 + 5
    assert (tie["scores"], tie["opponent"], tie["winners"]) == ([13], {"score": 13}, [])
    assert tie["places"] == [2]


def test_the_finished_view_shows_every_level_and_the_stars_earned():
    view = ENGINE.view(solo_end(BOT_CITY, [2, 3], 2, [130, 126, 50], 1), ALICE)
    totals = [lv["total"] for lv in view["opponent_levels"]]
    assert totals == [13, 17, 27]
    assert view["stars"] == 1
    assert view["result"]["opponent"] == {"score": 13}
