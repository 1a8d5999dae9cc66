"""18Cuba's standing orders: the rounds named for orders, and the
programmed actions of the 18xx anchors (docs/orders.md).

- `stock_pass`: pass for the rest of a stock round, unless another player
  sells a share of a company I direct (then the order is dropped and I am
  told, for I may want to buy it back cheap or defend the company);
- `auction_pass`: in the commissioners' auction, pass on every card whose
  lowest bid is above a price (at or below it, I decide myself);
- `dividend`: pay out or retain a company's income whenever it runs.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import IllegalAction
from ..orders import Decision, Order, Phases, Programme, drop, fire, lapse, only, wait
from .rules import shares
from .rules.cash import player
from .steps import auction, dividend

State = dict[str, Any]

# Where the game is: (0, 0, 0) the auction, (0, 1, 0) the concessions,
# (n, 0, 0) stock round n, (n, 1, i) operating round i of set n.
_SR = re.compile(r"\s*SR\s*(\d{1,3})\s*", re.IGNORECASE)
_OR = re.compile(r"\s*OR\s*(\d{1,3})\.(\d)\s*", re.IGNORECASE)


def phase(state: State) -> tuple[int, ...]:
    kind, number, index = (state["round"][k] for k in ("kind", "number", "index"))
    if kind == "auction":
        return (0, 0, 0)
    if kind == "concessions":
        return (0, 1, 0)
    if kind == "stock":
        return (number, 0, 0)
    return (number, 1, index)


def phase_words(key: tuple[int, ...]) -> str:
    if key[0] == 0:
        return "the auction" if key[1] == 0 else "the concessions"
    return f"SR {key[0]}" if key[1] == 0 else f"OR {key[0]}.{key[2]}"


def phase_read(text: str) -> tuple[int, ...] | None:
    words = text.strip().lower()
    if words in ("auction", "the auction"):
        return (0, 0, 0)
    if words in ("concessions", "the concessions"):
        return (0, 1, 0)
    if found := _SR.fullmatch(text):
        return (int(found.group(1)), 0, 0)
    if found := _OR.fullmatch(text):
        return (int(found.group(1)), 1, int(found.group(2)))
    return None


PHASES = Phases(key=phase, words=phase_words, read=phase_read)


def _directed(state: State, seat: int) -> set[str]:
    me = player(seat)
    return {c for c in state["companies"] if shares.director(state["certificates"], c) == me}


def _sales(state: State, seat: int) -> list[list[str]]:
    """[player, company] for each share another player sold this stock round."""
    if state["round"]["kind"] != "stock":
        return []
    sold = state["round"]["steps"].get("stock", {}).get("sold", {})
    me = player(seat)
    return sorted([who, c] for who, companies in sold.items() if who != me for c in companies)


# --- stock_pass ----------------------------------------------------------------------


def _stock_legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ())
    kind, number = state["round"]["kind"], state["round"]["number"]
    target = number if kind == "stock" else number + 1 if kind == "operating" else 1
    return {"kind": "stock_pass", "round": target, "seen": _sales(state, seat)}


def _stock_decide(engine: Any, state: State, seat: int, order: Order, previous: Any) -> Decision:
    now, named = phase(state), (order["round"], 0, 0)
    if now < named:
        return wait()
    if now > named:
        return lapse(f"stock round SR {order['round']} is over")
    mine = _directed(state, seat)
    seen = [tuple(sale) for sale in order.get("seen", [])]
    for who, company in _sales(state, seat):
        if company in mine and (who, company) not in seen:
            return drop(f"{who} sold a share of {company}, which you direct")
    return fire({"type": "pass"}, done=False)


STOCK_PASS = Programme(
    kind="stock_pass",
    summary="pass for the rest of the stock round, unless someone sells a share of my company",
    legal=_stock_legal,
    describe=lambda order: (
        f"pass for the rest of SR {order['round']}, unless someone "
        "sells a share of a company I direct"
    ),
    decide=_stock_decide,
)


# --- auction_pass --------------------------------------------------------------------


def _price(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= 100_000:
        raise IllegalAction("price is a whole number of dollars")
    return value


def _auction_legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ("price",))
    if state["round"]["kind"] != "auction":
        raise IllegalAction("the commissioners' auction is over")
    return {"kind": "auction_pass", "price": _price(order.get("price"))}


def _auction_decide(engine: Any, state: State, seat: int, order: Order, previous: Any) -> Decision:
    if state["round"]["kind"] != "auction":
        return lapse("the commissioners' auction is over")
    if not auction.active(state) or not auction.may_pass(state):
        return wait()
    if auction.minimum(state) > order["price"]:
        return fire({"type": "pass"}, done=False)
    return wait()


AUCTION_PASS = Programme(
    kind="auction_pass",
    summary="in the auction, pass on every card whose lowest bid is above a price",
    legal=_auction_legal,
    describe=lambda order: f"in the auction, pass on every card above ${order['price']}",
    decide=_auction_decide,
    fields={"price": "int"},
    required=("price",),
)


# --- dividend ------------------------------------------------------------------------


def _dividend_legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ("company", "choice"))
    company, choice = order.get("company"), order.get("choice")
    if choice not in ("payout", "retain"):
        raise IllegalAction('choice is "payout" or "retain"')
    if not isinstance(company, str) or company not in _directed(state, seat):
        raise IllegalAction("name a company you direct")
    return {"kind": "dividend", "company": company, "choice": choice}


def _dividend_decide(
    engine: Any, state: State, seat: int, order: Order, previous: Any
) -> Decision:
    company = order["company"]
    if company not in _directed(state, seat):
        return drop(f"you no longer direct {company}")
    if state["round"]["kind"] != "operating" or state["round"]["entity"] != company:
        return wait()
    if not dividend.active(state):
        return wait()
    return fire({"type": order["choice"]}, done=False)


DIVIDEND = Programme(
    kind="dividend",
    summary="pay out or retain a company's income whenever it runs",
    legal=_dividend_legal,
    describe=lambda order: (
        f"{'pay out' if order['choice'] == 'payout' else 'retain'} "
        f"{order['company']}'s income whenever it runs"
    ),
    decide=_dividend_decide,
    fields={"company": "str", "choice": "choice:payout|retain"},
    required=("company", "choice"),
)

PROGRAMMES = (STOCK_PASS, AUCTION_PASS, DIVIDEND)
