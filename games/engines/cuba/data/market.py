"""The share price chart (draft IX) as static data and its moves.

The chart is one track of 35 cells drawn as two interleaved zig-zag rows:
"right" and "left" move along a row (two cells on the track), "up" and
"down" move diagonally to the other row (one cell). The prices are the
implementation's, the only source (three of its cells read 192, 198 and 013,
which the sequence shows to be 132, 138 and 213: those three are provisional).

A marker is a cell index. Where the markers stand is state
(`state["market"]`: per cell, the company symbols on it, top first); the
stacking functions below are the only way a marker is put down, moved or
taken off there, so "a marker that moves onto an already occupied space is
put under any markers that are already there" (IX.1) holds for every move,
and `by_price` reads the stacks for the operating order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    index: int
    price: int
    par: bool = False  # orange: a par price for a new company
    provisional: bool = False


_PRICES = (
    50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100, 105, 110, 115, 120, 126, 132, 138,
    144, 151, 158, 172, 180, 188, 196, 204, 213, 222, 231, 240, 250, 260, 275, 290, 300,
)  # fmt: skip
_PAR = frozenset(range(4, 11))
_PROVISIONAL = frozenset({16, 17, 26})

CELLS: tuple[Cell, ...] = tuple(
    Cell(i, price, i in _PAR, i in _PROVISIONAL) for i, price in enumerate(_PRICES)
)
PAR_PRICES: tuple[int, ...] = tuple(c.price for c in CELLS if c.par)
PAR_CELLS: dict[int, int] = {c.price: c.index for c in CELLS if c.par}  # price -> cell
TOP = len(CELLS) - 1
FC_START = 0  # the FC's marker starts on 50 (IV.5)


def right(index: int) -> int:
    """A dividend above zero: one space right; from 290 up to 300 (IX.1)."""
    if index == TOP:
        return index
    return index + 2 if index + 2 <= TOP else index + 1


def left(index: int) -> int:
    """No dividend or $0: one space left; from 55 down to 50 (IX.1)."""
    if index == 0:
        return index
    return index - 2 if index >= 2 else index - 1


def down(index: int, spaces: int = 1) -> int:
    """One space diagonally down per share sold (IX.3) or issued; stops at 50."""
    return max(0, index - spaces)


def up(index: int) -> int:
    """One space diagonally up: sold out at the end of an SR, the FC's dividend."""
    return min(TOP, index + 1)


# The markers on the chart: per cell, company symbols, top first.
Stacks = list[list[str]]


def cell_of(stacks: Stacks, sym: str) -> int | None:
    """The cell a company's marker stands on; None when it has none."""
    for index, on in enumerate(stacks):
        if sym in on:
            return index
    return None


def place(stacks: Stacks, sym: str, index: int) -> Stacks:
    """New stacks with the company's marker on `index` (a par price, or after a
    move). A marker that arrives on an occupied cell goes under the markers
    already there (IX.1); a marker that stays where it is (50 cannot fall, 300
    cannot rise) keeps its place in its stack, since it has not moved onto
    anything."""
    if not 0 <= index <= TOP:
        raise ValueError(f"there is no market cell {index}")
    if sym in stacks[index]:
        return [list(on) for on in stacks]
    out = [[s for s in on if s != sym] for on in stacks]
    out[index].append(sym)
    return out


def remove(stacks: Stacks, sym: str) -> Stacks:
    """New stacks without the company's marker (a company leaving the game)."""
    return [[s for s in on if s != sym] for on in stacks]


def by_price(stacks: Stacks, syms: Iterable[str], *, descending: bool = True) -> list[str]:
    """The companies in price order (highest first unless `descending` is
    False); on a shared cell the marker on top comes first either way, as
    the one that arrived there first. Companies without a marker are left out."""
    wanted = set(syms)
    cells = range(TOP, -1, -1) if descending else range(TOP + 1)
    return [sym for index in cells for sym in stacks[index] if sym in wanted]
