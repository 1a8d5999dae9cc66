"""The operating round's train step (draft VII.3.9-10), machines (VII.3.11)
and the phase changes a purchase starts (VII.3.14), played through the
engine from a company's buy step.

Positions: a 2-player hard game through its first stock round (p1 directs
HG and MS, p0 directs JU; `base_game`), edited by hand into an operating
round whose company has decided its income (`at_buy_step`)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.data import market
from games.engines.cuba.rounds import flow, operating
from games.engines.cuba.rules import cash, rolling_stock, shares, turn
from tests.engines.cuba.stockgame import give, start_major
from tests.engines.cuba.test_engine import ENGINE, through_first_stock_round

_BASE: dict = {}


def base_game():
    """After the first stock round: HG (p1) and JU (p0) minors, MS parred."""
    if not _BASE:
        state, _, _ = through_first_stock_round()
        # as after the first set of ORs: the first 2-train exported (phase 2)
        if not state["fc_trains"]:
            rolling_stock.export_to_fc(state)
        _BASE["state"] = state
    return ENGINE.copy_state(_BASE["state"])


def float_major(state, sym, seat, money, par=100, extra=0):
    """`sym` floated and directed by `seat` (20% + `extra` shares), the rest
    in its treasury, `money` in its treasury."""
    if shares.director(state["certificates"], sym) is None:
        give(state, sym, seat, 20)
    for _ in range(extra):
        give(state, sym, seat, 10)
    start_major(state, sym, par)
    state["certificates"] = shares.charter(state["certificates"], sym)
    set_cash(state, sym, money)


def set_cash(state, account, money):
    if account not in state["cash"]:
        state["cash"] = cash.open_account(state["cash"], account)
    state["cash"] = cash.transfer(state["cash"], account, cash.BANK, state["cash"][account])
    state["cash"] = cash.transfer(state["cash"], cash.BANK, account, money)


def at_buy_step(state, sym, *, phase=None, queue=("JU",)):
    """The operating round with `sym` at its buy step: its income decided
    (`paid`), later companies in `queue` still to operate."""
    if phase is not None:
        state["phase"] = phase
    state["round"] = flow.new_round("operating", 2)
    record = turn.new_turn(sym)
    record["stage"] = "dividend"
    record["paid"] = "retain"
    queue = [q for q in queue if q != sym]
    state["round"]["steps"] = {
        "operating": {"queue": queue, "done": [], "fc": None},
        turn.TURN: record,
    }
    state["round"]["entity"] = sym
    return state


def seat_of(state, sym):
    return turn.director_seat(state, sym)


def legal(state, sym=None):
    [seat] = ENGINE.to_act(state)
    return ENGINE.legal_actions(state, seat)


def act(state, action):
    """The seat to act plays `action`, which must be legal: listed, or an
    offer at a price between the listed ones."""
    [seat] = ENGINE.to_act(state)
    listed = ENGINE.legal_actions(state, seat)
    assert action in listed or ENGINE.candidates(state, seat, action) == [action], (action, listed)
    return ENGINE.apply(state, seat, action)


def line(state, text):
    [seat] = ENGINE.to_act(state)
    return ENGINE.apply(state, seat, ENGINE.parse(text, state, seat))


def refused(state, action, words=""):
    [seat] = ENGINE.to_act(state)
    with pytest.raises(IllegalAction) as exc:
        ENGINE.apply(state, seat, action)
    assert words in exc.value.message, exc.value.message


def buy(card, source="depot", price=None):
    price = rolling_stock.value(card) if price is None else price
    return {"type": "buy_train", "card": card, "source": source, "price": price}


def kinds(actions):
    return {a["type"] for a in actions}


@pytest.fixture
def ms():
    """MS (p1) at its buy step in phase 2 with $1,000 and no train."""
    state = base_game()
    float_major(state, "MS", 1, 1000)
    return at_buy_step(state, "MS")


# --- VII.3.9 ------------------------------------------------------------------


def test_vii39_standard_trains_are_bought_in_ascending_order(ms):
    assert [a["card"] for a in legal(ms) if a["type"] == "buy_train"] == ["2"]
    refused(ms, buy("3"), "ascending order")
    ms["depot"]["2"] = 0
    cards = [a["card"] for a in legal(ms) if a["type"] == "buy_train"]
    assert cards == ["3", "3+"]
    after = act(ms, buy("3+"))
    assert after["companies"]["MS"]["trains"] == ["3+"]
    assert after["phase"] == 3  # the first 3 starts phase 3 (VII.3.14)


def test_vii39_a_company_without_a_train_must_buy_one(ms):
    actions = legal(ms)
    assert {"type": "pass"} not in actions
    # its money goes to a train first, not to a wagon
    assert all(rolling_stock.is_train(a["card"]) for a in actions if a["type"] == "buy_train")
    refused(ms, {"type": "pass"}, "first buy trains")
    after = act(ms, buy("2"))
    assert {"type": "pass"} in legal(after)
    assert buy("1-wagon") in legal(after)


def test_vii39_a_company_without_a_train_passes_when_none_is_for_sale(ms):
    ms["depot"] = dict.fromkeys(ms["depot"], 0)
    assert legal(ms) == [{"type": "pass"}]


def test_vii39_several_purchases_in_one_turn(ms):
    after = act(ms, buy("2"))
    after = act(after, buy("2"))
    after = act(after, buy("1-wagon"))
    assert after["companies"]["MS"]["trains"] == ["2", "2"]
    assert after["companies"]["MS"]["wagons"] == ["1-wagon"]
    assert after["cash"]["MS"] == 1000 - 240
    after = act(after, {"type": "pass"})
    assert turn.company(after) != "MS"


def test_vii39_legal_lists_only_what_the_company_can_pay(ms):
    set_cash(ms, "MS", 150)
    after = act(ms, buy("2"))
    assert buy("2") not in legal(after)  # $50 left
    refused(after, buy("2"), "costs $100")
    assert [a for a in legal(after) if a["type"] == "buy_train"] == [buy("1-wagon")]


def test_vii39_the_pool_sells_at_face_value_and_starts_no_phase(ms):
    ms["pool"] = ["3"]
    after = act(ms, buy("3", "pool"))
    assert after["companies"]["MS"]["trains"] == ["3"]
    assert after["pool"] == [] and after["phase"] == 2
    assert after["cash"]["MS"] == 800


def test_vii39_the_train_limit_is_checked_before_the_sale(ms):
    ms["companies"]["MS"]["trains"] = ["2", "2", "2", "2"]
    assert not [a for a in legal(ms) if a["type"] == "buy_train" and a["card"] == "2"]
    refused(ms, buy("2"), "limit")


def test_vii39_minors_buy_only_n_trains():
    state = at_buy_step(base_game(), "HG")
    set_cash(state, "HG", 500)
    cards = {a["card"] for a in legal(state) if a["type"] == "buy_train"}
    assert cards == {"2n"}
    refused(state, buy("2"), "n-trains")
    state["pool"] = ["2", "2n"]
    cards = [(a["card"], a["source"]) for a in legal(state) if a["type"] == "buy_train"]
    assert ("2n", "pool") in cards and ("2", "pool") not in cards


def test_vii39_trains_between_companies_only_after_the_first_3_train():
    state = base_game()
    float_major(state, "MS", 1, 500)
    float_major(state, "Oe", 0, 300)
    state["companies"]["Oe"]["trains"] = ["3", "2"]
    state["companies"]["MS"]["trains"] = ["2"]
    state = at_buy_step(state, "MS", phase=2)
    assert "offer" not in kinds(legal(state))
    refused(state, {"type": "offer", "from": "Oe", "card": "3", "price": 150}, "first 3-train")
    state["phase"] = 3
    offer = {"type": "offer", "from": "Oe", "card": "3", "price": 150}
    offers = [a for a in legal(state) if a["type"] == "offer" and a["card"] == "3"]
    # listed: $1, half and full face value, all its money; any whole price between is legal
    assert {a["price"] for a in offers} == {1, 100, 200, 500}
    assert ENGINE.candidates(state, 1, offer) == [offer]
    refused(state, {**offer, "price": 0}, "at least $1")
    refused(state, {**offer, "price": 501}, "MS has $500")
    refused(state, {**offer, "from": "HG"}, "one kind")
    asked = act(state, offer)
    assert ENGINE.to_act(asked) == {seat_of(state, "Oe")} == {0}
    assert legal(asked) == [{"type": "accept"}, {"type": "refuse"}]
    with pytest.raises(IllegalAction):
        ENGINE.apply(asked, 1, {"type": "accept"})  # not the seller's director
    sold = act(asked, {"type": "accept"})
    assert sold["companies"]["MS"]["trains"] == ["2", "3"]
    assert sold["companies"]["Oe"]["trains"] == ["2"]
    assert (sold["cash"]["MS"], sold["cash"]["Oe"]) == (350, 450)
    assert ENGINE.to_act(sold) == {1} and turn.company(sold) == "MS"
    # a refusal: the turn goes on with the buyer, and that offer is not made again
    no = act(asked, {"type": "refuse"})
    assert no["companies"]["MS"]["trains"] == ["2"] and ENGINE.to_act(no) == {1}
    assert not [a for a in legal(no) if a["type"] == "offer" and a["card"] == "3"]


def test_vii39_wagons_between_majors_only_at_face_value():
    state = base_game()
    float_major(state, "MS", 1, 500)
    float_major(state, "Oe", 0, 300)
    state["companies"]["Oe"]["wagons"] = ["1-wagon"]
    state["companies"]["MS"]["trains"] = ["3"]
    state = at_buy_step(state, "MS", phase=3)
    wagon_offers = [a for a in legal(state) if a["type"] == "offer" and a["card"] == "1-wagon"]
    assert wagon_offers == [{"type": "offer", "from": "Oe", "card": "1-wagon", "price": 40}]
    refused(state, {"type": "offer", "from": "Oe", "card": "1-wagon", "price": 30}, "face value")


def test_vii39_n_train_trade_in_once_per_or():
    state = base_game()
    state["companies"]["HG"]["trains"] = ["2n", "2n"]
    set_cash(state, "HG", 400)
    state = at_buy_step(state, "HG", phase=3)
    trade = {"type": "trade", "card": "2n", "price": 140}  # the draft's $180 - $40
    assert trade in legal(state)
    after = act(state, trade)
    assert sorted(after["companies"]["HG"]["trains"]) == ["2n", "3n"]
    assert after["cash"]["HG"] == 260
    assert "trade" not in kinds(legal(after))
    refused(after, trade, "already")


def test_vii39_the_forced_train_may_come_from_another_company_with_the_companys_own_money():
    state = base_game()
    float_major(state, "MS", 1, 60)
    float_major(state, "Oe", 0, 300)
    state["companies"]["Oe"]["trains"] = ["3", "3"]
    state = at_buy_step(state, "MS", phase=3)
    state["depot"]["2"] = 0
    offers = [a for a in legal(state) if a["type"] == "offer"]
    assert {a["price"] for a in offers} == {1, 60}
    asked = act(state, {"type": "offer", "from": "Oe", "card": "3", "price": 60})
    done = act(asked, {"type": "accept"})
    assert done["companies"]["MS"]["trains"] == ["3"]
    # MS owns a train and has no money left: its turn ended by itself
    assert "MS" in done["round"]["steps"]["operating"]["done"]


# --- VII.3.10 -----------------------------------------------------------------


def test_vii310_emergency_financing_director_cash_then_shares():
    state = base_game()
    float_major(state, "MS", 1, 30)  # 7 shares in its treasury, price 100
    state["depot"]["2"] = 0  # the 3 at $200 is the cheapest train
    state = at_buy_step(state, "MS")
    set_cash(state, "p1", 50)
    actions = legal(state)
    assert {"type": "contribute", "amount": 50} in actions
    assert {"type": "emergency_issue"} in actions
    assert "emergency_sell" not in kinds(actions)  # not while cash and shares remain
    assert "buy_train" not in kinds(actions)
    refused(state, {"type": "contribute", "amount": 20}, "pays in $50")
    cell = state["companies"]["MS"]["price"]
    state = act(state, {"type": "contribute", "amount": 50})
    # what follows is forced, so the round plays it: with the director's cash
    # spent, the company issues shares (each like a sale: the price, then one
    # cell down) until it can pay, then buys the cheapest train, the 3, not
    # the 3+ it could now pay too
    first, second = (market.CELLS[market.down(cell, n)].price for n in (0, 1))
    assert state["cash"]["p1"] == 0
    assert state["certificates"]["MS"]["pool"] == [10, 10]
    assert state["companies"]["MS"]["price"] == market.down(cell, 2)
    assert state["companies"]["MS"]["trains"] == ["3"]
    assert state["cash"]["MS"] == 30 + 50 + first + second - 200


def test_vii310_the_director_sells_only_when_cash_and_issues_are_spent():
    state = base_game()
    float_major(state, "MS", 1, 0)
    state["certificates"]["MS"]["pool"] = state["certificates"]["MS"].pop("treasury")
    state["certificates"]["MS"]["pool"] = [10] * 5
    state["certificates"]["MS"]["ipo"] = [10, 10]
    state["depot"]["2"] = 0
    state["companies"]["JU"]["operated"] = True
    give(state, "JU", 1, 20, source="treasury")  # p1 holds 20% of JU (p0 directs it)
    state = at_buy_step(state, "MS")
    set_cash(state, "p1", 0)
    actions = legal(state)
    assert kinds(actions) == {"emergency_sell"}
    sells = {(a["company"], a["count"]) for a in actions}
    assert ("JU", 1) in sells


def test_vii310_forced_sales_never_change_a_presidency():
    state = base_game()
    float_major(state, "MS", 1, 0, extra=2)  # p1: 40% of MS
    float_major(state, "Oe", 0, 0, extra=2)  # p0: 40% of Oe
    give(state, "Oe", 1, 10, 10, 10, source="treasury")  # p1: 30% of Oe
    give(state, "MS", 0, 10, 10, 10, source="treasury")  # p0: 30% of MS
    for sym in ("MS", "Oe"):
        treasury = state["certificates"][sym].pop("treasury", [])
        state["certificates"][sym]["ipo"] = treasury
    state["depot"]["2"] = 0
    state = at_buy_step(state, "MS")
    set_cash(state, "p1", 0)
    sells = {(a["company"], a["count"]) for a in legal(state) if a["type"] == "emergency_sell"}
    # MS: selling 2 of p1's 40% would leave p0's 30% above p1's 20%
    assert ("MS", 1) in sells and ("MS", 2) not in sells
    assert ("Oe", 1) in sells and ("Oe", 2) in sells
    refused(state, {"type": "emergency_sell", "company": "MS", "count": 2}, "director")
    # the deficit is $200: two Oe shares at $100 cover it, a third is not sold
    assert ("Oe", 3) not in sells
    after = act(state, {"type": "emergency_sell", "company": "Oe", "count": 2})
    assert shares.director(after["certificates"], "Oe") == "p0"
    # then forced: the director pays the $200 in and the company buys the 3
    assert after["cash"]["p1"] == 0
    assert after["companies"]["MS"]["trains"] == ["3"]


def test_vii312_a_director_sells_fc_shares_in_emergency_financing_once_the_fc_has_operated():
    """VII.3.10's forced sales follow every rule of a sale (VI.4): FC shares
    may be sold once the FC has operated, and its own run counts
    (VII.3.12). A director holding them is not bankrupt."""
    state = base_game()
    float_major(state, "MS", 1, 0)
    state["certificates"]["MS"]["ipo"] = state["certificates"]["MS"].pop("treasury")
    state["certificates"]["HG"]["ipo"] = state["certificates"]["HG"].pop("treasury")
    give(state, "HG", 0, 20, source="p1")  # p1 keeps only the director's 40% of HG
    give(state, "FC", 1, 10, 10, 10, 10, 10)
    state["depot"]["2"] = 0  # the cheapest train is a 3 at $200
    operating.operate_fc(state)  # the FC's run in an earlier OR
    state = at_buy_step(state, "MS")
    set_cash(state, "p1", 0)
    price = market.CELLS[state["companies"]["FC"]["price"]].price
    need = -(-200 // price)  # the fewest FC shares that raise $200
    sells = {(a["company"], a["count"]) for a in legal(state) if a["type"] == "emergency_sell"}
    assert ("FC", need) in sells and {"type": "bankrupt"} not in legal(state)
    after = act(state, {"type": "emergency_sell", "company": "FC", "count": need})
    assert after["end"] is None
    assert after["companies"]["FC"]["price"] == state["companies"]["FC"]["price"]
    assert after["certificates"]["FC"]["pool"] == [10] * need
    assert after["companies"]["MS"]["trains"] == ["3"]


def test_vii310_a_director_who_cannot_raise_the_money_is_bankrupt_and_the_game_ends():
    state = base_game()
    float_major(state, "MS", 1, 0)
    state["certificates"]["MS"]["ipo"] = state["certificates"]["MS"].pop("treasury")
    state["certificates"]["HG"]["ipo"] = state["certificates"]["HG"].pop("treasury")
    give(state, "HG", 0, 20, source="p1")  # p1 keeps only the director's 40% of HG
    state["depot"]["2"] = 0
    state = at_buy_step(state, "MS")
    set_cash(state, "p1", 0)
    assert legal(state) == [{"type": "bankrupt"}]
    assert ENGINE.timeout_action(state, 1) == {"type": "bankrupt"}
    over = line(state, "bankrupt")
    assert over["end"] == {"reason": "bankruptcy", "bankrupt": 1}
    assert ENGINE.result(over) is not None and ENGINE.to_act(over) == set()


def test_vii310_bankruptcy_ends_the_game_at_once_and_the_bankrupt_player_ranks_last():
    """The draft's passage after VII.3.10's forced sales is missing; the
    18xx convention the published implementation keeps: the game ends at
    once. A bankrupt player never wins: they rank last, even with the most
    wealth, and the others by their wealth (IX.2)."""
    state = base_game()
    float_major(state, "MS", 1, 0)
    state["certificates"]["MS"]["ipo"] = state["certificates"]["MS"].pop("treasury")
    state["certificates"]["HG"]["ipo"] = state["certificates"]["HG"].pop("treasury")
    give(state, "HG", 0, 20, source="p1")  # p1 keeps only the director's 40% of HG
    give(state, "FC", 1, 10, 10)  # not for sale: the FC has not operated yet
    state["depot"]["2"] = 0
    state = at_buy_step(state, "MS")
    set_cash(state, "p1", 0)
    set_cash(state, "p0", 0)
    assert legal(state) == [{"type": "bankrupt"}]
    over = act(state, {"type": "bankrupt"})
    assert over["end"] == {"reason": "bankruptcy", "bankrupt": 1}
    assert ENGINE.to_act(over) == set() and ENGINE.is_over(over)
    result = ENGINE.result(over)
    assert result["scores"][1] > result["scores"][0]  # the richer player...
    assert result["places"] == [1, 2] and result["winners"] == [0]  # ...is last
    assert result["ended_by"] == "bankruptcy"
    said = "\n".join(ENGINE.describe(ENGINE.view(over, 0), 0, ["ann", "bob"]))
    assert "bob went bankrupt and ranks last" in said


# --- VII.3.14, the phase table ------------------------------------------------


def test_phase4_rusts_2_and_2n_trains():
    state = base_game()
    float_major(state, "MS", 1, 1000)
    float_major(state, "Oe", 0, 300)
    state["companies"]["MS"]["trains"] = ["3"]
    state["companies"]["Oe"]["trains"] = ["2"]
    state["companies"]["JU"]["trains"] = ["2n"]
    state["pool"] = ["2"]
    state["depot"].update({"2": 0, "3": 0})
    state = at_buy_step(state, "MS", phase=3, queue=("Oe",))
    after = act(state, buy("4"))
    assert after["phase"] == 4
    assert after["companies"]["Oe"]["trains"] == []
    assert after["companies"]["JU"]["trains"] == []
    assert after["pool"] == []
    # the major that lost its last train must buy one in its next turn
    after = act(after, {"type": "pass"})
    assert turn.company(after) == "Oe"
    record = turn.current(after)
    record["stage"], record["paid"] = "dividend", "retain"  # Oe ran for nothing
    assert {"type": "pass"} not in legal(after)
    assert buy("4") in legal(after)


def test_vii39_surplus_trains_after_a_phase_change_are_the_directors_choice(ms):
    """VII.3.9: "Trains that are surplus as the result of a phase change go
    into the bank pool"; which ones is the director's choice (a step of its
    own, before anything else), the cheapest when the clock runs out."""
    ms["companies"]["MS"]["trains"] = ["4", "4+"]
    ms["phase"] = 4
    ms["depot"].update({"2": 0, "3": 0, "4": 0})
    float_major(ms, "Oe", 0, 0)
    ms["companies"]["Oe"]["trains"] = ["4", "4", "4"]
    after = act(ms, buy("5"))
    assert after["phase"] == 5
    # Oe (printed before MS) is over the new limit of two, but giving up one
    # of three equal 4s is no choice: the round does it; then MS's director
    assert after["companies"]["Oe"]["trains"] == ["4", "4"] and after["pool"] == ["4"]
    assert ENGINE.to_act(after) == {1}
    assert legal(after) == [
        {"type": "discard", "company": "MS", "card": "4"},
        {"type": "discard", "company": "MS", "card": "4+"},
        {"type": "discard", "company": "MS", "card": "5"},
    ]
    assert ENGINE.timeout_action(after, 1) == {"type": "discard", "company": "MS", "card": "4"}
    refused(after, {"type": "pass"}, "first discard surplus trains")
    refused(after, {"type": "discard", "company": "MS", "card": "3"}, "no surplus")
    after = line(after, "discard 4+")
    assert after["companies"]["MS"]["trains"] == ["4", "5"]
    assert after["pool"] == ["4", "4+"]
    # MS's turn goes on where it was: its director may pass
    assert turn.company(after) == "MS" and ENGINE.to_act(after) == {1}
    assert {"type": "pass"} in legal(after)


# --- VII.3.11 -----------------------------------------------------------------


def test_vii311_at_most_three_machines_per_minor():
    state = base_game()
    state["companies"]["HG"]["trains"] = ["2n"]
    set_cash(state, "HG", 500)
    state = at_buy_step(state, "HG", phase=3)
    assert {"type": "buy_machine", "generation": 1} in legal(state)
    assert {"type": "buy_machine", "generation": 2} in legal(state)
    assert {"type": "buy_machine", "generation": 3} not in legal(state)  # phase 5
    state = line(state, "machine 1")
    state = line(state, "machine 2")
    state = line(state, "machine 1")
    assert state["companies"]["HG"]["machines"] == [1, 2, 1]
    assert state["cash"]["HG"] == 500 - 25 - 45 - 25
    assert turn.company(state) != "HG"  # nothing left but to end the turn
    full = at_buy_step(state, "HG", phase=3)
    assert "buy_machine" not in kinds(legal(full))
    refused(full, {"type": "buy_machine", "generation": 1}, "3 machines")


def test_vii311_machines_are_bought_after_trains():
    state = base_game()
    state["companies"]["HG"]["trains"] = ["2n"]
    set_cash(state, "HG", 500)
    state = at_buy_step(state, "HG", phase=3)
    state = line(state, "machine 1")
    assert "buy_train" not in kinds(legal(state))
    refused(state, buy("2n", price=80), "not possible")


def test_vii311_majors_buy_no_machines(ms):
    assert "buy_machine" not in kinds(legal(ms))
    refused(ms, {"type": "buy_machine", "generation": 1})


# --- lines and bad input ------------------------------------------------------


def positions():
    state = base_game()
    float_major(state, "MS", 1, 700)
    float_major(state, "Oe", 0, 300)
    state["companies"]["Oe"]["trains"] = ["3", "3+"]
    state["companies"]["Oe"]["wagons"] = ["1-wagon"]
    state["companies"]["MS"]["trains"] = ["3"]
    state["pool"] = ["3", "2n", "3-1n"]
    yield at_buy_step(ENGINE.copy_state(state), "MS", phase=3)
    hg = at_buy_step(ENGINE.copy_state(state), "HG", phase=3)
    hg["companies"]["HG"]["trains"] = ["2n"]
    set_cash(hg, "HG", 300)
    yield hg
    broke = at_buy_step(ENGINE.copy_state(state), "MS", phase=3)
    broke["companies"]["MS"]["trains"] = []
    broke["depot"]["2"] = 0
    set_cash(broke, "MS", 10)
    yield broke
    asked = at_buy_step(ENGINE.copy_state(state), "MS", phase=3)
    yield act(asked, {"type": "offer", "from": "Oe", "card": "3+", "price": 99})


def test_every_legal_move_has_a_line_that_parses_back_to_it():
    seen = set()
    for state in positions():
        [seat] = ENGINE.to_act(state)
        for action in ENGINE.legal_actions(state, seat):
            seen.add(action["type"])
            assert ENGINE.parse(ENGINE.text(action), state, seat) == action
    assert seen >= {
        "buy_train",
        "trade",
        "offer",
        "accept",
        "refuse",
        "contribute",
        "emergency_issue",
        "buy_machine",
        "pass",
    }


def test_bad_input_is_refused_with_a_sentence(ms):
    for action in (
        {"type": "buy_train", "card": ["3"], "source": "depot", "price": 200},
        {"type": "buy_train", "card": "9", "source": "depot", "price": 1},
        {"type": "buy_train", "card": "2", "source": "attic", "price": 100},
        {"type": "buy_train", "card": "2", "source": "depot", "price": -5},
        {"type": "buy_train", "card": "2", "source": "depot"},
        {"type": "offer", "from": None, "card": "3", "price": 1},
        {"type": "offer", "from": "Oe", "card": {}, "price": "x"},
        {"type": "trade", "card": None, "price": 0},
        {"type": "contribute", "amount": -1},
        {"type": "emergency_sell", "company": [], "count": "2"},
        {"type": "accept"},
        {"type": "bankrupt"},
        {"type": "buy_machine", "generation": True},
    ):
        refused(ms, action)
    bad = ("buy nine", "buy 2 attic", "offer MS 3 x", "trade 9", "trade 1-wagon", "machine x")
    for text in bad:
        with pytest.raises(IllegalAction):
            ENGINE.parse(text, ms, 1)


# --- random games through the buy step ---------------------------------------------


def _income_decided_at_once(monkeypatch):
    """A stand-in for the income step (built elsewhere): every company has
    its income retained at once, so every turn reaches the buy step."""
    from games.engines.cuba.steps import dividend

    def undecided(state):
        record = turn.current(state)
        return record is not None and record["paid"] is None and state["end"] is None

    def decide(state):
        record = turn.current(state)
        record["paid"] = "retain"
        turn.reach(state, "dividend")
        return True

    monkeypatch.setattr(dividend, "active", undecided)
    monkeypatch.setattr(dividend, "blocking", lambda state: True)
    monkeypatch.setattr(dividend, "auto", decide, raising=False)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [(2, {"difficulty": "hard"}), (4, {}), (6, {})])
def test_random_games_buy_finance_and_end_keeping_money_shares_and_limits(
    monkeypatch, players, options
):
    from games.engines.cuba.data import variants
    from games.engines.cuba.play import randomgame

    _income_decided_at_once(monkeypatch)
    played_types = set()

    def check(before, after, seat, action):
        played_types.add(action["type"])
        assert cash.total(after["cash"]) == variants.BANK
        assert all(v >= 0 for k, v in after["cash"].items() if k != cash.BANK), action
        for holders in after["certificates"].values():
            assert sum(sum(held) for held in holders.values()) == 100
        for sym, charter in after["companies"].items():
            limit = rolling_stock.train_limit(after, sym)
            assert limit is None or len(charter["trains"]) <= limit
            assert len(charter["machines"]) <= 3
        if ENGINE.is_over(after):
            return
        [to_act] = ENGINE.to_act(after)
        for move in ENGINE.legal_actions(after, to_act):
            if move["type"] != "offer" or move["price"] < 3:
                assert ENGINE.parse(ENGINE.text(move), after, to_act) == move

    played = randomgame.play(players, options, 1, check=check)
    assert ENGINE.result(played.state) is not None
    assert "buy_train" in played_types


def test_timeout_buys_the_cheapest_train_a_company_must_own_and_never_makes_an_offer():
    state = base_game()
    float_major(state, "MS", 1, 500)
    float_major(state, "Oe", 0, 300)
    state["companies"]["Oe"]["trains"] = ["3", "2"]
    state = at_buy_step(state, "MS", phase=3)
    moves = legal(state)
    assert "offer" in kinds(moves) and {"type": "pass"} not in moves  # MS owns no train
    chosen = ENGINE.timeout_action(state, 1)
    cheapest = min(a["price"] for a in moves if a["type"] == "buy_train")
    assert chosen["type"] == "buy_train" and chosen["price"] == cheapest


def test_timeout_refuses_an_offer():
    state = base_game()
    float_major(state, "MS", 1, 500)
    float_major(state, "Oe", 0, 300)
    state["companies"]["Oe"]["trains"] = ["3", "2"]
    state["companies"]["MS"]["trains"] = ["2"]
    asked = act(
        at_buy_step(state, "MS", phase=3),
        {"type": "offer", "from": "Oe", "card": "3", "price": 150},
    )
    assert ENGINE.timeout_action(asked, seat_of(asked, "Oe")) == {"type": "refuse"}
