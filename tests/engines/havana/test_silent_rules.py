"""Where the rules are silent or uncertain: one test per decision of the
README's table that no other test file already checks (the table names the
test of every row)."""

from __future__ import annotations

from games.engines.havana import ENGINE
from games.engines.havana.order import turn_order
from games.engines.havana.setup import new_game

from .helpers import PETER, SARAH, TOBIAS, VANESSA, act, give, start, table


def pesos_in_play(state) -> int:
    return state["centre"]["pesos"] + sum(seat["pesos"] for seat in state["seats"])


def end_all_turns(state):
    while state["phase"] == "actions":
        (seat,) = ENGINE.to_act(state)
        state = act(state, seat, ENGINE.timeout_action(state, seat))
    return state


def test_the_bank_is_unlimited_it_pays_beyond_the_108_printed_pesos():
    """The rules count 60 coins (36 x 1 + 24 x 3 = 108 pesos) among the
    components but have no rule for an empty bank; the engine never runs out."""
    state = table(2)
    give(state, VANESSA, pesos=100)
    give(state, SARAH, pesos=10)
    state["centre"]["pesos"] = 5
    state = start(state, {VANESSA: ["0", "3t"], SARAH: ["0", "2p"]}, order=[VANESSA, SARAH])
    assert pesos_in_play(state) == 115 > 108
    state = act(state, VANESSA, {"type": "tax", "take": {}})
    assert state["seats"][VANESSA]["pesos"] == 101  # the Tax Collector's peso from the bank
    state = end_all_turns(state)
    assert state["phase"] == "replace"
    assert state["centre"]["pesos"] == 5 + 3  # the resupply's 3 pesos
    assert pesos_in_play(state) == 119


def test_a_worker_played_on_an_empty_supply_does_not_make_its_player_the_first():
    """ "Take 2 workers (only if you are first to play this action)": the first
    who actually takes workers with it, not the first who played the card."""
    state = table(3, spec={101: {"vp": 1, "cost": {"workers": 2}}})
    state["rows"][0][0] = 101
    give(state, TOBIAS, workers=15)
    cards = {VANESSA: ["4w", "0"], TOBIAS: ["0", "2p"], SARAH: ["4w", "0"]}
    state = start(state, cards, order=[VANESSA, TOBIAS, SARAH])
    state = act(state, VANESSA, {"type": "worker"})
    assert state["seats"][VANESSA]["workers"] == 0  # the supply was empty
    state = act(state, VANESSA, {"type": "end"})
    state = act(state, TOBIAS, {"type": "buy", "building": 101, "pay": {"workers": 2}})
    assert state["workers"] == 2  # paid workers go back to the supply
    state = act(state, TOBIAS, {"type": "end"})
    state = act(state, SARAH, {"type": "worker"})
    assert state["seats"][SARAH]["workers"] == 2


def test_phase_three_cards_are_laid_by_everyone_at_once_not_in_turn_order():
    """The rules: "In same order as Phase 1, each player selects one card ...
    face-down"; a face-down choice gives nothing away, so all choose at once."""
    state = start(table(3), {}, order=[VANESSA, SARAH, TOBIAS])
    state = end_all_turns(state)
    assert state["phase"] == "replace"
    assert ENGINE.to_act(state) == {VANESSA, SARAH, TOBIAS}
    last = state["order"][-1]
    state = act(state, last, ENGINE.legal_actions(state, last)[0])
    assert ENGINE.to_act(state) == {VANESSA, SARAH, TOBIAS} - {last}
    assert state["seats"][last]["cards"] == ["0", "1"]  # face down until all have laid


def test_the_turn_order_is_fixed_when_phase_one_starts_and_a_purchase_does_not_change_it():
    """The tie-breaks (fewest VP, ...) are read once, as phase 1 begins."""
    state = table(2, spec={101: {"vp": 3, "cost": {"gray": 1}}})
    state["rows"][0][0] = 101
    state["seats"][SARAH]["vp"] = 1
    give(state, VANESSA, gray=1)
    state = start(state, {VANESSA: ["0", "1"], SARAH: ["0", "1"]})
    assert state["order"] == [VANESSA, SARAH]  # same number 01; Vanessa has fewer VP
    state = act(state, VANESSA, {"type": "skip", "card": "refreshment"})
    state = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    assert turn_order(state) == [SARAH, VANESSA]  # what the tie-break says now
    state = act(state, VANESSA, {"type": "end"})
    assert state["order"] == [VANESSA, SARAH]
    assert ENGINE.to_act(state) == {SARAH}


def test_a_thief_may_choose_a_victim_with_nothing_to_steal():
    state = table(4)
    give(state, TOBIAS, pesos=6)
    state = start(state, {VANESSA: ["5", "0"]}, order=[VANESSA, SARAH, TOBIAS, PETER])
    victims = {a["victim"] for a in ENGINE.legal_actions(state, VANESSA)}
    assert victims == {SARAH, TOBIAS, PETER}
    after = act(state, VANESSA, {"type": "steal_pesos", "victim": SARAH})
    assert [s["pesos"] for s in after["seats"]] == [0, 0, 6, 0]


def test_after_a_target_win_the_others_are_placed_by_vp_and_equal_vp_share_a_place():
    """The rules name only the winner; the others are ranked by VP."""
    state = table(4, spec={101: {"vp": 2, "cost": {"gray": 1}}})
    state["rows"][0][0] = 101
    for seat, vp in ((VANESSA, 13), (SARAH, 5), (TOBIAS, 5), (PETER, 7)):
        state["seats"][seat]["vp"] = vp
    give(state, VANESSA, gray=1)
    state = start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH, TOBIAS, PETER])
    after = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    result = ENGINE.result(after)
    assert result["ended_by"] == "target"
    assert result["places"] == [1, 3, 3, 2]


def test_the_setup_end_card_must_be_worth_1_to_3_vp_not_cost_1_to_3():
    """Rules §3: an end building "must have a cost of 1, 2, or 3"; the reviews
    (docs/sources/gamedata/havana.md) say worth 1, 2 or 3 VP.  Every card here costs
    1 cube, and only card 20 is worth 3 VP or less: it must lie at an end."""
    cards = {str(i): {"vp": 5, "cost": {"gray": 1}, "architect": False} for i in range(1, 37)}
    cards["20"] = {"vp": 2, "cost": {"red": 2, "blue": 2, "gray": 5}, "architect": False}
    for seed in range(20):
        state = new_game(2, {}, seed, buildings=cards)
        ends = [row[0] for row in state["rows"]] + [row[-1] for row in state["rows"]]
        assert 20 in ends
