"""VII.3.9-10: trains and wagons from the bank, the pool or another company;
n-train trade-ins; emergency financing.

After the income is decided (the turn's `paid`), the company's director may
buy any number of trains and wagons it can pay (`rolling_stock`), trade one
n-train in per OR, and, from phase 3, offer another company's director a
price for one of its trains or wagons; that director accepts or refuses
(`turn.acting_account` hands them the move while the offer waits), and the
turn goes on. The step blocks while the company owns no train and the bank
or pool sells one (VII.3.9), and while an offer waits. A company that cannot
pay its forced train finances it (`emergency`) and buys the cheapest one.

| action | line |
|---|---|
| `{"type": "buy_train", "card": "3", "source": "depot", "price": 200}` | `buy 3` (`buy 3 pool`) |
| `{"type": "trade", "card": "2n", "price": 140}` | `trade 2n` |
| `{"type": "offer", "from": "MS", "card": "3", "price": 150}` | `offer MS 3 150` |
| `{"type": "accept"}` / `{"type": "refuse"}` | `accept` / `refuse` |
| `{"type": "contribute", "amount": 60}` | `contribute 60` |
| `{"type": "emergency_issue"}` | `emergency issue` |
| `{"type": "emergency_sell", "company": "HG", "count": 1}` | `emergency sell HG 1` |
| `{"type": "bankrupt"}` | `bankrupt` |
"""

from __future__ import annotations

from typing import Any

from ...base import IllegalAction
from ..data.companies import BY_SYM, in_game, symbol
from ..data.trains import BY_NAME
from ..refusals import Refused, refusal, refuse
from ..rules import cash, emergency, rolling_stock, shares, turn

NAME = "buy trains"
ACTIONS = frozenset(
    {
        "buy_train",
        "trade",
        "offer",
        "accept",
        "refuse",
        "contribute",
        "emergency_issue",
        "emergency_sell",
        "bankrupt",
    }
)
# The result's `ended_by` when a director cannot finance a forced train.
BANKRUPTCY = "bankruptcy"
# VII.3.9: trains change hands between companies only after the first 3-train.
TRADING_PHASE = 3

State = dict[str, Any]
Action = dict[str, Any]


# --- where the step stands -------------------------------------------------------


def active(state: State) -> bool:
    """After the income is decided, until a later step acted; never for the FC."""
    record = turn.current(state)
    return (
        record is not None
        and state["end"] is None
        and record["paid"] is not None
        and turn.open_at(state, "buy_train")
        and BY_SYM[record["company"]].kind in ("major", "minor")
    )


def blocking(state: State) -> bool:
    if not active(state):
        return False
    record = turn.current(state)
    assert record is not None
    return record["offer"] is not None or emergency.forced(state, record["company"])


def _sym(state: State) -> str:
    sym = turn.company(state)
    assert sym is not None
    return sym


def _financing(state: State, sym: str) -> bool:
    """The company owes its forced train to emergency financing: it could not
    pay it, or its director has begun raising the money."""
    record = turn.current(state)
    assert record is not None
    if not emergency.forced(state, sym):
        return False
    return bool(record.get("emergency")) or emergency.deficit(state, sym) > 0


# --- legal moves -------------------------------------------------------------------


def legal(state: State, seat: int) -> list[Action]:
    if not active(state):
        return []
    record = turn.current(state)
    assert record is not None
    if record["offer"] is not None:
        seller = shares.director(state["certificates"], record["offer"]["from"])
        return [{"type": "accept"}, {"type": "refuse"}] if seller == cash.player(seat) else []
    if not turn.is_director(state, seat):
        return []
    sym = _sym(state)
    if _financing(state, sym):
        out = _cheapest_buys(state, sym)
        if emergency.deficit(state, sym) > 0:
            out += _financing_moves(state, sym)
        if not record.get("emergency"):
            out += _offers(state, sym)
        return out
    return _buys(state, sym) + _trades(state, sym) + _offers(state, sym)


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


def _offers(state: State, sym: str) -> list[Action]:
    """Every card of another company of the same kind the company may offer
    for, at every price it can pay (a wagon: its face value only)."""
    if state["phase"] < TRADING_PHASE:
        return []
    out = []
    for other in _trading_partners(state, sym):
        charter = state["companies"][other]
        for card in dict.fromkeys([*charter["trains"], *charter["wagons"]]):
            if _offer_card_fault(state, sym, other, card) is None:
                out += [
                    {"type": "offer", "from": other, "card": card, "price": p}
                    for p in _offer_prices(state, sym, card)
                ]
    return out


def _trading_partners(state: State, sym: str) -> list[str]:
    kind = BY_SYM[sym].kind
    return [
        other
        for other in in_game(state["companies"])
        if other != sym
        and other in BY_SYM
        and BY_SYM[other].kind == kind
        and state["companies"][other]["floated"]
        and shares.director(state["certificates"], other) is not None
    ]


def _offer_prices(state: State, sym: str, card: str) -> list[int]:
    """The prices listed: $1, half the face value, the face value and all
    the company's money, those it can pay. Any other whole price from $1 to
    its money is as legal (the price is negotiated, VII.3.9), but a list of
    every one would run to thousands of moves: `candidates` admits them."""
    money = state["cash"][sym]
    face = rolling_stock.value(card)
    if card in rolling_stock.WAGON_BY_NAME:
        return [face] if face <= money else []
    return sorted({p for p in (1, face // 2, face, money) if 1 <= p <= money})


def candidates(state: State, seat: int, action: Action) -> list[Action]:
    """An offer at any price the company may pay, as its own candidate
    (`[action]`), when it is legal but not one of the listed prices; else
    `[]`. The engine's `candidates` asks this, as it asks the run step for
    a director's own routes."""
    if not isinstance(action, dict) or action.get("type") != "offer" or not active(state):
        return []
    record = turn.current(state)
    assert record is not None
    if record["offer"] is not None or not turn.is_director(state, seat):
        return []
    if set(action) != {"type", "from", "card", "price"}:
        return []
    sym = _sym(state)
    if _why_not_offer(state, sym, action) is not None:
        return []
    listed = (
        _offers(state, sym) if not _financing(state, sym) or not record.get("emergency") else []
    )
    return (
        [action]
        if any(a["from"] == action["from"] and a["card"] == action["card"] for a in listed)
        else []
    )


def _offer_card_fault(state: State, sym: str, other: Any, card: Any) -> IllegalAction | None:
    """Why the company may not offer for `other`'s `card`, the price aside."""
    if state["phase"] < TRADING_PHASE:
        return refuse("trains change hands between companies only after the first 3-train is sold")
    if not isinstance(other, str) or other not in _trading_partners(state, sym):
        return refuse(
            "{sym} cannot buy from {other}: trains pass only between companies of one kind",
            sym=sym,
            other=repr(other),
        )
    charter = state["companies"][other]
    if not isinstance(card, str) or card not in [*charter["trains"], *charter["wagons"]]:
        return refuse("{sym} owns no {card}", sym=other, card=repr(card))
    record = turn.current(state)
    assert record is not None
    if [other, card] in record.get("refused", []):
        return refuse("{sym} refused to sell its {card} this turn", sym=other, card=card)
    limit = rolling_stock.train_limit(state, sym)
    mine = state["companies"][sym]
    held = mine["wagons"] if card in rolling_stock.WAGON_BY_NAME else mine["trains"]
    if limit is not None and len(held) >= limit:
        return refuse(
            "{sym} is at its limit of {limit} in phase {phase}",
            sym=sym,
            limit=limit,
            phase=state["phase"],
        )
    return None


def _financing_moves(state: State, sym: str) -> list[Action]:
    """VII.3.10's order: the director's cash and the company's shares in any
    combination; then the director's sales; then bankruptcy."""
    director = _director(state, sym)
    out: list[Action] = []
    amount = emergency.contribution(state, sym, director)
    if amount > 0:
        out.append({"type": "contribute", "amount": amount})
    can_issue = emergency.issue_fault(state, sym) is None
    if can_issue:
        out.append({"type": "emergency_issue"})
    if amount == 0 and not can_issue:
        needed = emergency.deficit(state, sym)
        out += [
            {"type": "emergency_sell", "company": s, "count": n}
            for s, n in emergency.sales(state, director, needed)
        ]
    return out or [{"type": "bankrupt"}]


def _director(state: State, sym: str) -> str:
    director = shares.director(state["certificates"], sym)
    assert director is not None
    return director


# --- apply ---------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> None:
    if action not in legal(state, seat) and not candidates(state, seat, action):
        raise _why_not(state, seat, action)
    record = turn.current(state)
    assert record is not None
    sym = _sym(state)
    kind = action["type"]
    if kind in ("accept", "refuse"):
        _answer(state, record, kind == "accept")
        return
    turn.reach(state, "buy_train")
    if kind == "buy_train":
        rolling_stock.buy(state, sym, action["card"], action["source"])
    elif kind == "trade":
        rolling_stock.trade_in(state, sym, action["card"], traded_this_or=record["traded_in"])
        record["traded_in"] = True
    elif kind == "offer":
        record["offer"] = {k: action[k] for k in ("from", "card", "price")}
    elif kind == "bankrupt":
        state["end"] = {"reason": BANKRUPTCY}
    else:
        _finance(state, sym, action)
        record["emergency"] = True


def _answer(state: State, record: dict[str, Any], accepted: bool) -> None:
    offer = record["offer"]
    record["offer"] = None
    if not accepted:
        record.setdefault("refused", []).append([offer["from"], offer["card"]])
        return
    buyer, seller, card = record["company"], offer["from"], offer["card"]
    key = "wagons" if card in rolling_stock.WAGON_BY_NAME else "trains"
    state["companies"][seller][key].remove(card)
    state["companies"][buyer][key].append(card)
    state["cash"] = cash.transfer(state["cash"], buyer, seller, offer["price"])


def _finance(state: State, sym: str, action: Action) -> None:
    director = _director(state, sym)
    kind = action["type"]
    if kind == "contribute":
        emergency.contribute(state, sym, director, action["amount"])
    elif kind == "emergency_issue":
        emergency.issue(state, sym)
    else:
        emergency.sell(state, director, action["company"], action["count"])


# --- why a move is refused ---------------------------------------------------------------


def _why_not(state: State, seat: int, action: Action) -> IllegalAction:
    if not active(state):
        return refuse("no company is buying trains now")
    record = turn.current(state)
    assert record is not None
    kind = action.get("type")
    offer = record["offer"]
    if kind in ("accept", "refuse"):
        if offer is None:
            return refuse("there is no offer to answer")
        return refuse(
            "only the director of {sym} answers the offer for its {card}",
            sym=offer["from"],
            card=offer["card"],
        )
    if offer is not None:
        return refuse(
            "first the director of {sym} accepts or refuses the offer", sym=offer["from"]
        )
    if not turn.is_director(state, seat):
        return refuse("only the director of {sym} buys its trains", sym=str(record["company"]))
    sym = _sym(state)
    why = {
        "buy_train": _why_not_buy,
        "trade": _why_not_trade,
        "offer": _why_not_offer,
    }.get(str(kind), _why_not_finance)(state, sym, action)
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
    if _financing(state, sym):
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
    if _financing(state, sym):
        return refuse("{sym} must first buy the train it lacks", sym=sym)
    fault = rolling_stock.trade_in_fault(state, sym, card, traded_this_or=record["traded_in"])
    if fault:
        return fault
    return refuse(
        "the trade-in costs ${price}", price=rolling_stock.trade_in_price(state, sym, card)
    )


def _why_not_offer(state: State, sym: str, action: Action) -> IllegalAction | None:
    record = turn.current(state)
    assert record is not None
    if record.get("emergency"):
        return refuse("a train bought with emergency financing comes from the bank or the pool")
    other, card, price = action.get("from"), action.get("card"), action.get("price")
    fault = _offer_card_fault(state, sym, other, card)
    if fault:
        return fault
    if not isinstance(price, int) or isinstance(price, bool) or price < 1:
        return refuse(
            "the price is a whole number of dollars, at least $1, not {price}", price=repr(price)
        )
    if card in rolling_stock.WAGON_BY_NAME and price != rolling_stock.value(str(card)):
        return refuse(
            "wagons change hands at face value only: ${value}",
            value=rolling_stock.value(str(card)),
        )
    if price > state["cash"][sym]:
        return refuse("{sym} has ${cash}", sym=sym, cash=state["cash"][sym])
    return None


def _why_not_finance(state: State, sym: str, action: Action) -> Refused | None:
    kind = action.get("type")
    if not _financing(state, sym) or emergency.deficit(state, sym) == 0:
        return refuse("{sym} needs no emergency financing now", sym=sym)
    director = _director(state, sym)
    if kind == "contribute":
        return refuse(
            "the director pays in ${amount}",
            amount=emergency.contribution(state, sym, director),
        )
    if kind == "emergency_issue":
        return emergency.issue_fault(state, sym)
    if kind == "emergency_sell":
        if state["cash"][director] > 0 or emergency.issue_fault(state, sym) is None:
            return refuse(
                "the director sells shares only after paying in all their cash and issuing"
            )
        sym_sold, count = action.get("company"), action.get("count")
        if not isinstance(sym_sold, str) or not isinstance(count, int):
            return refuse("name a company and a number of shares")
        return emergency.sale_fault(
            state, director, sym_sold, count, emergency.deficit(state, sym)
        )
    if kind == "bankrupt":
        return refuse("the director can still raise the money")
    return None


# --- mail lines ---------------------------------------------------------------------------


def text(action: Action) -> str:
    kind = action.get("type")
    if kind == "buy_train":
        pool = " pool" if action.get("source") == "pool" else ""
        return f"buy {action['card']}{pool}"
    if kind == "trade":
        return f"trade {action['card']}"
    if kind == "offer":
        return f"offer {action['from']} {action['card']} {action['price']}"
    if kind == "contribute":
        return f"contribute {action['amount']}"
    if kind == "emergency_issue":
        return "emergency issue"
    if kind == "emergency_sell":
        return f"emergency sell {action['company']} {action['count']}"
    if kind in ("accept", "refuse", "bankrupt"):
        return str(kind)
    raise refuse("{kind} is not a train purchase", kind=repr(kind))


def parse(words: list[str], state: State, seat: int) -> Action | None:
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head in ("accept", "refuse", "bankrupt") and not rest:
        return {"type": head}
    sym = turn.company(state)
    if sym is None:
        return None
    if head == "buy" and len(rest) in (1, 2):
        card = _card(rest[0])
        source: rolling_stock.Source = "pool" if rest[1:] == ["pool"] else "depot"
        if rest[1:] not in ([], ["pool"], ["bank"], ["depot"]):
            raise refuse("buy a train from the bank (buy 3) or the pool (buy 3 pool)")
        price = rolling_stock.purchase_price(state, sym, card, source)
        return {"type": "buy_train", "card": card, "source": source, "price": price}
    if head == "trade" and len(rest) == 1:
        card = _card(rest[0])
        if (
            not rolling_stock.is_train(card)
            or rolling_stock.train_card(card).name not in rolling_stock.NEXT_NARROW
        ):
            raise refuse("there is no n-train type after the {card}", card=card)
        price = rolling_stock.trade_in_price(state, sym, card)
        return {"type": "trade", "card": card, "price": price}
    if head == "offer" and len(rest) == 3:
        card = _card(rest[1])
        seller = symbol(state["companies"], rest[0])
        return {"type": "offer", "from": seller, "card": card, "price": _number(rest[2])}
    if head == "contribute" and len(rest) == 1:
        return {"type": "contribute", "amount": _number(rest[0])}
    if head == "emergency" and rest == ["issue"]:
        return {"type": "emergency_issue"}
    if head == "emergency" and len(rest) == 3 and rest[0] == "sell":
        sold = symbol(state["companies"], rest[1])
        return {"type": "emergency_sell", "company": sold, "count": _number(rest[2])}
    return None


_CARDS = {
    name.lower(): name
    for name in [*BY_NAME, *rolling_stock.OBSOLETE, *rolling_stock.WAGON_BY_NAME]
}


def _card(word: str) -> str:
    if word.lower() not in _CARDS:
        raise refuse("there is no train or wagon {card}", card=repr(word))
    return _CARDS[word.lower()]


def _number(word: str) -> int:
    if not word.isdigit():
        raise refuse("{word} is not a whole number", word=repr(word))
    return int(word)
