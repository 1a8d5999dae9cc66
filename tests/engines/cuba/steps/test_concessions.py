"""The concession draft (draft IV.2, VI.6), played through the engine after
the commissioners' auction."""

from __future__ import annotations

import pytest

from games.engines import typed
from games.engines.base import IllegalAction
from games.engines.cuba.data import variants
from games.engines.cuba.rules import cash, shares
from games.engines.cuba.state import CubaState

from ..opening import COSTS, ENGINE, money, new, play, through_auction, to_act


def draft(players=3, difficulty="easy", seed=1):
    return through_auction(new(players, difficulty, seed))


def test_the_draft_follows_the_auction_in_the_new_playing_order():
    state = draft()
    assert state["round"]["kind"] == "concessions"
    assert to_act(state) == state["order"][0]


@pytest.mark.parametrize(
    ("players", "difficulty", "turns"),
    [(2, "easy", 1), (2, "hard", 2), (2, "challenging", 3), (3, "easy", 1), (3, "hard", 2)]
    + [(n, None, 1) for n in (4, 5, 6)],
)
def test_each_player_in_turn_order_may_choose_per_turn_going_round_the_table(
    players, difficulty, turns
):
    state = draft(players, difficulty)
    order = list(state["order"])
    seen = []
    while state["round"]["kind"] == "concessions":
        seen.append(to_act(state))
        state = play(state, "pass")
    assert seen == order * turns
    assert state["round"]["kind"] == "stock"


def test_no_setup_gives_more_turns_than_there_are_concessions():
    for v in variants.VARIANTS:
        assert v.players * v.concessions_per_player <= len(COSTS), v.id


@pytest.mark.parametrize("card", sorted(COSTS))
def test_choosing_a_concession_pays_its_cost_to_the_bank(card):
    state = draft(6, None)
    seat = to_act(state)
    bank, have = state["cash"]["bank"], money(state, seat)
    state = play(state, f"choose {card}")
    assert state["privates"][card]["owner"] == cash.player(seat)
    assert money(state, seat) == have - COSTS[card]
    assert state["cash"]["bank"] == bank + COSTS[card]


def test_one_concession_per_turn():
    state = draft(2, "hard")
    first = to_act(state)
    state = play(state, "choose M1")
    assert to_act(state) != first
    assert ENGINE.legal_actions(state, first) == []


def test_a_player_may_choose_again_in_a_later_turn():
    state = draft(2, "challenging")
    order = list(state["order"])
    for card in ("M1", "M2", "M3", "M4"):
        state = play(state, f"choose {card}")
    owned = {c: p["owner"] for c, p in state["privates"].items() if c.startswith("M")}
    assert owned["M1"] == owned["M3"] == cash.player(order[0])
    assert owned["M2"] == owned["M4"] == cash.player(order[1])


def test_a_player_may_refuse_a_concession():
    state = draft()
    seat = to_act(state)
    have = money(state, seat)
    assert {"type": "pass"} in ENGINE.legal_actions(state, seat)
    state = play(state, "pass")
    assert money(state, seat) == have
    assert all(state["privates"][card]["owner"] is None for card in COSTS)


def test_a_player_may_not_choose_what_they_cannot_pay():
    state = draft()
    seat = to_act(state)
    state["cash"] = cash.transfer(
        state["cash"], cash.player(seat), cash.BANK, money(state, seat) - 170
    )
    legal = ENGINE.legal_actions(state, seat)
    assert {a.get("card") for a in legal if a["type"] == "choose"} == {"M1", "M2", "M3", "M4"}
    with pytest.raises(IllegalAction, match="M5 costs \\$180; you have \\$170"):
        play(state, "choose M5")


def test_a_chosen_concession_is_gone_for_the_others():
    state = play(draft(), "choose M2")
    assert {"type": "choose", "card": "M2"} not in ENGINE.legal_actions(state, to_act(state))
    with pytest.raises(IllegalAction, match="M2 has been chosen already"):
        play(state, "choose M2")


def test_m4_comes_with_a_10_percent_fc_share_from_the_fc_offering():
    state = draft()
    seat = to_act(state)
    state = play(state, "choose M4")
    certs = state["certificates"]
    assert shares.percent(certs, "FC", cash.player(seat)) == 10
    assert shares.percent(certs, "FC", shares.IPO) == 90
    # It is a share certificate like any other: it counts against the limit.
    assert shares.certificate_count(certs, seat) == 1


def test_unchosen_concessions_are_out_at_the_end_of_the_draft():
    state = draft()
    state = play(state, "choose M3")
    state = play(state, "pass")
    state = play(state, "choose M6")
    assert state["round"]["kind"] == "stock"
    out = {c for c, p in state["privates"].items() if p["out"]}
    assert out == {"M1", "M2", "M4", "M5"}
    assert not state["privates"]["M3"]["out"] and not state["privates"]["M6"]["out"]


def test_concessions_are_not_out_while_the_draft_runs():
    state = play(draft(2, "hard"), "pass")
    assert state["round"]["kind"] == "concessions"
    assert not any(p["out"] for p in state["privates"].values())


def test_choose_and_pass_lines():
    state = draft()
    seat = to_act(state)
    choose = {"type": "choose", "card": "M3"}
    assert ENGINE.text(choose) == "choose M3"
    assert ENGINE.parse("choose M3", state, seat) == choose
    assert ENGINE.parse("Choose m3", state, seat) == choose
    assert ENGINE.parse("pass", state, seat) == {"type": "pass"}
    with pytest.raises(IllegalAction, match="a choice reads"):
        ENGINE.parse("choose", state, seat)
    with pytest.raises(IllegalAction, match="there is no concession 'C1'"):
        play(state, "choose C1")


def test_money_is_conserved_and_the_state_stays_typed_through_the_opening():
    state = new(2, "challenging", seed=3)
    while state["round"]["kind"] in ("auction", "concessions"):
        seat = to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, legal[len(legal) // 2])
        assert cash.total(state["cash"]) == 8000
    assert state["round"]["kind"] == "stock"
    assert typed.problems(state, CubaState) == []
