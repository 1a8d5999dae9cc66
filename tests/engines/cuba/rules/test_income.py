"""The operating order and the income library (draft VII.1, VII.3.7-VII.3.12,
IX.1-IX.2, the end in IX): one test per rule, the situations built by hand
on a new game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba import setup
from games.engines.cuba.data import market, variants
from games.engines.cuba.rules import cash, income, shares

# Market cells (the chart's prices, inlined: the tests do not read the data).
CELL = {price: index for index, price in enumerate(c.price for c in market.CELLS)}


def new_state(variant: str = "4", seed: int = 1) -> Any:
    v = variants.BY_ID[variant]
    return setup.new_game(v, seed, "east" if v.partial_map else None)


def float_company(
    state: Any, sym: str, price: int, holdings: dict[str, list[int]] | None = None
) -> Any:
    """`sym` floated at `price`, its certificates moved from the offering to
    the holders named (a player account, "pool"), the rest onto its charter.
    The marker is put down as the market puts every marker down."""
    for holder, certs in (holdings or {}).items():
        for pct in certs:
            state["certificates"] = shares.move(state["certificates"], sym, "ipo", holder, pct)
    state["certificates"] = shares.charter(state["certificates"], sym)
    state["companies"][sym]["floated"] = True
    state["companies"][sym]["price"] = CELL[price]
    state["market"] = market.place(state["market"], sym, CELL[price])
    if sym not in state["cash"]:
        state["cash"] = cash.open_account(state["cash"], sym)
    return state


def major(state: Any, sym: str, price: int, **held: list[int]) -> Any:
    holdings = {"p0": [20], **held}
    return float_company(state, sym, price, holdings)


def minor(state: Any, sym: str, price: int, seat: int = 0) -> Any:
    # VI.7: the director's 40% and a 20% share; the two others on the charter.
    return float_company(state, sym, price, {f"p{seat}": [40, 20]})


# VII.1: the order of companies


def test_vii1_minors_ascending_then_majors_descending_then_the_fc() -> None:
    state = new_state()
    minor(state, "HG", 80)
    minor(state, "JU", 70, seat=1)
    minor(state, "HY", 90, seat=2)
    major(state, "MS", 70)
    major(state, "Oe", 100)
    major(state, "CVC", 85)
    assert income.operating_order(state) == ["JU", "HG", "HY", "Oe", "CVC", "MS", "FC"]


def test_vii1_on_a_shared_cell_the_marker_on_top_runs_first() -> None:
    state = new_state()
    # Both minors and both majors arrive on one cell each; the first to
    # arrive stays on top (IX.1), and runs first in either direction.
    minor(state, "SB", 75)
    minor(state, "HG", 75, seat=1)
    major(state, "TSS", 90)
    major(state, "MS", 90)
    assert state["market"][CELL[75]] == ["SB", "HG"]
    assert state["market"][CELL[90]] == ["TSS", "MS"]
    assert income.operating_order(state) == ["SB", "HG", "TSS", "MS", "FC"]


def test_vii1_a_marker_moving_onto_an_occupied_cell_runs_after_those_there() -> None:
    state = new_state()
    major(state, "MS", 100)
    major(state, "Oe", 90)
    # Oe pays a dividend and moves right onto MS's cell: it goes under MS.
    income.pay_out(state, "Oe", 100)
    assert state["companies"]["Oe"]["price"] == state["companies"]["MS"]["price"]
    assert income.operating_order(state) == ["MS", "Oe", "FC"]
    # Now MS retains twice and Oe once: Oe moves first onto the 90 cell...
    income.retain(state, "Oe", 0)
    income.retain(state, "MS", 0)
    # ...and MS arrives under it.
    assert income.operating_order(state) == ["Oe", "MS", "FC"]


def test_vii1_companies_not_floated_do_not_operate() -> None:
    state = new_state()
    major(state, "MS", 80)
    state["certificates"] = shares.move(state["certificates"], "Oe", "ipo", "p1", 20)
    state["companies"]["Oe"]["price"] = CELL[80]  # parred, not floated
    state["market"] = market.place(state["market"], "Oe", CELL[80])
    assert income.operating_order(state) == ["MS", "FC"]


# VII.3.8 and IX.2: paying out and retaining


def test_vii38_worked_payout_example() -> None:
    """MS earns $160 at 80: $16 per 10% share. p0 holds the director's 20% and
    two shares (40%: $64), p1 two shares ($32), one share is in the pool (the
    bank keeps its $16) and three are in MS's treasury ($48 to MS). The
    marker moves one space right, 80 -> 90."""
    state = new_state()
    major(state, "MS", 80, p0=[20, 10, 10], p1=[10, 10], pool=[10])
    ledger = dict(state["cash"])
    result = income.pay_out(state, "MS", 160)
    assert result.per_share == 16
    assert result.paid == {"p0": 64, "p1": 32, "MS": 48}
    assert state["cash"]["p0"] - ledger["p0"] == 64
    assert state["cash"]["p1"] - ledger["p1"] == 32
    assert state["cash"]["MS"] - ledger["MS"] == 48
    assert ledger[cash.BANK] - state["cash"][cash.BANK] == 64 + 32 + 48
    assert market.CELLS[state["companies"]["MS"]["price"]].price == 90
    assert cash.total(state["cash"]) == cash.total(ledger)


def test_vii38_pool_shares_pay_the_bank() -> None:
    state = new_state()
    major(state, "MS", 80, p1=[10] * 3, pool=[10] * 5)
    bank = state["cash"][cash.BANK]
    result = income.pay_out(state, "MS", 200)
    # 2 (director) + 3 shares paid; the 5 pool shares' $100 never leave the bank.
    assert bank - state["cash"][cash.BANK] == 20 * 5
    assert "pool" not in result.paid


def test_vii38_treasury_shares_pay_the_company() -> None:
    state = new_state()
    major(state, "MS", 80)  # 20% sold, 80% on the charter
    before = state["cash"]["MS"]
    income.pay_out(state, "MS", 100)
    assert state["cash"]["MS"] - before == 8 * 10


def test_vii38_a_minors_price_unit_is_its_20_percent_share() -> None:
    """A minor's 100% is five 20% shares: $50 pays $10 per share, so the
    director's 60% gets $30 and the two shares on the charter $20."""
    state = new_state()
    minor(state, "HG", 70)
    result = income.pay_out(state, "HG", 50)
    assert result.per_share == 10
    assert result.paid == {"p0": 30, "HG": 20}


def test_vii38_odd_dollars_of_a_payout_stay_with_the_company() -> None:
    state = new_state()
    major(state, "MS", 80, p0=[20, 10])
    before = dict(state["cash"])
    result = income.pay_out(state, "MS", 105)
    assert result.per_share == 10
    assert state["cash"]["p0"] - before["p0"] == 30
    # 7 treasury shares ($70) and the $5 that cannot be split.
    assert state["cash"]["MS"] - before["MS"] == 75
    assert before[cash.BANK] - state["cash"][cash.BANK] == 105


def test_vii38_retain_puts_the_whole_revenue_in_the_treasury() -> None:
    state = new_state()
    major(state, "MS", 80, p0=[20, 10, 10])
    before = dict(state["cash"])
    result = income.retain(state, "MS", 130)
    assert result.retained == 130
    assert state["cash"]["MS"] - before["MS"] == 130
    assert state["cash"]["p0"] == before["p0"]
    assert before[cash.BANK] - state["cash"][cash.BANK] == 130


def test_ix2_a_dividend_above_zero_moves_the_marker_right() -> None:
    state = new_state()
    major(state, "MS", 100)
    result = income.pay_out(state, "MS", 10)
    assert result.price_after == market.right(CELL[100])
    assert market.CELLS[result.price_after].price == 110


def test_ix2_a_zero_dividend_moves_the_marker_left() -> None:
    state = new_state()
    major(state, "MS", 100)
    result = income.pay_out(state, "MS", 0)
    assert result.paid == {}
    assert market.CELLS[result.price_after].price == 90


def test_ix2_retaining_moves_the_marker_left() -> None:
    state = new_state()
    minor(state, "JU", 70)
    result = income.retain(state, "JU", 60)
    assert market.CELLS[result.price_after].price == 60


def test_ix1_from_290_right_goes_up_to_300_and_from_55_left_down_to_50() -> None:
    state = new_state()
    major(state, "MS", 100)
    for sym, start, how, end in (("MS", 290, income.pay_out, 300), ("MS", 55, income.retain, 50)):
        state["market"] = market.place(state["market"], sym, CELL[start])
        state["companies"][sym]["price"] = CELL[start]
        how(state, sym, 50)
        assert market.CELLS[state["companies"][sym]["price"]].price == end
        assert sym in state["market"][CELL[end]]


def test_payout_and_retain_only_for_companies_that_operate() -> None:
    state = new_state()
    with pytest.raises(IllegalAction, match="does not operate"):
        income.pay_out(state, "MS", 100)
    with pytest.raises(IllegalAction, match="not a major or minor"):
        income.retain(state, "FC", 100)
    major(state, "MS", 80)
    with pytest.raises(IllegalAction, match="whole number"):
        income.pay_out(state, "MS", -10)


# IX (end): the bank breaks, dividends are recorded


def test_ix1_dividends_beyond_the_bank_are_recorded_and_break_it() -> None:
    state = new_state()
    major(state, "MS", 80, p0=[20, 10, 10])
    # Leave the bank $50: the rest goes to a player, as money handed out.
    state["cash"] = cash.transfer(state["cash"], cash.BANK, "p1", state["cash"][cash.BANK] - 50)
    first = income.pay_out(state, "MS", 200)
    assert first.broke_bank
    assert state["cash"][cash.BANK] == 50 - 200  # the piece of paper
    assert cash.bank_broken(state["cash"])
    assert state["cash"]["p0"] >= 80  # the recorded dividend is the player's cash
    second = income.retain(state, "MS", 100)
    assert not second.broke_bank  # it broke once, at the first payment


# VII.3.7, VII.3.11: sugar cubes and machines


@pytest.mark.parametrize(
    ("revenue", "cubes"),
    [(0, 0), (29, 0), (30, 1), (79, 1), (80, 2), (150, 2), (151, 3), (400, 3)],
)
def test_vii37_a_minors_income_produces_cubes_by_threshold(revenue: int, cubes: int) -> None:
    assert income.cubes_for(revenue) == cubes


def test_vii311_the_machines_bonus_is_part_of_the_income_that_makes_cubes() -> None:
    # 70 is one cube; a first-generation machine (+10) makes it 80: two.
    assert income.minor_income(70, [1]) == 80
    assert income.cubes_for(income.minor_income(70, [1])) == 2
    assert income.minor_income(100, [1, 2, 3]) == 100 + 10 + 20 + 40


def test_vii311_no_bonus_without_a_route() -> None:
    assert income.minor_income(0, [3, 3]) == 0


def test_vii38_a_minor_that_retains_still_puts_its_cubes_at_its_mill() -> None:
    state = new_state()
    minor(state, "CO", 70)
    earned = income.minor_income(70, [1])
    income.retain(state, "CO", earned)
    assert income.produce_cubes(state, "CO", earned) == 2
    income.pay_out(state, "CO", 30)
    income.produce_cubes(state, "CO", 30)
    assert state["companies"]["CO"]["cubes"] == 3
    with pytest.raises(IllegalAction):
        income.produce_cubes(state, "FC", 100)


# VII.3.12: the FC


def test_vii312_fc_income_counts_the_best_cities_in_range_plus_10_per_cube() -> None:
    assert income.fc_income([40], 1, 0) == 40
    assert income.fc_income([20, 40, 30], 2, 0) == 70
    assert income.fc_income([20, 40, 30], 5, 3) == 90 + 30
    assert income.fc_income([], 2, 4) == 40


def test_vii312_the_fc_runs_its_preprinted_train_then_its_newest_export() -> None:
    state = new_state()
    assert income.fc_train_range(state) == 1
    state["fc_trains"] = ["2", "3"]
    assert income.fc_train_range(state) == 3


def test_vii312_the_fc_pays_out_everything_and_rises_one_space_diagonally() -> None:
    """Havana (40) and another FC city (30), a 2-train, three cubes waiting:
    $100, $10 per 10%. p0 holds 30% ($30), p1 10% ($10), one share is in the
    pool and the rest on the map board: the bank keeps theirs. The fees in
    the FC's treasury go back to the bank; the cubes are taken off; 50 -> 55."""
    state = new_state()
    for holder, pct in (("p0", 10), ("p0", 10), ("p0", 10), ("p1", 10), ("pool", 10)):
        state["certificates"] = shares.move(state["certificates"], "FC", "ipo", holder, pct)
    minor(state, "HG", 70)
    minor(state, "JU", 70, seat=1)
    state["companies"]["HG"]["cubes"] = 2
    state["companies"]["JU"]["cubes"] = 1
    major(state, "MS", 80)
    state["cash"] = cash.transfer(state["cash"], cash.BANK, "MS", 100)
    income.pay_fc_fee(state, "MS", 2)
    before = dict(state["cash"])
    result = income.operate_fc(state, [40, 30], 2)
    assert result.revenue == 100
    assert result.paid == {"p0": 30, "p1": 10}
    assert state["cash"]["FC"] == 0
    assert state["cash"][cash.BANK] - before[cash.BANK] == 40 - 40  # fees back, dividends out
    assert state["companies"]["HG"]["cubes"] == state["companies"]["JU"]["cubes"] == 0
    assert market.CELLS[state["companies"]["FC"]["price"]].price == 55
    assert cash.total(state["cash"]) == cash.total(before)


def test_vii312_the_fc_paying_nothing_does_not_move() -> None:
    state = new_state()
    result = income.operate_fc(state, [], 1)
    assert result.per_share == 0
    assert result.price_after == result.price_before == market.FC_START


def test_vii312_the_fc_fee_goes_into_the_fc_treasury() -> None:
    state = new_state()
    major(state, "MS", 80)
    state["cash"] = cash.transfer(state["cash"], cash.BANK, "MS", 100)
    bank = state["cash"][cash.BANK]
    assert income.pay_fc_fee(state, "MS", 3) == 60
    assert state["cash"]["FC"] == 60
    assert state["cash"]["MS"] == 40
    assert state["cash"][cash.BANK] == bank
    assert income.pay_fc_fee(state, "MS", 0) == 0
    with pytest.raises(IllegalAction):
        income.pay_fc_fee(state, "MS", 3)  # MS has $40
    minor(state, "HG", 70)
    with pytest.raises(IllegalAction, match="only a major"):
        income.pay_fc_fee(state, "HG", 1)


# Conservation


def test_money_is_conserved_in_random_payouts_and_retains() -> None:
    rng = random.Random(18)
    for _ in range(30):
        state = new_state(rng.choice(["3e", "4", "6"]), rng.randrange(1000))
        players = state["players"]
        for sym in ("MS", "Oe", "CVC"):
            held: dict[str, list[int]] = {f"p{rng.randrange(players)}": [20]}
            holders = [*(f"p{s}" for s in range(players)), "pool"]
            for _share in range(rng.randrange(9)):
                holder = rng.choice(holders)
                if holder != "pool" or len(held.get("pool", [])) < 5:
                    held.setdefault(holder, []).append(10)
            float_company(state, sym, rng.choice(market.PAR_PRICES), held)
        minor(state, "HG", 70, seat=rng.randrange(players))
        total = cash.total(state["cash"])
        for _step in range(60):
            sym = rng.choice(income.operating_order(state))
            revenue = 10 * rng.randrange(0, 40)
            if sym == "FC":
                income.operate_fc(state, [revenue], rng.randrange(1, 4))
            elif rng.random() < 0.5:
                income.pay_out(state, sym, revenue + rng.randrange(5))
            else:
                income.retain(state, sym, revenue)
            if sym == "HG":
                income.produce_cubes(state, sym, revenue)
            assert cash.total(state["cash"]) == total
            for on in state["market"]:
                assert len(on) == len(set(on))
            for s, c in state["companies"].items():
                if c["price"] is not None:
                    assert s in state["market"][c["price"]]
