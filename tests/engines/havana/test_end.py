"""Resupply (phase 2), the immediate end at the VP target, the exhausted end, result."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.havana import ENGINE

from .helpers import PETER, SARAH, TOBIAS, VANESSA, act, give, start, table


def end_all_turns(state):
    while state["phase"] == "actions":
        (seat,) = ENGINE.to_act(state)
        state = act(state, seat, ENGINE.timeout_action(state, seat))
    return state


def to_box(state, colour, n):
    for _ in range(n):
        state["bag"].remove(colour)
        state["removed"][colour] += 1


def test_resupply_adds_three_cubes_and_three_pesos_to_the_centre_every_round():
    state = start(table(2), {VANESSA: ["0", "2p"], SARAH: ["0", "2p"]})
    state["centre"]["pesos"] = 2
    bag = len(state["bag"])
    state = end_all_turns(state)
    assert state["phase"] == "replace"
    assert state["centre"]["pesos"] == 5
    assert sum(state["centre"]["cubes"].values()) == 3
    assert len(state["bag"]) == bag - 3


def test_resupply_draws_what_is_left_when_the_bag_runs_dry():
    state = start(table(2), {VANESSA: ["0", "2p"], SARAH: ["0", "2p"]})
    for colour in list(state["bag"][2:]):
        to_box(state, colour, 1)
    state = end_all_turns(state)
    assert sum(state["centre"]["cubes"].values()) == 2
    assert state["bag"] == []


@pytest.mark.parametrize(("players", "target"), [(2, 25), (3, 20), (4, 15)])
def test_the_game_ends_at_once_when_a_player_reaches_the_target(players, target):
    state = table(players, spec={101: {"vp": 2, "cost": {"gray": 1}}})
    state["rows"][0][0] = 101
    state["seats"][VANESSA]["vp"] = target - 2
    state["seats"][SARAH]["vp"] = target - 1
    give(state, VANESSA, gray=1)
    start(state, {VANESSA: ["0", "2p"]}, order=list(range(players)))
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    assert after["phase"] == "over"
    assert ENGINE.to_act(after) == set()
    assert ENGINE.legal_actions(after, SARAH) == []
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(after, SARAH, {"type": "end"})
    result = ENGINE.result(after)
    assert result["winners"] == [VANESSA]
    assert result["scores"][VANESSA] == target
    assert result["places"][:2] == [1, 2]
    assert result["ended_by"] == "target"
    assert result["breakdown"][VANESSA] == {"buildings": target}


def test_below_the_target_the_game_goes_on():
    state = table(4, spec={101: {"vp": 1, "cost": {"gray": 1}}})
    state["rows"][0][0] = 101
    state["seats"][VANESSA]["vp"] = 13
    give(state, VANESSA, gray=1)
    start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH, TOBIAS, PETER])
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    assert ENGINE.result(after) is None
    assert ENGINE.to_act(after) == {VANESSA}


def test_the_game_ends_when_the_last_building_is_gone_and_most_vp_wins():
    state = table(3, spec={101: {"vp": 3, "cost": {"gray": 1}}})
    state["rows"], state["pile"] = [[101], []], []
    state["seats"][SARAH]["vp"] = 2
    state["seats"][TOBIAS]["vp"] = 4
    give(state, VANESSA, gray=1)
    start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH, TOBIAS])
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    result = ENGINE.result(after)
    assert result["ended_by"] == "exhausted"
    assert result["winners"] == [TOBIAS]
    assert result["places"] == [2, 3, 1]
    assert result["scores"] == [3, 2, 4]


def test_equal_vp_share_the_win_when_the_buildings_run_out():
    state = table(2, spec={101: {"vp": 3, "cost": {"gray": 1}}})
    state["rows"], state["pile"] = [[101], []], []
    state["seats"][SARAH]["vp"] = 3
    give(state, VANESSA, gray=1)
    start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    result = ENGINE.result(after)
    assert result["winners"] == [VANESSA, SARAH]
    assert result["places"] == [1, 1]


def test_the_game_ends_when_no_remaining_building_can_ever_be_paid():
    spec = {101: {"vp": 1, "cost": {"gray": 1}}, 102: {"vp": 5, "cost": {"blue": 1}}}
    state = table(2, spec=spec)
    state["rows"], state["pile"] = [[101], [102]], []
    give(state, VANESSA, gray=1)
    to_box(state, "blue", 10)
    to_box(state, "gray", 35)  # 5 gray left in the game: one could still replace a blue
    start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    assert ENGINE.result(state) is None
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    result = ENGINE.result(after)  # 4 gray left, no blue: building 102 is out of reach
    assert result["ended_by"] == "exhausted"
    assert result["winners"] == [VANESSA]


def test_a_running_game_has_no_result():
    assert ENGINE.result(ENGINE.setup(2, {}, seed=1)) is None
