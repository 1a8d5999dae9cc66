"""The stock round (draft VI): sell, then buy one certificate, or pass; the
first stock round also converts concessions into minors (VI.7). One step
(`steps.buy_sell_par`) holds the verbs; this module holds the round's three
moments:

    begin    the lowest playing-order card starts (VI.2)
    over     every player has passed in a row (VI.1, VI.2)
    finish   charters and capital of the majors floated in the round (VI.8),
             sold-out companies one cell up (IX.3), the new playing order by
             money (VI.2), and after the first stock round the unconverted
             concessions and the minors nobody started leave the game (VI.6)
"""

from __future__ import annotations

from ...base import State
from ..data import market
from ..data.companies import BY_SYM
from ..rules import cash, log, shares
from ..steps import abilities, buy_sell_par
from . import flow
from .base import Round


def begin(state: State) -> None:
    state["round"]["steps"][buy_sell_par.DATA] = buy_sell_par.new_data()
    state["round"]["entity"] = cash.player(state["order"][0])


def over(state: State) -> bool:
    return bool(buy_sell_par.data(state)["passes"] >= len(state["order"]))


def finish(state: State) -> None:
    for sym in buy_sell_par.data(state)["floated"]:
        charter(state, sym)
    for sym in sold_out(state):
        before = state["companies"][sym]["price"]
        buy_sell_par.move_marker(state, sym, market.up(before))
        log.price(state, sym, before, state["companies"][sym]["price"], "sold_out")
    reorder(state)
    if int(state["round"]["number"]) == 1:
        close_opening(state)
    state["round"]["entity"] = None


def charter(state: State, sym: str) -> None:
    """VI.8: the rest of the offering goes into the treasury, and the company
    receives its par price for every 10% that has left the offering (the
    pool included), paid by the bank, which took the purchase prices. The
    draft's other figure, ten times par (IV.3, IV.4), is not used: see
    README "Stock rounds and the market"."""
    company = state["companies"][sym]
    units = shares.units(sym, shares.sold_percent(state["certificates"], sym))
    capital = units * market.CELLS[company["par"]].price
    state["certificates"] = shares.charter(state["certificates"], sym)
    ledger = state["cash"]
    if sym not in ledger:
        ledger = cash.open_account(ledger, sym)
    state["cash"] = cash.transfer(ledger, cash.BANK, sym, capital)
    log.note(state, "capital", company=sym, amount=capital, shares=units)


def sold_out(state: State) -> list[str]:
    """IX.3: companies whose every share is in players' hands, the FC excepted
    (its price never moves in a stock round), in market order, so that
    markers rising together keep their order on a shared cell."""
    out = []
    for sym in state["companies"]:
        if BY_SYM[sym].kind == "fc" or state["companies"][sym]["price"] is None:
            continue
        holders = state["certificates"][sym]
        if not any(place in holders for place in shares.SOURCES):
            out.append(sym)
    return market.by_price(state["market"], out)


def reorder(state: State) -> None:
    """VI.2 as VI.6 words it: the least money takes the lowest playing-order
    card; equal money keeps the old order. The holder of the lowest card
    takes the priority deal (III.2)."""
    old = list(state["order"])
    state["order"] = sorted(
        old, key=lambda seat: (state["cash"][cash.player(seat)], old.index(seat))
    )
    state["priority"] = state["order"][0]
    log.note(state, "order", seats=list(state["order"]))


def close_opening(state: State) -> None:
    """VI.6: unconverted concessions are out of the game after the first
    stock round; minors are started only in it (IV.3), so a minor nobody
    started leaves the game: its charter and certificates are taken out of
    `state["companies"]` and `state["certificates"]`, as for the majors not
    in a 2-player easy game."""
    for card in buy_sell_par.CONCESSIONS:
        private = state["privates"].get(card)
        if private is not None and private["minor"] is None:
            private["out"] = True
    for sym in list(state["companies"]):
        if BY_SYM[sym].kind == "minor" and shares.director(state["certificates"], sym) is None:
            del state["companies"][sym]
            del state["certificates"][sym]
            state["market"] = market.remove(state["market"], sym)


# A concession's ability may be put into a company on its owner's turn, before
# or between sales (README "The opening").
STOCK = Round("stock round", (abilities, buy_sell_par), begin=begin, over=over, finish=finish)
flow.register("stock", STOCK)
