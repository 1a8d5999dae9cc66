"""The end of a turn, the end of a round, and the end of the game.

A round ends, checked after every turn, when

* two rows are complete (every lot up to the requirement holds a roofed
  building), or
* no building can be completed any more: no numbered roof is left in the
  supply (blank roofs cannot finish a building), or the display holds no
  floor cube and every building has its roof, or
* (a safety net the rules make unreachable) the next player has no piece to
  choose.
"""

from __future__ import annotations

from typing import Any

from . import state as state_mod
from .board import roof_targets, row_complete
from .pieces import choices
from .scoring import final_result, score_round

State = dict[str, Any]


def end_reason(state: State) -> str | None:
    """Why the round is over now, or None while it goes on."""
    if sum(1 for row in state["board"] if row_complete(row)) >= 2:
        return "two rows complete"
    if not any(state["roofs"]):
        return "no numbered roof left"
    if not any(state["display"]) and not roof_targets(state["board"]):
        return "no floor cube left and every building roofed"
    return None


def end_turn(state: State) -> None:
    """Close the turn; score the round if it is over, else pass on clockwise."""
    state["auction"] = None
    state["recipient"] = None
    state["turn"] += 1
    reason = end_reason(state)
    if reason is None:
        state["active"] = state_mod.next_seat(state, state["active"])
        state["phase"] = "start"
        if choices(state):
            return
        reason = "nothing left to choose"
    finish_round(state, reason)


def finish_round(state: State, reason: str, last: bool = False) -> None:
    scores = score_round(state)
    scores["reason"] = reason
    state["round_results"].append(scores)
    for seat in scores["winners"]:
        state["wins"][seat] += 1
    if last or state["round"] >= state["rounds"] or max(state["wins"]) >= 2:
        state["phase"] = "over"
        state["result"] = final_result(state)
        return
    state_mod.start_round(state)
