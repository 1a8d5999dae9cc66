"""The sets of operating rounds (draft VII.1, VII.3.12-13) and the end of
the game (IX.1-IX.2), through the engine: how many ORs follow a stock round,
who operates in what order, the FC's run in every OR, the export at the end
of each set, and the end after the set in which the bank broke."""

from __future__ import annotations

from games.engines.cuba.data import market
from games.engines.cuba.rounds import flow, operating
from games.engines.cuba.rules import cash, income

from ..stockgame import ENGINE, give, start_major, stock_game


def default_move(state):
    """The acting seat plays what a timeout would play for it."""
    (seat,) = ENGINE.to_act(state)
    return ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))


def play_until(state, done, limit=400):
    for _ in range(limit):
        if done(state):
            return state
        state = default_move(state)
    raise AssertionError(f"not reached in {limit} moves: {state['round']}")


def play_set(state):
    """Play this stock round and the set of ORs after it, up to the next
    stock round or the end."""
    number = state["round"]["number"]

    def next_sr(s):
        r = s["round"]
        return s["end"] is not None or (r["kind"] == "stock" and r["number"] > number)

    return play_until(state, next_sr)


def test_vii1_one_operating_round_after_each_stock_round_in_phases_1_and_2():
    state = stock_game("4")
    fc_price = state["companies"]["FC"]["price"]
    state = play_set(state)
    # every company's turn and the FC's need no decision here: the set has run
    assert state["round"]["kind"] == "stock" and state["round"]["number"] == 2
    # the FC operated once (its marker one space up) and one train was exported
    assert state["companies"]["FC"]["price"] == market.up(fc_price)
    assert state["fc_trains"] == ["2"]


def test_vii1_two_operating_rounds_once_a_3_train_is_sold_three_after_a_5():
    for phase, count in ((2, 1), (3, 2), (4, 2), (5, 3), (7, 3)):
        state = stock_game("4")
        state["phase"] = phase
        flow.start(state, "operating")
        assert (state["round"]["of"], state["round"]["index"]) == (count, 1)


def test_vii312_the_fc_operates_in_every_or_of_a_set():
    state = stock_game("4")
    state["phase"] = 3  # two ORs
    fc_price = state["companies"]["FC"]["price"]
    state = play_set(state)
    assert state["companies"]["FC"]["price"] == market.up(market.up(fc_price))
    assert len(state["fc_trains"]) == 1  # one export per set, not per OR


def test_vii1_minors_ascending_majors_descending_then_the_fc():
    state = stock_game("4", concessions={"M1": 0, "M2": 1})
    for sym, par in (("MS", 100), ("Oe", 80), ("CVC", 100)):
        start_major(state, sym, par)
        give(state, sym, 0, 20)
    for sym, par, seat in (("HG", 90, 0), ("JU", 70, 1)):
        start_major(state, sym, par)
        give(state, sym, seat, 40)
    flow.start(state, "operating")
    queue = operating.data(state)["queue"]
    # CVC reached 100 after MS, so it lies under MS and runs after it
    assert queue == ["JU", "HG", "MS", "CVC", "Oe"]
    assert income.operating_order(state)[-1] == "FC" and "FC" not in queue


def test_vii313_a_train_is_exported_to_the_fc_at_the_end_of_each_set():
    state = stock_game("4")
    twos = state["depot"]["2"]
    for _ in range(3):
        state = play_set(state)
    assert state["fc_trains"] == ["2", "2", "2"]
    assert state["depot"]["2"] == twos - 3


def test_vii314_the_export_of_the_first_train_of_a_type_starts_its_phase():
    state = stock_game("4")
    assert state["phase"] == 1
    state = play_set(state)
    assert state["phase"] == 2  # the first 2-train went to the FC


def _bank_to_player(state, keep):
    """Leave the bank `keep` dollars, the rest with player 0 (money is conserved)."""
    state["cash"] = cash.transfer(
        state["cash"], cash.BANK, cash.player(0), state["cash"]["bank"] - keep
    )


def test_ix1_the_bank_broken_in_an_or_ends_the_game_when_the_set_is_complete():
    state = stock_game("4")
    state["phase"] = 3  # a set of two ORs
    give(state, "FC", 0, 10, 10)
    _bank_to_player(state, 5)  # the FC's first dividend breaks it
    total = cash.total(state["cash"])
    state = play_set(state)
    assert state["ending"] == {"round": "operating", "set": 1}
    assert state["end"] == {"reason": operating.BANK_BROKEN}
    # the set was completed: the FC ran in both ORs
    assert state["round"]["index"] == state["round"]["of"] == 2
    assert cash.total(state["cash"]) == total and state["cash"]["bank"] < 0
    assert ENGINE.to_act(state) == set()


def test_ix1_the_bank_broken_in_a_stock_round_one_more_full_set():
    state = stock_game("4", concessions={})
    seat = state["order"][0]
    # the bank pays MS its capital at the end of this SR (VI.8) and breaks
    _bank_to_player(state, 50)
    start_major(state, "MS", 100, operated=False)
    give(state, "MS", seat, 20, 10, 10, 10)
    state["round"]["steps"]["stock"]["floated"].append("MS")
    state = play_set(state)
    assert state["ending"] == {"round": "stock", "set": 1}
    assert state["end"] == {"reason": operating.BANK_BROKEN}
    assert state["round"]["kind"] == "operating" and state["round"]["number"] == 1


def test_ix2_the_final_ranking_is_cash_plus_shares_at_market_value():
    state = stock_game("4", concessions={})
    seat = state["order"][0]
    start_major(state, "MS", 100)
    give(state, "MS", seat, 20, 10)
    state["companies"]["MS"]["trains"] = ["2"]  # so it need not buy one
    give(state, "FC", 1, 10)
    _bank_to_player(state, 1)  # the FC's dividend breaks it
    state = play_set(state)
    result = ENGINE.result(state)
    assert result["ended_by"] == "bank_broken"
    for s in range(state["players"]):
        parts = result["breakdown"][s]
        assert parts["cash"] == state["cash"][cash.player(s)]
        assert result["scores"][s] == parts["cash"] + parts["shares"]
    assert (
        result["breakdown"][seat]["shares"]
        >= 3 * market.CELLS[state["companies"]["MS"]["price"]].price
    )
    best = max(result["scores"])
    assert result["winners"] == [s for s in range(state["players"]) if result["scores"][s] == best]


def test_iv2_the_mail_contract_pays_its_major_at_the_start_of_each_turn():
    state = stock_game("4", concessions={"M5": 0})
    seat = state["order"][0]
    start_major(state, "MS", 100)
    give(state, "MS", seat, 20, 10, 10)
    state["cash"] = cash.transfer(cash.open_account(state["cash"], "MS"), cash.BANK, "MS", 500)
    state["companies"]["MS"]["trains"] = ["2"]
    state["privates"]["M5"]["company"] = "MS"
    for phase, mail in ((1, 10), (3, 20), (5, 30), (7, 40)):
        probe = ENGINE.copy_state(state)
        probe["phase"] = phase
        flow.start(probe, "operating")
        flow.current(probe).proceed(probe)
        assert probe["round"]["entity"] == "MS"
        assert probe["cash"]["MS"] == 500 + mail


def test_iv2_without_the_mail_contract_nothing_is_paid():
    state = stock_game("4")
    seat = state["order"][0]
    start_major(state, "MS", 100)
    give(state, "MS", seat, 20, 10, 10)
    state["cash"] = cash.transfer(cash.open_account(state["cash"], "MS"), cash.BANK, "MS", 500)
    state["companies"]["MS"]["trains"] = ["2"]
    flow.start(state, "operating")
    flow.current(state).proceed(state)
    assert state["round"]["entity"] == "MS" and state["cash"]["MS"] == 500


def test_the_game_ends_when_the_second_8_is_exported_to_the_fc():
    state = stock_game("4")
    for stack in ("2", "3", "4", "5", "6"):
        state["depot"][stack] = 0
    state["fc_trains"] = ["8"]
    state = play_set(state)
    assert state["fc_trains"] == ["8", "8"]
    assert ENGINE.result(state)["ended_by"] == operating.SECOND_8_EXPORTED
    assert ENGINE.to_act(state) == set()


def test_one_8_exported_does_not_end_the_game():
    state = stock_game("4")
    for stack in ("2", "3", "4", "5", "6"):
        state["depot"][stack] = 0
    state = play_set(state)
    assert state["fc_trains"] == ["8"] and state["end"] is None


def test_phase_change_surplus_is_asked_in_charter_order_whatever_the_dict_order():
    """A state read back from JSON may hold its companies in another order;
    the directors of two companies over the limit after a phase change are
    asked in the printed order of the charters all the same."""
    from games.engines.cuba.rules import rolling_stock

    state = stock_game("4")
    for sym, cards in (("MS", ["4", "4", "4"]), ("Oe", ["3", "4", "4"])):
        start_major(state, sym, 100)
        state["companies"][sym]["trains"] = list(cards)
    state["phase"] = 4
    backwards = ENGINE.copy_state(state)
    backwards["companies"] = dict(reversed(list(backwards["companies"].items())))
    for s in (state, backwards):
        rolling_stock.start_phase(s, 5)
    # Oe's charter comes first
    assert rolling_stock.over_limit(state) == rolling_stock.over_limit(backwards)
    assert [sym for sym, _ in rolling_stock.over_limit(state)] == ["Oe", "MS"]


def test_vii313_an_export_that_lowers_the_limit_asks_the_directors_before_the_set_ends():
    """The export at the end of a set (VII.3.13) starts phase 5; MS, over
    its new limit, gives up a train of its director's choice (VII.3.9)
    before the stock round begins."""
    state = stock_game("4")
    seat = state["order"][0]
    start_major(state, "MS", 100)
    give(state, "MS", seat, 20, 10, 10, 10, 10)
    state["companies"]["MS"]["trains"] = ["4", "4+", "4"]
    state["phase"] = 4
    for stack in ("2", "3", "4"):
        state["depot"][stack] = 0  # the 5 is the top card the FC takes

    def asked(s):
        return s["end"] is not None or any(a["type"] == "discard" for a in _legal(s))

    state = play_until(state, asked)
    assert state["phase"] == 5 and state["fc_trains"] == ["5"]
    assert state["round"]["kind"] == "operating"
    assert ENGINE.to_act(state) == {seat}
    assert _legal(state) == [
        {"type": "discard", "company": "MS", "card": "4"},
        {"type": "discard", "company": "MS", "card": "4+"},
    ]
    # the clock's choice is the cheapest (the 4), the director may keep it
    assert ENGINE.timeout_action(state, seat)["card"] == "4"
    state = ENGINE.apply(state, seat, ENGINE.parse("discard 4+", state, seat))
    assert state["companies"]["MS"]["trains"] == ["4", "4"]
    assert state["pool"] == ["4+"]
    assert state["round"]["kind"] == "stock"  # the set is over now


def _legal(state):
    return [a for seat in ENGINE.to_act(state) for a in ENGINE.legal_actions(state, seat)]
