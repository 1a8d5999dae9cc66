"""Emergency financing (draft VII.3.10) as a rules library: the train a
company without one is forced to buy, what it lacks, and the three ways the
director raises it, in the draft's order.

A company is **forced** to buy when it owns no train (VII.3.9: every company
owns one at the end of its OR) and the bank or the pool has a train of its
kind. It is **short** when its treasury cannot pay the cheapest of them. Then:

1. the director pays in from their own cash (`contribute`), and/or the
   company puts treasury shares into the pool (`issue`), like a sale: the
   current price per share, the marker one cell down per share;
2. only when the director has no cash left and no share can be issued, the
   director sells shares (`sell`) under every rule of a sale, and never so
   that any company changes director; never more shares than the deficit
   needs;
3. when even that is not enough, the director is bankrupt (the step ends the
   game, README).

The forced train is the cheapest one from the bank or the pool, never one
from another company.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_
from ..data import market
from ..data.companies import BY_SYM, in_game, shares_of
from ..refusals import reason
from . import cash, log, rolling_stock, shares, turn

State = dict[str, Any]


def train_offers(state: State, company: str) -> list[rolling_stock.Offer]:
    """The trains (not wagons or machines) the bank and the pool sell the
    company now, money aside, priced as the company would pay."""
    offers = [
        *rolling_stock.depot_offers(state, company),
        *rolling_stock.pool_offers(state, company),
    ]
    return [
        rolling_stock.Offer(
            o.card, o.source, rolling_stock.purchase_price(state, company, o.card, o.source)
        )
        for o in offers
        if rolling_stock.is_train(o.card)
    ]


def cheapest(state: State, company: str) -> int | None:
    """The price of the cheapest train the bank or the pool sells it; None
    when there is none."""
    prices = [o.price for o in train_offers(state, company)]
    return min(prices) if prices else None


def forced(state: State, company: str) -> bool:
    """Must the company buy a train before its turn ends?"""
    if state["companies"][company]["trains"]:
        return False
    return cheapest(state, company) is not None


def financing(state: State, company: str) -> bool:
    """Does the company owe its forced train to emergency financing: it
    could not pay it, or its director has begun raising the money (the
    turn's `emergency`)? Its train is then the cheapest one (VII.3.10)."""
    record = turn.current(state)
    assert record is not None
    if not forced(state, company):
        return False
    return bool(record.get("emergency")) or deficit(state, company) > 0


def deficit(state: State, company: str) -> int:
    """What the company lacks for the cheapest train (0: it can pay)."""
    price = cheapest(state, company)
    if price is None or state["companies"][company]["trains"]:
        return 0
    return max(0, price - state["cash"][company])


# --- 1. the director's cash and the company's shares -------------------------


def contribution(state: State, company: str, director: str) -> int:
    """What the director pays in: all the deficit, or all they have."""
    return min(state["cash"][director], deficit(state, company))


def contribute(state: State, company: str, director: str, amount: int) -> None:
    state["cash"] = cash.transfer(state["cash"], director, company, amount)


def price_of(state: State, company: str) -> int | None:
    cell = state["companies"][company]["price"]
    return None if cell is None else market.CELLS[cell].price


def issue_fault(state: State, company: str) -> str | None:
    """Why the company cannot put one more treasury share into the pool."""
    certs = state["certificates"][company]
    ordinary = shares_of(BY_SYM[company]).ordinary_percent
    if ordinary not in certs.get(shares.TREASURY, []):
        return reason(N_("{company} has no share left in its treasury"), company=company)
    if len(certs.get(shares.POOL, [])) >= shares.POOL_LIMIT:
        return reason(
            N_("the pool holds {POOL_LIMIT} {company} certificates, the most it may"),
            POOL_LIMIT=shares.POOL_LIMIT,
            company=company,
        )
    if price_of(state, company) is None:
        return reason(N_("{company} has no share price"), company=company)
    return None


def issue(state: State, company: str) -> int:
    """One treasury share into the pool: the company receives the price,
    then the marker moves one cell down (VII.3.10, like VII.3.3's issue)."""
    price = price_of(state, company)
    assert price is not None
    ordinary = shares_of(BY_SYM[company]).ordinary_percent
    state["certificates"] = shares.move(
        state["certificates"], company, shares.TREASURY, shares.POOL, ordinary
    )
    state["cash"] = cash.transfer(state["cash"], cash.BANK, company, price)
    before = state["companies"][company]["price"]
    _move_marker(state, company, market.down(before, 1))
    log.price(state, company, before, state["companies"][company]["price"], "issued")
    return price


# --- 2. the director's forced sales ---------------------------------------------


def sale_fault(state: State, director: str, sym: str, count: int, needed: int) -> str | None:
    """Why the director may not sell `count` shares of `sym` now to raise
    `needed`: every rule of a sale (VI.4), no change of director in any
    company, and no share more than the deficit needs."""
    seat = int(director[1:])
    if sym not in state["companies"] or sym not in state["certificates"]:
        return reason(N_("there is no company {sym} in this game"), sym=repr(sym))
    fault = shares.can_sell(
        state["certificates"], sym, seat, count, operated=state["companies"][sym]["operated"]
    )
    if fault:
        return fault
    price = price_of(state, sym)
    if price is None:
        return reason(N_("{sym} has no share price"), sym=sym)
    if (count - 1) * price >= needed:
        return reason(
            N_("{enough} {sym} shares already raise the ${needed} needed: sell no more"),
            enough=count - 1,
            sym=sym,
            needed=needed,
        )
    before = {s: shares.director(state["certificates"], s) for s in state["certificates"]}
    after = shares.sell(state["certificates"], sym, seat, count, state["order"])
    if any(shares.director(after, s) != d for s, d in before.items()):
        return reason(N_("a forced sale may never change the director of any company"))
    return None


def sell(state: State, director: str, sym: str, count: int) -> int:
    """The director's sale into the pool: the price before the sale per
    share from the bank, then the marker down one cell per share (the FC's
    never moves on a sale)."""
    price = price_of(state, sym)
    assert price is not None
    seat = int(director[1:])
    state["certificates"] = shares.sell(state["certificates"], sym, seat, count, state["order"])
    state["cash"] = cash.transfer(state["cash"], cash.BANK, director, count * price)
    if BY_SYM[sym].kind != "fc":
        before = state["companies"][sym]["price"]
        _move_marker(state, sym, market.down(before, count))
        log.price(state, sym, before, state["companies"][sym]["price"], "sold", count=count)
    return count * price


def sales(state: State, director: str, needed: int) -> list[tuple[str, int]]:
    """Every (company, count) the director may sell now to raise `needed`."""
    out = []
    for sym in in_game(state["certificates"]):
        held = shares.percent(state["certificates"], sym, director)
        if not held or sym not in state["companies"]:
            continue
        most = held // shares_of(BY_SYM[sym]).ordinary_percent
        for count in range(1, most + 1):
            if sale_fault(state, director, sym, count, needed) is None:
                out.append((sym, count))
    return out


def _move_marker(state: State, sym: str, cell: int) -> None:
    # The marker and the charter's price move together, as in a stock round.
    state["market"] = market.place(state["market"], sym, cell)
    state["companies"][sym]["price"] = cell
