"""A player's turn: optional flip, the draft, paying, civic tokens, refill, next seat.

Each step is its own action so the lists stay short: ``flip`` (optional, once),
then ``draw`` / ``take`` (the draft, with its payment plan), then one ``civic``
per civic building built while face-up tokens remain.  The refill waits until
the tokens are taken, as in the rules' order of steps.
"""

from __future__ import annotations

from typing import Any

from ..base import Action, State
from . import solo
from .data import CARDS, COST_OF, KIND_OF, RESOURCES
from .market import BUILDING, INDEX, NAMES, PAIR_SET, PAIRS, RESOURCE, flippable, refill
from .payment import permanent, plans_for, spend, stock_vector

# -- legal actions ---------------------------------------------------------------


def take_actions(state: State, seat: int, only: list[int] | None = None) -> list[Action]:
    """Every adjacent market pair (or just the pair ``only``) with every
    distinct way to pay for it."""
    me = state["seats"][seat]
    perm = permanent(me["city"])
    perm_vector = [perm[r] for r in RESOURCES]
    base = stock_vector(me["stock"])
    market = state["market"]
    actions: list[Action] = []
    for a, b in PAIRS if only is None else [tuple(only)]:
        slots = (market[a], market[b])
        if slots[0] is None or slots[1] is None:
            continue
        spaces = [NAMES[a], NAMES[b]]
        buildings = [s["card"] for s in slots if s["side"] == BUILDING]
        if not buildings:
            actions.append({"type": "take", "spaces": spaces, "pay": []})
            continue
        pool = list(base)
        for slot in slots:
            if slot["side"] == RESOURCE:  # the resource drafted alongside may pay
                pool[KIND_OF[slot["card"]]] += 1
        cost = [sum(c) for c in zip(*(COST_OF[card] for card in buildings), strict=True)]
        need = tuple(max(0, c - p) for c, p in zip(cost, perm_vector, strict=True))
        actions += [{"type": "take", "spaces": spaces, "pay": p} for p in plans_for(need, pool)]
    return actions


def turn_actions(state: State, seat: int) -> list[Action]:
    drafts: list[Action] = [{"type": "draw"}] if len(state["pile"]) >= 2 else []
    drafts += take_actions(state, seat)
    if not drafts:
        # Only on the final turn (the pile is empty) with no affordable pair:
        # README, "The final turn's pass".  No flip is then possible: a flip
        # needs a whole row or column of resource sides, which holds a free pair.
        drafts = [{"type": "pass"}]
    if not state["flipped"]:
        drafts += [{"type": "flip", "space": NAMES[i]} for i in flippable(state["market"])]
    return drafts


def civic_actions(state: State) -> list[Action]:
    return [{"type": "civic", "token": t} for t in sorted(state["display"])]


def candidates(state: State, seat: int, action: dict[str, Any]) -> list[Action]:
    """The legal actions of the same type (and pair) as ``action``: what apply
    checks it against, without listing every other move."""
    kind = action.get("type")
    if state["phase"] == "civic" or kind == "pass":
        return legal(state, seat)
    if kind == "take":
        spaces = action.get("spaces")
        if not isinstance(spaces, list) or len(spaces) != 2:
            return []
        pair = tuple(INDEX.get(s) if isinstance(s, str) else None for s in spaces)
        return take_actions(state, seat, only=list(pair)) if pair in PAIR_SET else []
    if kind == "draw":
        return [{"type": "draw"}] if len(state["pile"]) >= 2 else []
    if kind == "flip" and not state["flipped"]:
        return [{"type": "flip", "space": NAMES[i]} for i in flippable(state["market"])]
    return []


def legal(state: State, seat: int) -> list[Action]:
    if state["phase"] == "over" or seat != state["current"]:
        return []
    if state["phase"] == "civic":
        return civic_actions(state)
    return turn_actions(state, seat)


# -- applying (``state`` here is already a private copy) -------------------------


def do_flip(state: State, seat: int, action: Action) -> None:
    space = INDEX[action["space"]]
    state["market"][space] = {"card": state["market"][space]["card"], "side": BUILDING}
    state["flipped"] = True


def do_draw(state: State, seat: int, action: Action) -> None:
    me = state["seats"][seat]
    me["stock"] += state["pile"][:2]
    del state["pile"][:2]
    me["turns"] += 1
    finish_turn(state, None)  # a pile draw never refills


def do_take(state: State, seat: int, action: Action) -> None:
    me = state["seats"][seat]
    emptied = []
    civic = 0
    for name in action["spaces"]:
        space = INDEX[name]
        slot = state["market"][space]
        state["market"][space] = None
        emptied.append([space, slot["side"]])
        if slot["side"] == RESOURCE:
            me["stock"].append(slot["card"])
        else:
            me["city"].append(slot["card"])
            civic += CARDS[slot["card"]].building == "civic"
    me["stock"], spent = spend(me["stock"], action["pay"])
    state["discard"] += spent
    me["turns"] += 1
    if civic and state["display"]:
        state["phase"] = "civic"
        state["pending"] = {"civic": civic, "refill": emptied}
    else:
        # No face-up token left: the civic building is built and gives nothing.
        finish_turn(state, emptied)


def do_civic(state: State, seat: int, action: Action) -> None:
    state["display"].remove(action["token"])
    state["seats"][seat]["tokens"].append(action["token"])
    pending = state["pending"]
    pending["civic"] -= 1
    if pending["civic"] == 0 or not state["display"]:
        finish_turn(state, pending["refill"])


def do_pass(state: State, seat: int, action: Action) -> None:
    state["seats"][seat]["turns"] += 1
    end_game(state, "no draft possible on the final turn")


APPLY = {"flip": do_flip, "draw": do_draw, "take": do_take, "civic": do_civic, "pass": do_pass}


def end_game(state: State, reason: str) -> None:
    state["phase"] = "over"
    state["end"] = reason
    state["pending"] = None


def finish_turn(state: State, emptied: list[list[Any]] | None) -> None:
    """Refill after a market draft, then hand the turn on (or end the game)."""
    state["pending"] = None
    state["phase"] = "turn"
    state["flipped"] = False
    if emptied is not None and not refill(state, emptied):
        end_game(state, "the market could not be refilled")
        return
    if state["bot"] is not None:
        if not refill(state, solo.opponent_turn(state)):
            end_game(state, "the market could not be refilled")
        return
    advance(state)


def active_seats(state: State) -> list[int]:
    return [i for i, p in enumerate(state["seats"]) if not p["resigned"]]


def advance(state: State) -> None:
    """The next seat clockwise that has not resigned."""
    n = len(state["seats"])
    for step in range(1, n + 1):
        seat = (state["current"] + step) % n
        if not state["seats"][seat]["resigned"]:
            state["current"] = seat
            return
