"""What a seat (or a spectator) may see, and the public form of an action.

Hidden: every seat's cheques in hand and stashed cheques (each seat sees only
its own), the order of the face-down roofs, the display and roofs of rounds
not yet played.  Everything else on the table is open.
"""

from __future__ import annotations

from typing import Any

from .board import developed, requirement, row_complete
from .data import DATA, EDITIONS, LOTS, ROWS, SINGLE, lot_name
from .scoring import result

State = dict[str, Any]
Action = dict[str, Any]


def _row_view(state: State, r: int) -> dict[str, Any]:
    row = state["board"][r]
    req = requirement(row)
    return {
        "row": ROWS[r],
        "requirement": req,
        "developed": developed(row),
        "permits": list(row["permits"]),
        # All permits of a row sit together on the lot just past the requirement.
        "permit_lot": lot_name(r, req) if row["permits"] else None,
        "mayor": state["mayor"] == r,
        "complete": row_complete(row),
        "lots": [
            {
                "lot": lot_name(r, n),
                "single": SINGLE[r][n],
                "in_play": n < req,
                "floors": list(row["floors"][n]),
                "roof": row["roofs"][n],
            }
            for n in range(LOTS)
        ],
    }


def _auction_view(state: State) -> dict[str, Any] | None:
    auction = state["auction"]
    if auction is None:
        return None
    return {
        "piece": dict(auction["piece"]),
        "auctioneer": auction["auctioneer"],
        "bids": [list(b) for b in auction["bids"]],
        "high": auction["high"],
        "high_bidder": auction["high_bidder"],
        "waiting_for": list(auction["bidders"]),
    }


def to_act(state: State) -> set[int]:
    phase = state["phase"]
    if phase == "start":
        return {state["active"]}
    if phase == "bid":
        return {state["auction"]["bidders"][0]}
    if phase == "resolve":
        return {state["auction"]["auctioneer"]}
    if phase == "place":
        return {state["recipient"]}
    return set()


def view(state: State, seat: int | None) -> dict[str, Any]:
    roofs = state["roofs"]
    out: dict[str, Any] = {
        "title": EDITIONS[state["edition"]]["title"],
        "edition": state["edition"],
        # Component data of this edition that is our reading, not a confirmed
        # source (the engine's `provisional`; games.selectors.provisional words it).
        "provisional": list(EDITIONS[state["edition"]]["provisional"]),
        "players": state["players"],
        "round": state["round"],
        "rounds": state["rounds"],
        "turn": state["turn"],
        "phase": state["phase"],
        "active": state["active"],
        "to_act": sorted(to_act(state)),
        "board": [_row_view(state, r) for r in range(len(ROWS))],
        "display": [list(row) for row in state["display"]],
        # Counts only: which roof comes next stays secret.
        "roofs_left": len(roofs),
        "numbered_roofs_left": sum(1 for v in roofs if v),
        "blank_roofs_discarded": state["blanks"],
        "specials": dict(state["specials"]),
        "mayor": None if state["mayor"] is None else ROWS[state["mayor"]],
        "certificates": dict(state["certificates"]),
        # Cubes are "<company>-<pips>"; the colour of each company, for display.
        "colours": dict(DATA["company_colours"]),
        "auction": _auction_view(state),
        "recipient": state["recipient"],
        "last": state["last"],
        "round_results": state["round_results"],
        "round_wins": list(state["wins"]),
        "resigned": list(state["resigned"]),
        "result": result(state),
    }
    if state["result"] is not None:
        # The game is over: every seat's cheques (hand + stash), the final
        # tie-breaker, are open now.
        out["cheques"] = list(state["result"]["cheques"])
    if seat is not None and 0 <= seat < state["players"]:
        out["you"] = {
            "seat": seat,
            "cheques": state["money"][seat],
            "stash": state["stash"][seat],
        }
    return out


def public_action(state: State, seat: int, action: Action) -> Action | None:
    """Others never learn that a cheque was stashed with a choice."""
    if isinstance(action, dict) and "stash" in action:
        return {k: v for k, v in action.items() if k != "stash"}
    return None
