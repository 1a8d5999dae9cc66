"""The Estates' standing orders: rounds named `round N` for orders, and
`bid`: in the auction under way (or about to open), bid the lowest amount
whenever it is at most N, and pass once it is above."""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from ..orders import Decision, Order, Programme, fire, lapse, numbered, only, wait

State = dict[str, Any]

PHASES = numbered("round", lambda state: state["round"])


def _legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ("amount",))
    amount = order.get("amount")
    if type(amount) is not int or not 1 <= amount <= 10_000:
        raise IllegalAction("amount is a whole number of at least 1")
    if state["phase"] not in ("start", "bid"):
        raise IllegalAction("write a bid order while an auction opens or runs")
    return {"kind": "bid", "amount": amount, "auction": [state["round"], state["turn"]]}


def _decide(engine: Any, state: State, seat: int, order: Order, previous: Any) -> Decision:
    now, named = [state["round"], state["turn"]], order["auction"]
    if now > named:
        return lapse("the auction it was written for is over")
    if now < named or state["phase"] != "bid":
        return wait()
    amount = (state["auction"] or {}).get("high", 0) + 1
    if amount <= order["amount"] and {"type": "bid", "amount": amount} in engine.legal_actions(
        state, seat
    ):
        return fire({"type": "bid", "amount": amount}, done=False)
    return fire({"type": "pass"})


BID = Programme(
    kind="bid",
    summary="in this auction, bid up to an amount (the lowest bid each time), then pass",
    legal=_legal,
    describe=lambda order: f"bid up to {order['amount']} in this auction, then pass",
    decide=_decide,
    fields={"amount": "int"},
    required=("amount",),
)

PROGRAMMES = (BID,)
