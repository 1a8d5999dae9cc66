"""The flow of a round: simultaneous card choices, turns, resupply, the end.

Phase 0 (first round only) and phase 3 are simultaneous hidden choices: a
seat's choice waits in ``pending`` and nothing else changes until every
active seat has chosen, so the open parts of the state (hands included) give
nothing away.  Phase 1 walks the turn order; a turn is the player's face-up
cards carried out one at a time in the order they pick, then purchases until
an explicit end of turn.  Phase 2 (resupply) has no decision and runs when
the last turn ends.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..base import State
from . import actions as card_rules
from . import buying, data
from .order import arrange, turn_order
from .setup import draw

Action = dict[str, Any]


def active_seats(state: State) -> list[int]:
    return [s for s in range(state["players"]) if s not in state["resigned"]]


def current_seat(state: State) -> int | None:
    if state["phase"] != "actions" or state["turn"] is None:
        return None
    return state["order"][state["turn"]]


def to_act(state: State) -> set[int]:
    if state["phase"] in ("choose", "replace"):
        return {s for s in active_seats(state) if state["pending"][s] is None}
    seat = current_seat(state)
    return set() if seat is None else {seat}


# --- legal actions -----------------------------------------------------------


def choose_actions(state: State, seat: int) -> list[Action]:
    hand = state["seats"][seat]["hand"]
    return [{"type": "choose", "cards": arrange(list(pair))} for pair in combinations(hand, 2)]


def choose_candidates(state: State, seat: int, cards: Any) -> list[Action]:
    """The one choice of `choose_actions` that holds the two `cards`, if
    any: listing every pair of a full hand cost more than the rest of the
    move."""
    if not isinstance(cards, list) or len(cards) != 2:
        return []
    first, second = cards
    hand = state["seats"][seat]["hand"]
    for i, card in enumerate(hand):
        if card in (first, second):
            other = second if card == first else first
            if other in hand[i + 1 :]:
                return [{"type": "choose", "cards": arrange([card, other])}]
            return []
    return []


def replace_actions(state: State, seat: int) -> list[Action]:
    own = state["seats"][seat]
    return [
        {"type": "replace", "card": card, "cover": cover}
        for card in own["hand"]
        for cover in own["cards"]
    ]


def turn_actions(state: State, seat: int) -> list[Action]:
    if state["buying"]:
        return [*buying.buy_actions(state, seat), {"type": "end"}]
    out: list[Action] = []
    for code in state["seats"][seat]["cards"]:
        if code not in state["done"]:
            out.extend(card_rules.card_actions(state, seat, code))
    return out


def legal(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state["phase"] == "choose":
        return choose_actions(state, seat)
    if state["phase"] == "replace":
        return replace_actions(state, seat)
    return turn_actions(state, seat)


def candidates(state: State, seat: int, action: Action) -> list[Action]:
    """The legal actions of the same kind as `action` (a cheap subset of `legal`).

    Validation compares the posted action with these, so it costs far less
    than listing every purchase plan of every open building.
    """
    kind = action.get("type")
    if state["phase"] == "choose" and kind == "choose" and seat in to_act(state):
        return choose_candidates(state, seat, action.get("cards"))
    if state["phase"] != "actions" or seat not in to_act(state):
        return legal(state, seat)
    if state["buying"]:
        if kind == "end":
            return [{"type": "end"}]
        bid = action.get("building")
        if kind != "buy" or not isinstance(bid, int) or isinstance(bid, bool):
            return []
        if bid not in buying.open_buildings(state) or not buying.may_build(state, seat, bid):
            return []
        cost = state["buildings"][str(bid)]["cost"]
        return [
            {"type": "buy", "building": bid, "pay": plan}
            for plan in buying.payment_plans(cost, state["seats"][seat])
        ]
    if kind == "skip":
        key = action.get("card")
        card = data.CARD_BY_KEY.get(key) if isinstance(key, str) else None
        code = card["code"] if card else None
    else:
        code = card_rules.CARD_OF_TYPE.get(kind) if isinstance(kind, str) else None
    if code is None or code not in state["seats"][seat]["cards"] or code in state["done"]:
        return []
    return card_rules.card_actions(state, seat, code)


# --- transitions -------------------------------------------------------------


def begin_turn(state: State) -> None:
    """Mark the passive cards done; a turn with nothing to carry out starts buying."""
    seat = state["seats"][current_seat(state)]
    state["done"] = [c for c in seat["cards"] if c in card_rules.PASSIVE]
    state["buying"] = len(state["done"]) == len(seat["cards"])


def start_round(state: State) -> None:
    state["phase"] = "actions"
    state["flags"] = {"worker": False, "black_market": False, "conserved": False}
    state["order"] = turn_order(state)
    state["turn"] = 0
    begin_turn(state)


def resupply(state: State) -> None:
    """Phase 2: 3 cubes from the bag (what is left, if fewer) and 3 pesos."""
    for colour in draw(state, data.RESUPPLY_CUBES):
        state["centre"]["cubes"][colour] += 1
    state["centre"]["pesos"] += data.RESUPPLY_PESOS


def next_turn(state: State) -> None:
    state["turn"] += 1
    order = state["order"]
    while state["turn"] < len(order) and order[state["turn"]] in state["resigned"]:
        state["turn"] += 1
    if state["turn"] < len(state["order"]):
        begin_turn(state)
        return
    resupply(state)
    state["phase"] = "replace"
    state["turn"] = None
    state["done"] = []
    state["buying"] = False
    state["pending"] = [None] * state["players"]


def reveal(state: State) -> None:
    """Everyone has chosen: turn the face-down cards up and start the round."""
    for s in active_seats(state):
        seat, choice = state["seats"][s], state["pending"][s]
        if state["phase"] == "choose":
            for card in choice["cards"]:
                seat["hand"].remove(card)
            seat["cards"] = arrange(choice["cards"])
        else:
            seat["hand"].remove(choice["card"])
            seat["cards"].remove(choice["cover"])
            seat["discard"].append(choice["cover"])
            seat["cards"] = arrange([*seat["cards"], choice["card"]])
            if len(seat["hand"]) <= data.HAND_REFILL_AT:
                seat["hand"] = arrange_hand(seat["hand"] + seat["discard"])
                seat["discard"] = []
    if state["phase"] == "replace":
        state["round"] += 1
    state["pending"] = [None] * state["players"]
    start_round(state)


def arrange_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=data.card_sort_key)


def maybe_reveal(state: State) -> None:
    if state["phase"] in ("choose", "replace") and not to_act(state):
        reveal(state)


def check_end(state: State) -> None:
    """Immediate end at the VP target, or when no building can ever be bought."""
    seats = active_seats(state)
    for s in seats:
        if state["seats"][s]["vp"] >= state["target"]:
            state["end"] = {"reason": "target", "winners": [s]}
    if state["end"] is None and buying.nothing_left_to_build(state):
        best = max(state["seats"][s]["vp"] for s in seats)
        winners = [s for s in seats if state["seats"][s]["vp"] == best]
        state["end"] = {"reason": "exhausted", "winners": winners}
    if state["end"] is not None:
        state["phase"] = "over"
        state["turn"] = None
        state["pending"] = [None] * state["players"]


def play(state: State, seat: int, action: Action) -> None:
    """Carry out a validated action on a private copy of the state."""
    kind = action["type"]
    if kind == "choose":
        state["pending"][seat] = {"cards": list(action["cards"])}
        maybe_reveal(state)
        return
    if kind == "replace":
        state["pending"][seat] = {"card": action["card"], "cover": action["cover"]}
        maybe_reveal(state)
        return
    if kind == "buy":
        buying.buy(state, seat, action["building"], action["pay"])
    elif kind == "end":
        next_turn(state)
    else:
        card = action["card"] if kind == "skip" else None
        code = data.CARD_BY_KEY[card]["code"] if card else card_rules.CARD_OF_TYPE[kind]
        card_rules.perform(state, seat, action)
        state["done"].append(code)
        state["buying"] = len(state["done"]) == len(state["seats"][seat]["cards"])
    check_end(state)
