"""The pieces the active player may put up for auction.

Both a turn (turn.py, choosing) and the end of a turn (rounds.py, whether the
next player has anything to choose) ask this, so it sits below both.
"""

from __future__ import annotations

from typing import Any

from .board import cube_targets, roof_targets
from .data import DISPLAY_ROWS, SPECIALS

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
        status = state["specials"][name]
        # The mayor stays up for auction on the board (it may be moved);
        # permits and the cancel cube only while in the supply.
        if status == "supply" or (name == "mayor" and status == "board"):
            found.append({"type": "auction", "piece": name})
    return found
