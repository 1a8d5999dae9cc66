"""Havana's standing orders: rounds named `round N` for orders, and
`cards`: choose these two cards at my next card choice, if I still hold them.

Round 1 chooses two cards from the hand (`choose`); every later round
replaces one of the two shown (`replace`), so "these two" is played as the
replacement that leaves exactly them shown.  The order is dropped when that
cannot be: a card no longer in hand, or both already shown (one must go).
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from ..orders import Decision, Order, Programme, drop, fire, lapse, numbered, only, wait

State = dict[str, Any]

PHASES = numbered("round", lambda state: state["round"])
CHOOSING = ("choose", "replace")


def _held(state: State, seat: int) -> set[str]:
    mine = state["seats"][seat]
    return set(mine["hand"]) | set(mine["cards"])


def _legal(engine: Any, state: State, seat: int, order: Order) -> Order:
    only(order, ("cards",))
    cards = order.get("cards")
    if (
        not isinstance(cards, list)
        or len(cards) != 2
        or not all(isinstance(c, str) for c in cards)
        or cards[0] == cards[1]
    ):
        raise IllegalAction("cards are two different cards of your hand")
    missing = [c for c in cards if c not in _held(state, seat)]
    if missing:
        raise IllegalAction(f"you do not hold card {missing[0][:10]}")
    choosing_now = state["phase"] in CHOOSING and seat in engine.to_act(state)
    target = state["round"] if choosing_now else state["round"] + 1
    return {"kind": "cards", "cards": sorted(cards), "round": target}


def _decide(engine: Any, state: State, seat: int, order: Order, previous: Any) -> Decision:
    if state["round"] < order["round"]:
        return wait()
    if state["round"] > order["round"] or state["phase"] not in CHOOSING:
        return lapse(f"round {order['round']}'s choice of cards is over")
    wanted = set(order["cards"])
    mine = state["seats"][seat]
    gone = sorted(wanted - set(mine["hand"]) - set(mine["cards"]))
    if gone:
        return drop(f"card {gone[0]} is no longer in your hand")
    for action in engine.legal_actions(state, seat):
        if action["type"] == "choose" and set(action["cards"]) == wanted:
            return fire(action)
        if (
            action["type"] == "replace"
            and {action["card"]} | (set(mine["cards"]) - {action["cover"]}) == wanted
        ):
            return fire(action)
    return drop("no move this round leaves exactly these two cards shown")


CARDS = Programme(
    kind="cards",
    summary="choose these two cards next round, if I still hold them",
    legal=_legal,
    describe=lambda order: (
        f"choose cards {order['cards'][0]} and {order['cards'][1]} "
        f"in round {order['round']}, if still in hand"
    ),
    decide=_decide,
    fields={"cards": "cards"},
    required=("cards",),
)

PROGRAMMES = (CARDS,)
