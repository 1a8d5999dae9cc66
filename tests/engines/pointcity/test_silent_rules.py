"""Where the rules are silent or uncertain: one test per reading the engine
makes (README.md, the table "Where the rules are silent or uncertain").  The
rows whose test lives elsewhere name that file."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from games.engines.pointcity import ENGINE
from games.engines.pointcity import data as pointcity_data
from games.engines.pointcity.data import CARDS, FIRST_PLAYER_CARD, TOTAL_CARDS, DataError, load
from games.engines.pointcity.payment import spend
from games.engines.pointcity.scoring import player_score

from .helpers import (
    ALICE,
    BOB,
    CHARLIE,
    act,
    all_cards,
    assert_illegal,
    build,
    empty_stock,
    give,
    move_to,
    new_game,
    pick,
    random_game,
    set_market,
    set_space,
    takes,
)

TIER_THREE = list(range(116, 132))  # 16 tier-3 buildings: none affordable with an empty stock
NEWSSTAND = 3  # producer, costs community + energy
MARKET_STALL = 45  # producer, costs community + energy
COMMUNITY_DOUBLE = pick(resource="community", symbols=2, tier=2)
ENERGY_DOUBLE = pick(resource="energy", symbols=2, tier=2)
INGENUITY_TOKEN = 7  # 2 per Ingenuity card left in stock


def final_turn(players: int = 2, seed: int = 8) -> dict:
    """Alice to play the game's last turn: the pile is empty."""
    state = new_game(players, seed=seed)
    for card in list(state["pile"]):
        move_to(state, card, state["removed"])
    return state


def stuck_final_turn() -> dict:
    """The last turn with nothing affordable: tier-3 buildings everywhere, no cards."""
    state = final_turn()
    set_market(state, "building", TIER_THREE)
    empty_stock(state, ALICE)
    return state


def kinds(legal: list[dict]) -> set[str]:
    return {a["type"] for a in legal}


# -- the final turn's pass -------------------------------------------------------


def test_pass_is_offered_only_when_the_pile_is_empty_and_no_pair_is_affordable():
    stuck = stuck_final_turn()
    assert ENGINE.legal_actions(stuck, ALICE) == [{"type": "pass"}]

    # The same market with two cards left in the pile: draw, never pass.
    with_pile = stuck_final_turn()
    with_pile["pile"] = with_pile["removed"][:2]
    del with_pile["removed"][:2]
    assert kinds(ENGINE.legal_actions(with_pile, ALICE)) == {"draw"}

    # The empty pile, but one affordable pair (two resource sides): take, never pass.
    one_pair = stuck_final_turn()
    for space in (11, 15):  # d3, d4 turned to their resource sides
        one_pair["market"][space] = {"card": TIER_THREE[space], "side": "resource"}
    legal = ENGINE.legal_actions(one_pair, ALICE)
    assert kinds(legal) == {"take"}
    assert [a["spaces"] for a in legal] == [["d3", "d4"]]


def test_pass_is_refused_while_any_draft_is_possible():
    for state in (new_game(2, seed=8), final_turn()):
        message = assert_illegal(state, ALICE, {"type": "pass"})
        assert "only when no draft is possible" in message


def test_pass_is_never_offered_when_a_flip_is_possible():
    # A flip needs a whole row or column of resource sides, and two of those
    # side by side are a pair that costs nothing: a flip possible means a
    # draft possible, so no pass, and after the flip a free pair remains.
    state = stuck_final_turn()
    for space in range(4):  # row 1 turned to its resource sides
        state["market"][space] = {"card": TIER_THREE[space], "side": "resource"}
    legal = ENGINE.legal_actions(state, ALICE)
    assert {"type": "pass"} not in legal
    assert {"type": "flip", "space": "b1"} in legal
    assert {"type": "take", "spaces": ["c1", "d1"], "pay": []} in legal
    after = ENGINE.apply(state, ALICE, {"type": "flip", "space": "b1"})
    assert kinds(ENGINE.legal_actions(after, ALICE)) == {"take"}

    # The same on many random final-turn markets.
    rng = random.Random(21)
    passes = flips = 0
    for _ in range(200):
        state = stuck_final_turn()
        share = rng.choice([0.1, 0.3, 0.5])
        for i, slot in enumerate(state["market"]):
            side = "resource" if rng.random() < share else "building"
            state["market"][i] = {"card": slot["card"], "side": side}
        legal = ENGINE.legal_actions(state, ALICE)
        if {"type": "pass"} in legal:
            passes += 1
            assert legal == [{"type": "pass"}]
        for flip in [a for a in legal if a["type"] == "flip"]:
            flips += 1
            assert {"type": "pass"} not in legal
            after_legal = ENGINE.legal_actions(ENGINE.apply(state, ALICE, flip), ALICE)
            assert {"type": "pass"} not in after_legal
            assert any(a["type"] == "take" and a["pay"] == [] for a in after_legal)
    assert passes and flips  # both cases did occur


@functools.cache
def games_ended_by_pass() -> tuple[tuple[int, dict, dict], ...]:
    """Random 2-, 3- and 4-player games that ended by a pass (rare: see the
    bench's ended_by_share): (players, state before the pass, state after)."""
    found = []
    for players in (2, 3, 4):
        for seed in range(130):
            before: list[dict] = []

            def keep(state, seat, action, before=before):
                if action["type"] == "pass":
                    before.append(state)

            after = random_game(players, seed, step=keep)
            if before:
                found.append((players, before[0], after))
                break
    assert [players for players, _, _ in found] == [2, 3, 4]
    return tuple(found)


@pytest.mark.slow
def test_a_pass_counts_as_the_players_seventeenth_turn():
    for players, before, after in games_ended_by_pass():
        passer = before["current"]
        assert before["pile"] == []
        assert ENGINE.legal_actions(before, passer) == [{"type": "pass"}]
        turns_before = [p["turns"] for p in before["seats"]]
        assert turns_before[passer] == 16
        assert [p["turns"] for p in after["seats"]] == [17] * players


@pytest.mark.slow
def test_after_a_pass_the_game_is_over_with_16_cards_in_the_market():
    for players, before, after in games_ended_by_pass():
        assert ENGINE.is_over(after)
        assert ENGINE.to_act(after) == set()
        assert all(ENGINE.legal_actions(after, seat) == [] for seat in range(players))
        assert sum(slot is not None for slot in after["market"]) == 16
        assert after["market"] == before["market"]
        assert sorted(all_cards(after)) == list(range(1, TOTAL_CARDS + 1))


@pytest.mark.slow
def test_a_game_ended_by_pass_reports_ended_by_no_draft():
    for _players, _before, after in games_ended_by_pass():
        assert ENGINE.result(after)["ended_by"] == "no_draft"
    ended = act(stuck_final_turn(), ALICE, "pass")
    assert ENGINE.result(ended)["ended_by"] == "no_draft"
    assert ended["seats"][ALICE]["turns"] == 1
    refilled_short = act(final_turn(), ALICE, "take a1 b1")
    assert ENGINE.result(refilled_short)["ended_by"] == "pile_exhausted"


def test_in_solo_the_player_always_has_a_draft_and_never_passes():
    # The opponent's refill takes two pile cards after each of the player's
    # turns, so the player's 17th turn still finds two cards to draw.
    def check(state, seat, action):
        if state["phase"] == "turn":
            legal = ENGINE.legal_actions(state, seat)
            assert {"type": "draw"} in legal
            assert {"type": "pass"} not in legal

    for seed in range(10):
        state = random_game(1, seed, step=check)
        assert ENGINE.result(state)["ended_by"] == "pile_exhausted"


# -- setup -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "remove_per_tier"),
    [("1", [0, 0, 0]), ("2", [4, 4, 4]), ("3", [8, 8, 8]), ("4", [12, 12, 12])],
)
def test_the_rules_texts_removal_counts_are_refused_as_they_break_17_turns_each(
    tmp_path: Path, players: str, remove_per_tier: list[int]
):
    raw = json.loads(pointcity_data.DATA_FILE.read_text(encoding="utf-8"))
    raw["setup"][players]["remove_per_tier"] = remove_per_tier
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError, match="equal turns"):
        load(path)


# -- paying --------------------------------------------------------------------------


def test_a_double_card_may_pay_one_symbol_of_each_of_two_buildings():
    state = new_game(2, seed=4)
    set_space(state, "a1", NEWSSTAND, "building")
    set_space(state, "b1", MARKET_STALL, "building")
    empty_stock(state, ALICE)
    give(state, ALICE, [COMMUNITY_DOUBLE[0], ENERGY_DOUBLE[0]])
    assert [a["pay"] for a in takes(state, ALICE, ["a1", "b1"])] == [["community2", "energy2"]]
    after = act(state, ALICE, "take a1 b1 pay community2 energy2")
    assert sorted(after["seats"][ALICE]["city"]) == [NEWSSTAND, MARKET_STALL]
    assert after["seats"][ALICE]["stock"] == []


def test_the_oldest_card_of_a_kind_is_the_one_spent():
    energy = [c for c in pick(tier=1, resource="energy") if CARDS[c].symbols == 1][:3]
    left, spent = spend([energy[2], energy[0], energy[1]], ["energy", "energy"])
    assert spent == [energy[2], energy[0]]
    assert left == [energy[1]]


def test_there_is_no_hand_limit():
    state = new_game(2, seed=4)
    give(state, ALICE, state["removed"][:30])
    assert {"type": "draw"} in ENGINE.legal_actions(state, ALICE)
    after = act(state, ALICE, "draw")
    assert len(after["seats"][ALICE]["stock"]) == 33


# -- scoring -------------------------------------------------------------------------


def test_the_tie_breaker_counts_resource_cards_not_symbols():
    state = final_turn(3, seed=2)
    for seat in (ALICE, BOB, CHARLIE):
        empty_stock(state, seat)
    build(state, ALICE, [33])
    build(state, BOB, [35])  # both 4 points
    give(state, ALICE, ENERGY_DOUBLE[:2])  # 2 cards, 4 symbols
    give(state, BOB, pick(tier=1, resource="ecology")[:3])  # 3 cards, 3 symbols
    state["phase"], state["end"] = "over", "the market could not be refilled"
    result = ENGINE.result(state)
    assert result["scores"][:2] == [4, 4]
    assert result["winners"] == [BOB]


def test_the_ingenuity_token_counts_the_starting_card():
    state = new_game(2, seed=4)
    me = state["seats"][ALICE]
    assert me["stock"] == [FIRST_PLAYER_CARD]
    me["tokens"] = [INGENUITY_TOKEN]
    assert player_score(me)["tokens"] == [{"token": INGENUITY_TOKEN, "points": 2}]


# -- component data read from the fan port ------------------------------------------


def test_every_tier_two_and_three_resource_side_but_ingenuity_is_a_double():
    for card in CARDS.values():
        if card.tier >= 2:
            assert card.symbols == (1 if card.resource == "ingenuity" else 2), card


def test_a_producer_produces_its_resource_sides_type():
    producers = [c for c in CARDS.values() if c.building == "producer"]
    assert len(producers) == 100
    assert all(c.produces == c.resource for c in producers)
