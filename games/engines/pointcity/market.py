"""The 4x4 market: space names, adjacency, the flip condition and the refill.

Spaces are numbered 0-15 in reading order (left to right, top to bottom) and
named like a chess board turned for reading: column letter a-d, row number 1-4,
so ``a1`` is top-left, ``d1`` top-right and ``a2`` the first space of row two.
A market space holds ``{"card": id, "side": "resource" | "building"}`` or None.
"""

from __future__ import annotations

from typing import Any

from ..base import State

SIZE = 4
SPACES = SIZE * SIZE
RESOURCE = "resource"
BUILDING = "building"
NAMES: tuple[str, ...] = tuple(f"{'abcd'[i % SIZE]}{i // SIZE + 1}" for i in range(SPACES))
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}


def _pairs() -> tuple[tuple[int, int], ...]:
    """Every orthogonally adjacent pair once, first space first in reading order."""
    pairs = []
    for i in range(SPACES):
        if i % SIZE < SIZE - 1:
            pairs.append((i, i + 1))
        if i + SIZE < SPACES:
            pairs.append((i, i + SIZE))
    return tuple(sorted(pairs))


PAIRS = _pairs()
PAIR_SET = frozenset(PAIRS)


def row_of(space: int) -> list[int]:
    start = space - space % SIZE
    return list(range(start, start + SIZE))


def column_of(space: int) -> list[int]:
    return list(range(space % SIZE, SPACES, SIZE))


def _all_resource(market: list[Any], spaces: list[int]) -> bool:
    return all(market[i] is not None and market[i]["side"] == RESOURCE for i in spaces)


def flippable(market: list[Any]) -> list[int]:
    """Resource-side cards whose whole row or whole column shows resource sides."""
    return [
        i
        for i in range(SPACES)
        if market[i] is not None
        and market[i]["side"] == RESOURCE
        and (_all_resource(market, row_of(i)) or _all_resource(market, column_of(i)))
    ]


def refill(state: State, emptied: list[list[Any]]) -> bool:
    """Fill the emptied spaces in reading order from the pile, opposite side up.

    ``emptied`` holds ``[space, side the taken card showed]``.  Returns False
    when the pile ran out before every space was filled: that ends the game.
    Mutates ``state`` (the caller owns a copy).
    """
    for space, taken_side in sorted(emptied):
        if not state["pile"]:
            return False
        card = state["pile"].pop(0)
        side = BUILDING if taken_side == RESOURCE else RESOURCE
        state["market"][space] = {"card": card, "side": side}
    return True


def cards_in_market(market: list[Any]) -> list[int]:
    return [slot["card"] for slot in market if slot is not None]
