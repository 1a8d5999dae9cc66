"""VII.3.3: once per OR, before its track, a company issues one share from its
treasury into the bank pool or redeems one from the pool.

- **Issue** is "treated like a sale": the bank pays the company the current
  price, then the marker moves one space diagonally down (`market.down`). As
  a sale it keeps the pool limit (`shares.POOL_LIMIT`: at most five
  certificates of the company in the pool afterwards).
- **Redeem**: the company pays the current price to the bank; the price
  does not change.

A price is per ordinary certificate (10% of a major, 20% of a minor), so a
minor issues and redeems 20% at a time. A minor's two treasury shares are
buyable by the players only once issued into the pool (VI.5, `shares`).
"""

from __future__ import annotations

from typing import Any

from ...base import IllegalAction
from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data import market
from ..data.companies import BY_SYM, shares_of
from ..refusals import refuse
from ..rules import cash, log, shares, turn

NAME = "issue or redeem a share"

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    # active for the whole turn, so that a late issue is refused with the
    # reason; `legal` offers it only while the step is open
    return turn.current(state) is not None


def _open(state: State) -> bool:
    record = turn.current(state)
    return record is not None and turn.open_at(state, "issue") and not record["issued"]


def blocking(state: State) -> bool:
    return False


def _price(state: State, sym: str) -> int:
    cell = state["companies"][sym]["price"]
    assert cell is not None, "an operating company has a share price"
    return market.CELLS[cell].price


def _ordinary(sym: str) -> int:
    return shares_of(BY_SYM[sym]).ordinary_percent


def _fault(state: State, sym: str, kind: str) -> IllegalAction | None:
    """Why the operating company may not `kind` a share now (None: it may)."""
    certs = state["certificates"]
    held = certs[sym]
    if kind == "issue":
        if _ordinary(sym) not in held.get(shares.TREASURY, []):
            return refuse("{sym} has no share left in its treasury to issue", sym=sym)
        if len(held.get(shares.POOL, [])) + 1 > shares.POOL_LIMIT:
            return refuse(
                "the pool holds {limit} {sym} certificates already",
                limit=shares.POOL_LIMIT,
                sym=sym,
            )
        return None
    if _ordinary(sym) not in held.get(shares.POOL, []):
        return refuse("the pool holds no {sym} share to redeem", sym=sym)
    if state["cash"].get(sym, 0) < _price(state, sym):
        return refuse(
            "{sym} has ${cash}, not the ${price} a share costs",
            sym=sym,
            cash=state["cash"].get(sym, 0),
            price=_price(state, sym),
        )
    return None


def legal(state: State, seat: int) -> list[Action]:
    sym = turn.company(state)
    if not _open(state) or sym is None or not turn.is_director(state, seat):
        return []
    return [
        {"type": kind, "company": sym}
        for kind in ("issue", "redeem")
        if _fault(state, sym, kind) is None
    ]


def apply(state: State, seat: int, action: Action) -> None:
    sym = turn.company(state)
    if sym is None or not turn.open_at(state, "issue"):
        raise refuse("shares are issued or redeemed at the start of a turn, before track")
    if not turn.is_director(state, seat):
        raise refuse("only the director of {sym} issues or redeems its shares", sym=sym)
    kind = action["type"]
    if set(action) != {"type", "company"} or action["company"] != sym:
        raise refuse(
            "name the operating company: {example}",
            example=f'{{"type": "{kind}", "company": "{sym}"}}',
        )
    record = turn.current(state)
    assert record is not None
    if record["issued"]:
        raise refuse("{sym} has issued or redeemed a share in this OR already", sym=sym)
    fault = _fault(state, sym, kind)
    if fault:
        raise fault
    price = _price(state, sym)
    if kind == "issue":
        state["certificates"] = shares.move(
            state["certificates"], sym, shares.TREASURY, shares.POOL, _ordinary(sym)
        )
        state["cash"] = cash.transfer(state["cash"], cash.BANK, sym, price)
        before = state["companies"][sym]["price"]
        cell = market.down(before)
        state["market"] = market.place(state["market"], sym, cell)
        state["companies"][sym]["price"] = cell
        log.price(state, sym, before, cell, "issued")
    else:
        state["certificates"] = shares.move(
            state["certificates"], sym, shares.POOL, shares.TREASURY, _ordinary(sym)
        )
        state["cash"] = cash.transfer(state["cash"], sym, cash.BANK, price)
    record["issued"] = True
    turn.reach(state, "issue")


# --- the words of an issue -------------------------------------------------------


def _operating(action: Action, state: State, seat: int) -> Action:
    """The line names no company: it is the operating one."""
    return {**action, "company": turn.company(state)}


# The company is the operating one, never typed (`_operating`).
OPERATING = {"company": Slot()}

ISSUE = Verb(
    type="issue",
    fields=OPERATING,
    lines=line("issue"),
    complete=_operating,
    says=N_("{who} issues a share from the treasury"),
    gloss=None,
    group=N_("Issue or redeem"),
)
REDEEM = Verb(
    type="redeem",
    fields=OPERATING,
    lines=line("redeem"),
    complete=_operating,
    says=N_("{who} redeems a share into the treasury"),
    gloss=None,
    group=N_("Issue or redeem"),
)

VERBS = (ISSUE, REDEEM)
ACTIONS = frozenset(verb.type for verb in VERBS)
