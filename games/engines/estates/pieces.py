"""The pieces the active player may put up for auction.

Both a turn (turn.py, choosing) and the end of a turn (rounds.py, whether the
next player has anything to choose) ask this, so it sits below both.
"""

from __future__ import annotations

from typing import Any

from .board import cube_targets, roof_targets
from .data import DISPLAY_ROWS, EDITIONS, SPECIALS

State = dict[str, Any]
Action = dict[str, Any]

ENDS = ("left", "right")


def display_slot(at: Any) -> tuple[int, int] | None:
    """ "row2-left" -> (1, 0); "row2-right" -> (1, -1); None if malformed."""
    if not isinstance(at, str) or not at.startswith("row") or "-" not in at:
        return None
    number, _, end = at[3:].partition("-")
    if number not in {str(n + 1) for n in range(DISPLAY_ROWS)} or end not in ENDS:
        return None
    return int(number) - 1, (0 if end == "left" else -1)


def choices(state: State) -> list[Action]:
    """Every piece the active player may put up for auction, without a stash."""
    found: list[Action] = []
    for d in range(len(state["display"])):
        for end in ENDS:
            found += cube_choice(state, f"row{d + 1}-{end}")
    return found + other_choices(state)


def cube_choice(state: State, at: str) -> list[Action]:
    """The cube at display end ``at``, if it may be chosen."""
    slot = display_slot(at)
    if slot is None:
        return []
    row = state["display"][slot[0]]
    # A cube is only eligible if it could go somewhere on the board.
    if not row or not cube_targets(state["board"], row[slot[1]]):
        return []
    return [{"type": "auction", "piece": "cube", "at": at}]


def other_choices(state: State) -> list[Action]:
    found: list[Action] = []
    if state["roofs"] and roof_targets(state["board"]):
        found.append({"type": "auction", "piece": "roof"})
    for name in SPECIALS:
        if special_available(state, name):
            found.append({"type": "auction", "piece": name})
    return found


def special_available(state: State, name: str) -> bool:
    """May the special piece ``name`` be put up for auction?

    The Estates: a permit, the cancel cube and the mayor only "while not on
    the board and not discarded", i.e. while in the supply.  Neue Heimat: the
    same for permits and the cancel cube, but the mayor "may be moved or
    replaced during the game", so it stays up for auction on the board.
    """
    status = state["specials"][name]
    if status == "supply":
        return True
    return name == "mayor" and status == "board" and mayor_moves(state["edition"])


def mayor_moves(edition: str) -> bool:
    """Whether the mayor on the board may be auctioned again in ``edition``."""
    return bool(EDITIONS[edition]["mayor_moves"])
