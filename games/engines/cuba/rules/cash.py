"""Every movement of money in 18Cuba, so that conservation can be asserted.

Money lives in one ledger (`state["cash"]`): the bank, each player (`p0`,
`p1`, ...), each company by its symbol and the FC. Nothing outside this
module changes a balance: a rule that pays does so by `transfer`, so the sum
of the ledger stays the bank's 8,000 for the whole game (the players'
starting capital is paid out of it), which the playout tests will check
after every action.

The bank may go below zero: when it runs out, play goes on with dividends
"recorded on a piece of paper" (draft IX.1) until the end of the set of ORs.
A negative bank balance is exactly that paper; `bank_broken` tells the
rounds that the end has been triggered. No other account may overdraw.
"""

from __future__ import annotations

from ..refusals import refuse

Ledger = dict[str, int]
BANK = "bank"


def player(seat: int) -> str:
    """A player's account name."""
    return f"p{seat}"


def new_ledger(bank: int, starting_cash: int, players: int) -> Ledger:
    """The bank pays each player their starting capital (III.2)."""
    ledger: Ledger = {BANK: bank, **{player(seat): 0 for seat in range(players)}}
    for seat in range(players):
        ledger = transfer(ledger, BANK, player(seat), starting_cash)
    return ledger


def transfer(ledger: Ledger, payer: str, payee: str, amount: int) -> Ledger:
    """A new ledger with `amount` moved from payer to payee; never mutates."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise refuse(
            "an amount of money must be a whole number of dollars: {amount}", amount=repr(amount)
        )
    for account in (payer, payee):
        if account not in ledger:
            raise refuse("there is no account {account}", account=repr(account))
    if payer != BANK and ledger[payer] < amount:
        raise refuse(
            "{payer} has ${cash}, not ${amount}", payer=payer, cash=ledger[payer], amount=amount
        )
    out = dict(ledger)
    out[payer] -= amount
    out[payee] += amount
    return out


def open_account(ledger: Ledger, name: str) -> Ledger:
    """A company's treasury, empty until it is floated and paid."""
    if name in ledger:
        raise refuse("the account {name} exists already", name=repr(name))
    return {**ledger, name: 0}


def total(ledger: Ledger) -> int:
    return sum(ledger.values())


def bank_broken(ledger: Ledger) -> bool:
    return ledger[BANK] <= 0
