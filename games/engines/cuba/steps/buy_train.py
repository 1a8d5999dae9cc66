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

from collections.abc import Sequence
from typing import Any

from ...base import IllegalAction, same_json
from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data.companies import BY_SYM
from ..refusals import WORDS, Refused, refusal, refuse
from ..rules import emergency, rolling_stock, turn
from ..rules.rolling_stock import NEXT_NARROW
from ..words.names import card_name, fit, money

_ = WORDS.gettext

NAME = "buy trains"

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
    if not any(same_json(a, action) for a in legal(state, seat)):
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


# --- the words of a purchase ---------------------------------------------------------------
#
# A line names the card (and where it comes from); the price is the one the
# rules set now, so a line never names it.


def _depot_or_pool(word: str, state: State) -> str:
    if word in ("", "bank", "depot"):
        return "depot"
    if word != "pool":
        raise refuse("buy a train from the bank (buy 3) or the pool (buy 3 pool)")
    return "pool"


def _purchase_price(action: Action, state: State, seat: int) -> Action:
    price = rolling_stock.purchase_price(state, _sym(state), action["card"], action["source"])
    return {**action, "price": price}


def _bought(action: Action, who: str, names: Sequence[str]) -> str:
    """A train or wagon bought, from the depot or the bank pool, at a price."""
    price = action.get("price")
    pool = action.get("source") == "pool"
    if pool and price is not None:
        text = _("{who} buys a {card} from the bank pool for {price}")
    elif pool:
        text = _("{who} buys a {card} from the bank pool")
    elif price is not None:
        text = _("{who} buys a {card} for {price}")
    else:
        text = _("{who} buys a {card}")
    return text.format(who=who, card=card_name(action["card"]), price=money(price))


def _priced(kind: str) -> Any:
    """A train's source and price after its line (a trade-in's: the card
    it becomes and what the minor pays on top)."""

    def gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
        if not isinstance(action.get("price"), int):
            return None
        if action.get("source") == "pool":
            text = _("{card} from the bank pool for {price}")
        elif kind == "trade":
            # the card is the minor's old n-train, the price what it pays on top
            text = _("{card} for a {new}, {price} on top")
        else:
            text = _("{card} from the depot for {price}")
        new = NEXT_NARROW.get(action["card"], "?")  # a trade's; other texts ignore it
        return fit(text.format(card=action["card"], price=money(action["price"]), new=new))

    return gloss


# The card a line names, in any case ("2N" is the 2n).
CARD = Slot(read=lambda word, state: rolling_stock.card_named(word))

BUY_TRAIN = Verb(
    type="buy_train",
    fields={
        "card": CARD,
        # the bank's (no word, "bank" or "depot") or the pool's
        "source": Slot(
            write=lambda source: "pool" if source == "pool" else "",
            read=_depot_or_pool,
            optional=True,
        ),
        "price": Slot(),  # the rules' price now (`_purchase_price`)
    },
    lines=line("buy {card} {source}"),
    complete=_purchase_price,
    says=_bought,
    gloss=_priced("buy_train"),
    group=N_("Trains"),
)


def _n_train(word: str, state: State) -> str:
    name = rolling_stock.card_named(word)
    if not rolling_stock.is_train(name) or rolling_stock.train_card(name).name not in NEXT_NARROW:
        raise refuse("there is no n-train type after the {card}", card=name)
    return name


def _trade_in_price(action: Action, state: State, seat: int) -> Action:
    return {**action, "price": rolling_stock.trade_in_price(state, _sym(state), action["card"])}


def _trade_says(action: Action, who: str, names: Sequence[str]) -> str:
    old = action["card"]
    return _("{who} trades in {old} for {new}").format(
        who=who, old=card_name(old), new=card_name(NEXT_NARROW.get(str(old), "?"))
    )


TRADE = Verb(
    type="trade",
    fields={"card": Slot(read=_n_train), "price": Slot()},
    lines=line("trade {card}"),
    complete=_trade_in_price,
    says=_trade_says,
    gloss=_priced("trade"),
    group=N_("Trains"),
)

VERBS = (BUY_TRAIN, TRADE)
ACTIONS = frozenset(verb.type for verb in VERBS)
