"""The share price chart (draft IX) as static data and its moves.

The chart is one track of 35 cells drawn as two interleaved zig-zag rows:
"right" and "left" move along a row (two cells on the track), "up" and
"down" move diagonally to the other row (one cell). The prices are the
implementation's, the only source (three of its cells read 192, 198 and 013,
which the sequence shows to be 132, 138 and 213: those three are provisional).

A marker is a cell index. Stacking (a marker arriving on an occupied cell
goes under the others) is state, kept by the rounds: see `state.py`.
"""

from __future__ import annotations

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
