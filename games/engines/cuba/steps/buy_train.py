"""VII.3.9: trains and wagons from the bank or the pool; n-train trade-ins.

After the income is decided (the turn's `paid`), the company's director may
buy any number of trains and wagons it can pay (`rolling_stock`) and trade
one n-train in per OR. A company that must own a train (`emergency.forced`)
and cannot pay it buys the cheapest one the bank or the pool sells, with the
money `steps.emergency` raises.

The train purchase is three steps, in this order in the operating round:
this one, `emergency` (VII.3.10) and `offer` (trains from another company).
All three are active while the company is buying (`turn.buying_trains`);
the last, `offer`, blocks the steps after them while the company must buy
a train or an offer waits, since a blocking step hides every later one.

| action | line |
|---|---|
| `{"type": "buy_train", "card": "3", "source": "depot", "price": 200}` | `buy 3` (`buy 3 pool`) |
| `{"type": "trade", "card": "2n", "price": 140}` | `trade 2n` |
"""

from __future__ import annotations

from typing import Any

from ...base import IllegalAction
from ..data.companies import BY_SYM
from ..refusals import Refused, refusal, refuse
from ..rules import emergency, rolling_stock, turn

NAME = "buy trains"
ACTIONS = frozenset({"buy_train", "trade"})

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    return turn.buying_trains(state)


def blocking(state: State) -> bool:
    """Never on its own: `offer`, the purchase's last step, blocks for all three."""
    return False


def _sym(state: State) -> str:
    sym = turn.company(state)
    assert sym is not None
    return sym


# --- legal moves -------------------------------------------------------------------


def legal(state: State, seat: int) -> list[Action]:
    if not active(state):
        return []
    record = turn.current(state)
    assert record is not None
    if record["offer"] is not None or not turn.is_director(state, seat):
        return []
    sym = _sym(state)
    if emergency.financing(state, sym):
        return _cheapest_buys(state, sym)
    return _buys(state, sym) + _trades(state, sym)


def _buy_action(state: State, sym: str, offer: rolling_stock.Offer) -> Action:
    price = rolling_stock.purchase_price(state, sym, offer.card, offer.source)
    return {"type": "buy_train", "card": offer.card, "source": offer.source, "price": price}


def _buys(state: State, sym: str) -> list[Action]:
    offers = rolling_stock.depot_offers(state, sym) + rolling_stock.pool_offers(state, sym)
    # A company without a train buys a train first: its money is not spent
    # on a wagon before the train it must own.
    trainless = not state["companies"][sym]["trains"]
    return [
        _buy_action(state, sym, o)
        for o in offers
        if not o.card.startswith("machine-")
        and not (trainless and not rolling_stock.is_train(o.card))
        and rolling_stock.purchase_fault(state, sym, o.card, o.source) is None
    ]


def _cheapest_buys(state: State, sym: str) -> list[Action]:
    """VII.3.10: a financed train is the cheapest the bank or pool sells."""
    price = emergency.cheapest(state, sym)
    return [
        _buy_action(state, sym, o)
        for o in emergency.train_offers(state, sym)
        if o.price == price and rolling_stock.purchase_fault(state, sym, o.card, o.source) is None
    ]


def _trades(state: State, sym: str) -> list[Action]:
    record = turn.current(state)
    assert record is not None
    if record["traded_in"] or BY_SYM[sym].kind != "minor":
        return []
    return [
        {"type": "trade", "card": o.card, "price": o.price}
        for o in rolling_stock.trade_in_offers(state, sym)
    ]


# --- apply ---------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> None:
    if action not in legal(state, seat):
        raise _why_not(state, seat, action)
    record = turn.current(state)
    assert record is not None
    sym = _sym(state)
    turn.reach(state, "buy_train")
    if action["type"] == "buy_train":
        rolling_stock.buy(state, sym, action["card"], action["source"])
    else:
        rolling_stock.trade_in(state, sym, action["card"], traded_this_or=record["traded_in"])
        record["traded_in"] = True


# --- why a move is refused ---------------------------------------------------------------


def _why_not(state: State, seat: int, action: Action) -> IllegalAction:
    before = turn.purchase_refusal(state, seat)
    if before is not None:
        return before
    sym = _sym(state)
    kind = action.get("type")
    why = (_why_not_buy if kind == "buy_train" else _why_not_trade)(state, sym, action)
    if why:
        return refusal(why)
    return refuse("that {kind} is not a legal move now", kind=str(kind))


def _why_not_buy(state: State, sym: str, action: Action) -> Refused | None:
    card, source = action.get("card"), action.get("source")
    if not isinstance(card, str):
        return refuse("there is no train or wagon {card}", card=repr(card))
    if source not in ("depot", "pool"):
        return refuse(
            'trains are bought from the bank ("depot") or the pool ("pool"), not {source}',
            source=repr(source),
        )
    fault = rolling_stock.purchase_fault(state, sym, card, source)
    if fault:
        return fault
    if emergency.financing(state, sym):
        return refuse(
            "a train bought with emergency financing is the cheapest from the bank or the "
            "pool: ${price}",
            price=emergency.cheapest(state, sym),
        )
    if not state["companies"][sym]["trains"] and not rolling_stock.is_train(str(card)):
        return refuse("{sym} owns no train: it buys a train first", sym=sym)
    price = rolling_stock.purchase_price(state, sym, str(card), source)
    return refuse(
        "the {card} costs ${price}, not {named}",
        card=card,
        price=price,
        named=repr(action.get("price")),
    )


def _why_not_trade(state: State, sym: str, action: Action) -> Refused | None:
    record = turn.current(state)
    assert record is not None
    card = action.get("card")
    if not isinstance(card, str):
        return refuse("{sym} owns no {card}", sym=sym, card=repr(card))
    if emergency.financing(state, sym):
        return refuse("{sym} must first buy the train it lacks", sym=sym)
    fault = rolling_stock.trade_in_fault(state, sym, card, traded_this_or=record["traded_in"])
    if fault:
        return fault
    return refuse(
        "the trade-in costs ${price}", price=rolling_stock.trade_in_price(state, sym, card)
    )


# --- mail lines ---------------------------------------------------------------------------


def text(action: Action) -> str:
    kind = action.get("type")
    if kind == "buy_train":
        pool = " pool" if action.get("source") == "pool" else ""
        return f"buy {action['card']}{pool}"
    if kind == "trade":
        return f"trade {action['card']}"
    raise refuse("{kind} is not a train purchase", kind=repr(kind))


def parse(words: list[str], state: State, seat: int) -> Action | None:
    if not words:
        return None
    head, rest = words[0], words[1:]
    sym = turn.company(state)
    if sym is None:
        return None
    if head == "buy" and len(rest) in (1, 2):
        card = rolling_stock.card_named(rest[0])
        source: rolling_stock.Source = "pool" if rest[1:] == ["pool"] else "depot"
        if rest[1:] not in ([], ["pool"], ["bank"], ["depot"]):
            raise refuse("buy a train from the bank (buy 3) or the pool (buy 3 pool)")
        price = rolling_stock.purchase_price(state, sym, card, source)
        return {"type": "buy_train", "card": card, "source": source, "price": price}
    if head == "trade" and len(rest) == 1:
        card = rolling_stock.card_named(rest[0])
        if (
            not rolling_stock.is_train(card)
            or rolling_stock.train_card(card).name not in rolling_stock.NEXT_NARROW
        ):
            raise refuse("there is no n-train type after the {card}", card=card)
        price = rolling_stock.trade_in_price(state, sym, card)
        return {"type": "trade", "card": card, "price": price}
    return None
