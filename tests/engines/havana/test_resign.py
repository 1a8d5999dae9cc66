"""Our rule for a leaving player (the rules have none): the game goes on without them."""

from __future__ import annotations

import random

import pytest

from games.engines.base import canonical_json
from games.engines.havana import ENGINE

from .helpers import PETER, SARAH, TOBIAS, VANESSA, give, start, table
from .playout import check_invariants, pick


def test_a_two_player_game_cannot_go_on_without_one_of_them():
    assert ENGINE.resign(ENGINE.setup(2, {}, 1), SARAH) is None


def test_a_leaver_who_has_not_chosen_no_longer_holds_up_the_reveal():
    state = ENGINE.setup(3, {}, 1)
    state = ENGINE.apply(state, VANESSA, {"type": "choose", "cards": ["0", "7"]})
    state = ENGINE.apply(state, SARAH, {"type": "choose", "cards": ["1", "8"]})
    before = canonical_json(state)
    after = ENGINE.resign(state, TOBIAS)
    assert canonical_json(state) == before  # the given state is untouched
    assert after["phase"] == "actions"
    assert after["order"] == [VANESSA, SARAH]


def test_the_leaver_returns_cubes_to_the_box_and_workers_to_the_supply():
    state = table(3)
    give(state, TOBIAS, red=2, gray=1, workers=3, pesos=4)
    start(state, {}, order=[VANESSA, SARAH, TOBIAS])
    after = ENGINE.resign(state, TOBIAS)
    assert after["removed"]["red"] == 2 and after["removed"]["gray"] == 1
    assert after["workers"] == 15
    assert after["seats"][TOBIAS]["pesos"] == 0
    check_invariants(after)


def test_when_the_acting_player_leaves_the_next_player_acts():
    state = start(table(4), {}, order=[VANESSA, SARAH, TOBIAS, PETER], turn=SARAH)
    after = ENGINE.resign(state, SARAH)
    assert ENGINE.to_act(after) == {TOBIAS}


def test_a_leaver_is_no_longer_a_target_and_ranks_last():
    state = table(3)
    give(state, TOBIAS, pesos=6)
    start(state, {VANESSA: ["5", "0"]}, order=[VANESSA, SARAH, TOBIAS])
    after = ENGINE.resign(state, TOBIAS)
    assert {a["victim"] for a in ENGINE.legal_actions(after, VANESSA)} == {SARAH}
    after["seats"][TOBIAS]["vp"] = 9
    after["end"] = {"reason": "exhausted", "winners": [VANESSA]}
    # More VP than anyone, yet last: a leaver ranks below every player who stayed.
    assert ENGINE.result(after)["places"] == [1, 2, 3]


@pytest.mark.slow
def test_random_games_with_a_leaver_still_end_and_keep_the_invariants():
    for seed in range(30):
        rng = random.Random(seed)
        players = rng.choice([3, 4])
        state = ENGINE.setup(players, {}, seed)
        leave_at, steps = rng.randrange(200), 0
        while ENGINE.result(state) is None:
            if steps == leave_at:
                state = ENGINE.resign(state, rng.randrange(players)) or state
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            state = ENGINE.apply(state, seat, pick(rng, ENGINE.legal_actions(state, seat)))
            check_invariants(state)
            steps += 1
        assert ENGINE.result(state)["winners"]
