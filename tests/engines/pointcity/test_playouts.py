"""Random legal playouts: never an error, 17 turns each, 14 cards left, every
card conserved, no hidden information in any view (the shared contract checks
are in tests/engines/test_contract.py)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import TOTAL_CARDS
from games.engines.pointcity.market import NAMES, PAIRS

from .helpers import all_cards, random_game, seat_to_act
from .test_view import scramble_hidden, views

# slow: whole random games.
pytestmark = pytest.mark.slow

GAMES_PER_COUNT = 60
CHECKED_CLOSELY = 6  # games per count with every check at every step


def check_end(state, players):
    result = ENGINE.result(state)
    assert result is not None
    assert sorted(all_cards(state)) == list(range(1, TOTAL_CARDS + 1))
    turns = [p["turns"] for p in state["seats"]]
    if state["bot"] is not None:
        turns.append(state["bot"]["turns"])
    assert turns == [17] * max(players, 2)
    left = sum(slot is not None for slot in state["market"])
    if result["ended_by"] == "no_draft":
        assert left == 16
    else:
        assert left == 14
    assert state["pile"] == []
    assert result["ended_by"] in ("pile_exhausted", "no_draft")
    for seat, player in enumerate(state["seats"]):
        tokens = [f"civic token {t}" for t in player["tokens"]]
        assert list(result["breakdown"][seat]) == ["buildings", *tokens]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_after_17_turns_each_with_14_cards_left(players):
    for seed in range(GAMES_PER_COUNT):
        check_end(random_game(players, seed * 10 + players), players)


def close_checks(state, seat, action):
    """Every step: views keep secrets, every card is somewhere."""
    legal = ENGINE.legal_actions(state, seat)
    assert views(scramble_hidden(state, len(legal))) == views(state)
    assert sorted(all_cards(state)) == list(range(1, TOTAL_CARDS + 1))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_step_of_some_games_keeps_secrets_and_cards(players):
    for seed in range(CHECKED_CLOSELY):
        check_end(random_game(players, 1000 + seed, step=close_checks), players)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_games_played_by_timeouts_alone_finish(players):
    for seed in range(5):
        state = ENGINE.setup(players, {}, seed)
        while ENGINE.result(state) is None:
            seat = seat_to_act(state)
            state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))
        check_end(state, players)


def probes(state, legal):
    """Many plausible actions, legal or not, for the accept-iff-listed check."""
    pays = {tuple(a["pay"]) for a in legal if a["type"] == "take"} | {(), ("ingenuity",)}
    found = [{"type": "draw"}, {"type": "pass"}]
    found += [{"type": "flip", "space": name} for name in NAMES]
    found += [{"type": "civic", "token": t} for t in range(1, 23)]
    for a, b in [*PAIRS, (0, 5), (0, 2)]:
        found += [{"type": "take", "spaces": [NAMES[a], NAMES[b]], "pay": list(p)} for p in pays]
    return found


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_apply_accepts_exactly_the_listed_actions(players):
    def check(state, seat, action):
        legal = ENGINE.legal_actions(state, seat)
        for probe in probes(state, legal):
            try:
                ENGINE.apply(state, seat, probe)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (probe in legal), probe

    random_game(players, 500 + players, step=check)


@pytest.mark.parametrize("players", [3, 4])
def test_games_with_a_player_leaving_midway_still_finish_cleanly(players):
    for seed in range(10):
        rng = random.Random(seed)
        state = ENGINE.setup(players, {}, seed)
        leaver, leave_at = rng.randrange(players), rng.randrange(10, 40)
        steps = 0
        while ENGINE.result(state) is None:
            if steps == leave_at:
                state = ENGINE.resign(state, leaver)
                leave_at = -1
                continue
            seat = seat_to_act(state)
            assert seat != leaver or leave_at >= 0
            state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            steps += 1
        result = ENGINE.result(state)
        assert leaver not in result["winners"] and result["places"][leaver] == players
        assert sorted(all_cards(state)) == list(range(1, TOTAL_CARDS + 1))
