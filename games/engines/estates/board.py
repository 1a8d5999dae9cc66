"""Board geometry: where floors, roofs and permits may go, and row completion.

A board row is ``{"floors": [[cube, ...] x 10], "roofs": [int|None x 10],
"permits": [signed int, ...]}``.  ``permits`` holds the signed change of each
permit in that row (``+2`` lengthened by permit 2, ``-3`` shortened by permit
3); all permits of a row sit together on the lot just past the requirement,
so the requirement is always the start requirement plus their sum.
"""

from __future__ import annotations

from typing import Any

from .data import CUBE_VALUE, LOTS, MAX_REQ, MIN_REQ, SINGLE, START_REQ

Row = dict[str, Any]
Board = list[Row]


def empty_row() -> Row:
    return {"floors": [[] for _ in range(LOTS)], "roofs": [None] * LOTS, "permits": []}


def requirement(row: Row) -> int:
    """How many lots, from Main Street, must be built for the row to be complete."""
    return START_REQ + sum(row["permits"])


def developed(row: Row) -> int:
    """Number of built lots; buildings always run from the road without gaps."""
    floors = row["floors"]
    count = 0
    while count < LOTS and floors[count]:
        count += 1
    return count


def row_complete(row: Row) -> bool:
    """Every lot up to the requirement holds a roofed building."""
    req = requirement(row)
    floors, roofs = row["floors"], row["roofs"]
    return all(floors[i] and roofs[i] is not None for i in range(req))


def cube_targets(board: Board, cube: str) -> list[tuple[int, int]]:
    """Every (row, lot) where this floor cube may legally go, in board order."""
    value = CUBE_VALUE[cube]
    targets = []
    for r, row in enumerate(board):
        floors, roofs, single = row["floors"], row["roofs"], SINGLE[r]
        built = developed(row)
        for lot in range(built):
            # Stack only on an unroofed, multi-floor lot, and only a lower value.
            open_top = roofs[lot] is None and not single[lot]
            if open_top and CUBE_VALUE[floors[lot][-1]] > value:
                targets.append((r, lot))
        # A new building only on the next lot from the road, inside the limit.
        if built < requirement(row):
            targets.append((r, built))
    return targets


def roof_targets(board: Board) -> list[tuple[int, int]]:
    """Every building (a lot with floors) that has no roof yet."""
    return [
        (r, lot)
        for r, row in enumerate(board)
        for lot in range(LOTS)
        if row["floors"][lot] and row["roofs"][lot] is None
    ]


def _valid_requirement(row: Row, req: int) -> bool:
    # Never strand a building past the limit (its lot must stay inside), never
    # run off the board (the permit needs a lot), never a row of no lots.
    return max(developed(row), MIN_REQ) <= req <= MAX_REQ


def permit_targets(board: Board, value: int) -> list[tuple[int, int]]:
    """(row, new requirement) for every legal use of a permit of this value.

    The permit sits on lot index ``new requirement``, so the pair also names
    the lot the player puts it on.
    """
    targets = []
    for r, row in enumerate(board):
        req = requirement(row)
        for new in (req - value, req + value):
            if _valid_requirement(row, new):
                targets.append((r, new))
    return sorted(targets)


def cancel_targets(board: Board) -> list[int]:
    """Values of the placed permits the cancel cube may remove."""
    values = []
    for row in board:
        req = requirement(row)
        for change in row["permits"]:
            if _valid_requirement(row, req - change):
                values.append(abs(change))
    return sorted(values)


def permit_row(board: Board, value: int) -> int | None:
    """The row holding the permit of this value, if it is on the board."""
    for r, row in enumerate(board):
        if any(abs(change) == value for change in row["permits"]):
            return r
    return None
