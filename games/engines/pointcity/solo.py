"""The automated solo opponent (fan port rules; see README.md, Solo).

Two market tokens mark a column and a row.  On its turn the opponent takes the
card where they cross and the card below it (wrapping from the bottom row to
the top), pays nothing, keeps resources in its stock and buildings in its
city, takes the leftmost face-up civic token for each civic building, and then
both tokens move on one step (column right, row down, wrapping 4 -> 1).
"""

from __future__ import annotations

from typing import Any

from ..base import State
from .data import CARDS
from .market import RESOURCE, SIZE


def opponent_spaces(bot: dict[str, Any]) -> list[int]:
    col, row = bot["column"], bot["row"]
    return [row * SIZE + col, ((row + 1) % SIZE) * SIZE + col]


def opponent_turn(state: State) -> list[list[Any]]:
    """Play the opponent's draft; returns the emptied spaces for the refill."""
    bot = state["bot"]
    emptied = []
    for space in opponent_spaces(bot):
        slot = state["market"][space]
        state["market"][space] = None
        emptied.append([space, slot["side"]])
        if slot["side"] == RESOURCE:
            bot["stock"].append(slot["card"])
            continue
        bot["city"].append(slot["card"])
        if CARDS[slot["card"]].building == "civic" and state["display"]:
            bot["tokens"].append(state["display"].pop(0))
    bot["turns"] += 1
    bot["column"] = (bot["column"] + 1) % SIZE
    bot["row"] = (bot["row"] + 1) % SIZE
    return emptied
