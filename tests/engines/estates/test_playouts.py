"""Seeded random games: never an error, always a result, The Estates'
invariants hold (the shared contract checks are in
tests/engines/test_contract.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.base import canonical_json
from games.engines.estates import ENGINE
from games.engines.estates.board import developed, requirement
from games.engines.estates.data import CUBE_VALUE, EDITIONS, MAX_REQ, MIN_REQ, SINGLE

from .helpers import random_game

# slow: whole random games.
pytestmark = pytest.mark.slow

EDITION_NAMES = sorted(EDITIONS)


def check_money(state):
    players = state["players"]
    assert sum(state["money"]) + sum(state["stash"]) == 12 * players
    assert min(state["money"]) >= 0
    assert min(state["stash"]) >= 0


def check_pieces(state):
    """Cubes and roofs are neither lost nor made; the board obeys the building rules."""
    setup = state["setups"][state["round"] - 1]
    on_board = [c for row in state["board"] for floors in row["floors"] for c in floors]
    in_display = [c for row in state["display"] for c in row]
    auction = state["auction"]
    moving = [auction["piece"]["cube"]] if auction and auction["piece"]["kind"] == "cube" else []
    all_cubes = on_board + in_display + moving
    assert Counter(all_cubes) == Counter(c for row in setup["display"] for c in row)
    roofs = [v for row in state["board"] for v in row["roofs"] if v is not None]
    if auction and auction["piece"]["kind"] == "roof":
        roofs.append(auction["piece"]["value"])
    roofs += state["roofs"] + [0] * state["blanks"]
    assert Counter(roofs) == Counter(setup["roofs"])
    for r, row in enumerate(state["board"]):
        req, built = requirement(row), developed(row)
        assert MIN_REQ <= req <= MAX_REQ
        assert built <= req
        assert not any(row["floors"][built:])
        for lot, floors in enumerate(row["floors"]):
            values = [CUBE_VALUE[c] for c in floors]
            assert values == sorted(values, reverse=True)
            assert len(set(values)) == len(values)
            assert not (SINGLE[r][lot] and len(floors) > 1)
            assert floors or row["roofs"][lot] is None
    placed = sorted(abs(c) for row in state["board"] for c in row["permits"])
    assert placed == sorted(
        int(n[-1]) for n, s in state["specials"].items() if n.startswith("permit") and s == "board"
    )


def check_result(state):
    result = ENGINE.result(state)
    assert result is not None
    rounds = state["round_results"]
    assert 1 <= len(rounds) <= state["rounds"]
    for seat in range(state["players"]):
        assert result["scores"][seat] == sum(r["scores"][seat] for r in rounds)
        parts = result["breakdown"][seat]
        assert parts["stash"] == sum(r["stash"][seat] for r in rounds)
        assert sum(parts.values()) == result["scores"][seat]
    for scored in rounds:
        rows = sum(r["total"] for r in scored["rows"])
        unowned = [b for r in scored["rows"] for b in r["buildings"] if b["owner"] is None]
        # The top floor's colour was placed by someone, so its certificate is
        # held -- unless the house placed it for a player who left.
        assert not unowned or state["resigned"]
        assert sum(scored["buildings"]) == rows - sum(b["points"] for b in unowned)
    stayed = [s for s in range(state["players"]) if s not in state["resigned"]]
    assert set(result["winners"]) <= set(stayed)
    if len(rounds) < state["rounds"] and result["ended_by"] != "resignation":
        assert result["ended_by"] == "two_round_wins"
        assert all(state["wins"][s] >= 2 for s in result["winners"])


@pytest.mark.parametrize("edition", EDITION_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_with_a_result_and_keep_money_and_pieces(players, edition):
    # 30 games per player count and edition: 240 games, one to three rounds each.
    for seed in range(30):
        rounds = 1 + seed % 3
        for state, seat, _legal, _action in random_game(players, seed, edition, rounds):
            check_money(state)
            check_pieces(state)
            if seat is None:
                check_result(state)


def leaked(state, seat) -> bool:
    """Does anything about another seat's cheques or stash reach this view?"""
    other = {**state, "money": list(state["money"]), "stash": list(state["stash"])}
    for o in range(state["players"]):
        if o != seat:
            other["money"][o] += 5
            other["stash"][o] += 4
    other["roofs"] = list(reversed(state["roofs"]))
    other["setups"] = list(reversed(state["setups"]))
    return canonical_json(ENGINE.view(state, seat)) != canonical_json(ENGINE.view(other, seat))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_seat_ever_sees_another_seats_cheques_stash_or_the_roof_order(players):
    for state, seat, _legal, _action in random_game(players, 40 + players, rounds=2):
        if seat is None:
            break
        for viewer in [None, *range(players)]:
            assert not leaked(state, viewer)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_timeouts_alone_finish_the_game_and_never_stash(players):
    state = ENGINE.setup(players, {"rounds": 2}, players)
    steps = 0
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        action = ENGINE.timeout_action(state, seat)
        assert "stash" not in action
        state = ENGINE.apply(state, seat, action)
        steps += 1
        assert steps < 5000
    check_result(state)


def test_timeout_passes_bids_gives_and_places_first():
    for state, seat, legal, _action in random_game(3, 5):
        if seat is None:
            break
        expected = {"bid": {"type": "pass"}, "resolve": {"type": "give"}}.get(state["phase"])
        action = ENGINE.timeout_action(state, seat)
        if expected:
            assert action == expected
        else:
            assert action == legal[0]
            assert action.get("type") != "discard" or len(legal) == 1


def rescore(state) -> list[int]:
    """Score the final board independently of scoring.py, from the rules text."""
    scores = list(state["stash"])
    for r, row in enumerate(state["board"]):
        limit = 4 + sum(row["permits"])
        lots = list(zip(row["floors"], row["roofs"], strict=True))
        complete = all(floors and roof is not None for floors, roof in lots[:limit])
        for floors, roof in lots:
            if not floors:
                continue
            value = sum(int(c.rsplit("-", 1)[1]) for c in floors) + (roof or 0)
            value *= (1 if complete else -1) * (2 if state["mayor"] == r else 1)
            owner = state["certificates"][floors[-1].rsplit("-", 1)[0]]
            scores[owner] += value
    return scores


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_final_scores_match_an_independent_count_of_the_board(edition):
    for seed in range(40):
        *_, (state, _, _, _) = random_game(2 + seed % 4, 500 + seed, edition)
        assert ENGINE.result(state)["scores"] == rescore(state)
