"""The commissioners' auction (draft IV.1, VI.6): C1 to C6 in ascending order.

The auction of the k-th card is opened by the player at position k-1 of the
playing order, who must bid (at least $0). Bids are multiples of $5, above
the high bid, at most the bidder's cash; the turn goes round in playing
order and a player who passes is out of that card's auction. When all others
have passed, the high bidder pays the bank and takes the card.

Round data (`state["round"]["steps"]["auction"]`):
    card     the card under auction ("C1"), None once C6 is sold
    starter  the seat that opened it (may not pass before bidding)
    bid      the high bid, None until the starter has bid
    leader   the seat holding the high bid
    passed   the seats out of this card's auction
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..refusals import WORDS, refuse
from ..rules import cash, log
from ..rules.privates import COMMISSIONERS
from ..words.names import fit, money, private
from . import PASS

_ = WORDS.gettext

NAME = "bid for the commissioner"
KEY = "auction"
STEP = 5  # every bid is a multiple of $5

State = dict[str, Any]
Action = dict[str, Any]
CARDS = tuple(c.card for c in COMMISSIONERS)


def begin(state: State) -> None:
    """The round's set-up: C1, opened by the first player in playing order."""
    _open(state, 0)


def over(state: State) -> bool:
    return state["round"]["steps"][KEY]["card"] is None


def _open(state: State, index: int) -> None:
    data: dict[str, Any] = {"card": None, "starter": None, "bid": None, "leader": None}
    data["passed"] = []
    state["round"]["steps"][KEY] = data
    if index >= len(CARDS):
        state["round"]["entity"] = None
        return
    order = state["order"]
    starter = order[index % len(order)]
    data.update(card=CARDS[index], starter=starter)
    state["round"]["entity"] = cash.player(starter)


def _data(state: State) -> dict[str, Any]:
    return state["round"]["steps"][KEY]


def _to_act(state: State) -> int | None:
    entity = state["round"]["entity"]
    return int(entity[1:]) if isinstance(entity, str) and entity.startswith("p") else None


def active(state: State) -> bool:
    return state["round"]["kind"] == "auction" and _data(state)["card"] is not None


def blocking(state: State) -> bool:
    return True


def minimum(state: State) -> int:
    bid = _data(state)["bid"]
    return 0 if bid is None else bid + STEP


def may_pass(state: State) -> bool:
    """The starter opens with a bid; once outbid they may pass like anyone."""
    return _data(state)["bid"] is not None


def legal(state: State, seat: int) -> list[Action]:
    if not active(state) or _to_act(state) != seat:
        return []
    data = _data(state)
    money = state["cash"][cash.player(seat)]
    bids = [
        {"type": "bid", "card": data["card"], "amount": amount}
        for amount in range(minimum(state), money + 1, STEP)
    ]
    return bids + ([{"type": "pass"}] if may_pass(state) else [])


def apply(state: State, seat: int, action: Action) -> None:
    if not active(state):
        raise refuse("no commissioner is being auctioned")
    if _to_act(state) != seat:
        raise refuse("it is not your turn to bid")
    data = _data(state)
    if action["type"] == "pass":
        if not may_pass(state):
            raise refuse(
                "you open the auction of {card} and may not pass: bid at least $0",
                card=data["card"],
            )
        data["passed"].append(seat)
    else:
        _check_bid(state, seat, action)
        data["bid"], data["leader"] = action["amount"], seat
    _next(state, seat)


def _check_bid(state: State, seat: int, action: Action) -> None:
    data = _data(state)
    if action.get("card") != data["card"]:
        raise refuse(
            "{card} is being auctioned, not {named}",
            card=data["card"],
            named=repr(action.get("card")),
        )
    amount = action.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise refuse("a bid is a whole number of dollars, e.g. bid C1 35")
    if amount % STEP:
        raise refuse("bids are multiples of ${step}: ${amount} is not", step=STEP, amount=amount)
    low = minimum(state)
    if amount < low:
        if data["bid"] is None:
            raise refuse("the lowest bid is ${low}", low=low)
        raise refuse(
            "the lowest bid is ${low}, above the high bid of ${bid}", low=low, bid=data["bid"]
        )
    money = state["cash"][cash.player(seat)]
    if amount > money:
        raise refuse("you have ${money}; you cannot bid ${amount}", money=money, amount=amount)


def _next(state: State, seat: int) -> None:
    """The next bidder in playing order, or the sale when all others passed."""
    data = _data(state)
    order = state["order"]
    staying = [s for s in order if s not in data["passed"]]
    if staying == [data["leader"]]:
        _sell(state)
        return
    at = order.index(seat)
    for k in range(1, len(order) + 1):
        candidate = order[(at + k) % len(order)]
        if candidate not in data["passed"]:
            state["round"]["entity"] = cash.player(candidate)
            return


def _sell(state: State) -> None:
    data = _data(state)
    winner = cash.player(data["leader"])
    state["cash"] = cash.transfer(state["cash"], winner, cash.BANK, data["bid"])
    state["privates"][data["card"]]["owner"] = winner
    log.note(state, "sold", card=data["card"], account=winner, price=data["bid"])
    _open(state, CARDS.index(data["card"]) + 1)


# --- the words of a bid ------------------------------------------------------


def _bid_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} bids {amount} for {card}").format(
        who=who, amount=money(action["amount"]), card=private(action["card"])
    )


def _bid_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    return fit(private(action["card"]))


BID = Verb(
    type="bid",
    fields={
        "card": Slot(read=lambda word, state: word.upper()),
        "amount": Slot(pattern="[0-9]+", read=lambda word, state: int(word)),
    },
    lines=line("bid {card} {amount}"),
    usage=((r"bid(?: .*)?", N_("a bid reads: bid C1 35")),),
    says=_bid_says,
    gloss=_bid_gloss,
    group=N_("Bids"),
)

VERBS = (BID, PASS)
ACTIONS = frozenset(verb.type for verb in VERBS)
