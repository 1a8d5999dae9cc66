"""VII.3.9: trains and wagons between companies.

From phase 3 the director of the company buying trains may offer another
company's director a price for one of its trains or wagons; that director
accepts or refuses (`turn.acting_account` hands them the move while the
offer waits), and the turn goes on. An offer refused is not made again this
turn, so a turn of offers always ends. A company financing its forced train
in an emergency (`steps.emergency`) buys it from the bank or the pool.

The last of the train purchase's three steps (see `steps.buy_train`), so it
blocks for all three: the steps after them wait while the company must own
a train and the bank or the pool sells one (VII.3.9), and while an offer
waits.

| action | line |
|---|---|
| `{"type": "offer", "from": "MS", "card": "3", "price": 150}` | `offer MS 3 150` |
| `{"type": "accept"}` / `{"type": "refuse"}` | `accept` / `refuse` |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...base import IllegalAction
from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data.companies import BY_SYM, in_game, symbol
from ..refusals import WORDS, refusal, refuse
from ..rules import cash, emergency, rolling_stock, shares, turn
from ..words.names import card_name, company, fit, money

_ = WORDS.gettext

NAME = "buy trains"
# VII.3.9: trains change hands between companies only after the first 3-train.
TRADING_PHASE = 3

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    return turn.buying_trains(state)


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
    if emergency.financing(state, sym) and record.get("emergency"):
        return []
    return _offers(state, sym)


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
        _offers(state, sym)
        if not emergency.financing(state, sym) or not record.get("emergency")
        else []
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


# --- apply ---------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> None:
    if action not in legal(state, seat) and not candidates(state, seat, action):
        raise _why_not(state, seat, action)
    record = turn.current(state)
    assert record is not None
    if action["type"] == "offer":
        turn.reach(state, "buy_train")
        record["offer"] = {k: action[k] for k in ("from", "card", "price")}
    else:
        _answer(state, record, action["type"] == "accept")


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


# --- why a move is refused ---------------------------------------------------------------


def _why_not(state: State, seat: int, action: Action) -> IllegalAction:
    record = turn.current(state)
    if turn.buying_trains(state) and action.get("type") in ("accept", "refuse"):
        assert record is not None
        offer = record["offer"]
        if offer is None:
            return refuse("there is no offer to answer")
        return refuse(
            "only the director of {sym} answers the offer for its {card}",
            sym=offer["from"],
            card=offer["card"],
        )
    before = turn.purchase_refusal(state, seat)
    if before is not None:
        return before
    why = _why_not_offer(state, _sym(state), action)
    if why:
        return refusal(why)
    return refuse("that {kind} is not a legal move now", kind=str(action.get("type")))


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


# --- the words of an offer -----------------------------------------------------------------


def _number(word: str, state: State) -> int:
    if not word.isdigit():
        raise refuse("{word} is not a whole number", word=repr(word))
    return int(word)


def _offer_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} offers {price} for {company}'s {card}").format(
        who=who,
        price=money(action["price"]),
        company=company(action["from"]),
        card=card_name(action["card"]),
    )


def _offer_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    return fit(BY_SYM[action["from"]].name) if action.get("from") in BY_SYM else None


OFFER = Verb(
    type="offer",
    fields={
        "from": Slot(read=lambda word, state: symbol(state["companies"], word)),
        "card": Slot(read=lambda word, state: rolling_stock.card_named(word)),
        "price": Slot(read=_number),
    },
    lines=line("offer {from} {card} {price}"),
    says=_offer_says,
    gloss=_offer_gloss,
    group=N_("Trains"),
)
ACCEPT = Verb(
    type="accept",
    fields={},
    lines=line("accept"),
    says=N_("{who} accepts the offer"),
    gloss=None,
    group=N_("Offer"),
)
REFUSE = Verb(
    type="refuse",
    fields={},
    lines=line("refuse"),
    says=N_("{who} refuses the offer"),
    gloss=None,
    group=N_("Offer"),
)

VERBS = (OFFER, ACCEPT, REFUSE)
ACTIONS = frozenset(verb.type for verb in VERBS)
