"""Money is moved, never made or lost (the bank's 8,000 is all there is)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from games.engines.cuba.data import variants
from games.engines.cuba.rules import cash


def test_setup_pays_starting_capital_out_of_the_bank():
    v = variants.variant(4, None)
    ledger = cash.new_ledger(variants.BANK, v.starting_cash, v.players)
    assert ledger == {"bank": 8000 - 4 * 680, "p0": 680, "p1": 680, "p2": 680, "p3": 680}


def test_a_player_cannot_pay_more_than_they_have():
    ledger = cash.new_ledger(1000, 100, 2)
    with pytest.raises(IllegalAction, match="p0 has \\$100"):
        cash.transfer(ledger, "p0", "p1", 101)


def test_the_bank_pays_on_paper_when_empty_and_reports_it_broken():
    ledger = cash.new_ledger(130, 50, 2)
    assert not cash.bank_broken(ledger)
    ledger = cash.transfer(ledger, cash.BANK, "p0", 60)
    assert ledger["bank"] == -30
    assert cash.bank_broken(ledger)


@pytest.mark.parametrize("amount", [-1, 1.5, True, "5"])
def test_amounts_are_whole_non_negative_dollars(amount):
    with pytest.raises(IllegalAction):
        cash.transfer(cash.new_ledger(100, 10, 2), "p0", "p1", amount)


def test_unknown_accounts_are_refused_and_companies_open_empty():
    ledger = cash.new_ledger(100, 10, 2)
    with pytest.raises(IllegalAction):
        cash.transfer(ledger, "p0", "MS", 5)
    ledger = cash.open_account(ledger, "MS")
    assert cash.transfer(ledger, "p0", "MS", 5)["MS"] == 5


@pytest.mark.slow
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 900))))
def test_transfers_conserve_the_total(moves):
    accounts = ["bank", "p0", "p1", "MS"]
    ledger = cash.open_account(cash.new_ledger(8000, 700, 2), "MS")
    for payer, payee, amount in moves:
        before = dict(ledger)
        try:
            ledger = cash.transfer(ledger, accounts[payer], accounts[payee], amount)
        except IllegalAction:
            assert ledger == before
        assert cash.total(ledger) == 8000
