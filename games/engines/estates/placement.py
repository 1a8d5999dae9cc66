"""Using the auctioned piece: the recipient places it at once.

Floor cubes and numbered roofs must be placed (they are only auctioned when
they fit somewhere, and nothing changes before placement); permits, the
cancel cube and the mayor may be placed or discarded.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_
from . import rounds
from .board import cancel_targets, cube_targets, permit_row, permit_targets, requirement
from .board import roof_targets as roof_spots
from .data import CUBE_COMPANY, ROW_INDEX, ROWS, lot_name, parse_lot
from .errors import IllegalAction, check_keys, refuse

State = dict[str, Any]
Action = dict[str, Any]


def _targets(state: State, piece: dict[str, Any]) -> list[Action]:
    board, kind = state["board"], piece["kind"]
    if kind == "cube":
        spots = cube_targets(board, piece["cube"])
        return [{"type": "place", "lot": lot_name(r, n)} for r, n in spots]
    if kind == "roof":
        return [{"type": "place", "lot": lot_name(r, n)} for r, n in roof_spots(board)]
    if kind == "permit":
        pairs = permit_targets(board, piece["value"])
        return [{"type": "place", "lot": lot_name(r, n)} for r, n in pairs]
    if kind == "cancel":
        return [{"type": "cancel", "permit": v} for v in cancel_targets(board)]
    return [{"type": "mayor", "row": row} for row in ROWS]


def place_actions(state: State, seat: int) -> list[Action]:
    piece = state["auction"]["piece"]
    targets = _targets(state, piece)
    if piece["kind"] in ("cube", "roof") and targets:
        return targets
    # Special pieces may always be discarded; a cube or roof only if it fits
    # nowhere (which the choosing rules already prevent).
    return [*targets, {"type": "discard"}]


def check_place(state: State, seat: int, action: Action) -> None:
    """Why this use of the piece is not allowed (raises IllegalAction)."""
    kind = action.get("type")
    if kind == "place":
        check_keys(action, {"type", "lot"}, {"type", "lot"})
        if parse_lot(action["lot"]) is None:
            raise refuse('name a lot like "b3" (row a, b or c, lot 1-10)')
    elif kind == "cancel":
        check_keys(action, {"type", "permit"}, {"type", "permit"})
        if type(action["permit"]) is not int:
            raise refuse("name the permit by its number: 1, 2 or 3")
    elif kind == "mayor":
        check_keys(action, {"type", "row"}, {"type", "row"})
    elif kind == "discard":
        check_keys(action, {"type"}, {"type"})
    else:
        raise refuse(
            'use the piece: "place lot b3", "mayor row a", "cancel permit 2" or "discard"'
        )
    if action not in place_actions(state, state["recipient"]):
        raise _why_not(state, action)


# The sentences that name the piece's kind, one whole msgid per kind (German
# names each piece its own way).  Only a cube or a roof can be refused a
# discard: place_actions offers it for every other piece, and for a cube or
# roof that fits nowhere.
_MUST_PLACE = {
    "cube": N_("a cube that fits on the board must be placed"),
    "roof": N_("a roof that fits on the board must be placed"),
}
_NOT_ON_LOT = {
    "cube": N_("the cube cannot go on lot {lot}"),
    "roof": N_("the roof cannot go on lot {lot}"),
    "permit": N_("the permit cannot go on lot {lot}"),
}
_NOT_HOW = {
    "cube": N_("that is not how a cube is used"),
    "roof": N_("that is not how a roof is used"),
    "permit": N_("that is not how a permit is used"),
    "cancel": N_("that is not how a cancel is used"),
    "mayor": N_("that is not how a mayor is used"),
}


def _why_not(state: State, action: Action) -> IllegalAction:
    piece = state["auction"]["piece"]
    kind = piece["kind"]
    if action["type"] == "discard":
        return refuse(_MUST_PLACE[kind])
    if action["type"] == "place" and kind in _NOT_ON_LOT:
        return refuse(_NOT_ON_LOT[kind], lot=action["lot"])
    if action["type"] == "cancel" and kind == "cancel":
        return refuse("that permit is not on the board, or removing it would strand a building")
    if action["type"] == "mayor" and kind == "mayor":
        return refuse("the mayor goes in front of row a, b or c")
    return refuse(_NOT_HOW[kind])


def apply_place(state: State, seat: int, action: Action) -> None:
    piece = state["auction"]["piece"]
    kind = piece["kind"]
    if action["type"] == "discard":
        _discard(state, piece)
    elif kind == "cube":
        r, n = parse_lot(action["lot"])  # type: ignore[misc]
        state["board"][r]["floors"][n].append(piece["cube"])
        company = CUBE_COMPANY[piece["cube"]]
        if state["certificates"][company] is None:
            state["certificates"][company] = seat
    elif kind == "roof":
        r, n = parse_lot(action["lot"])  # type: ignore[misc]
        state["board"][r]["roofs"][n] = piece["value"]
    elif kind == "permit":
        r, n = parse_lot(action["lot"])  # type: ignore[misc]
        row = state["board"][r]
        row["permits"].append(n - requirement(row))
        state["specials"][f"permit{piece['value']}"] = "board"
    elif kind == "cancel":
        value = action["permit"]
        row = state["board"][permit_row(state["board"], value)]
        row["permits"] = [c for c in row["permits"] if abs(c) != value]
        state["specials"][f"permit{value}"] = "gone"
        state["specials"]["cancel"] = "gone"
    else:
        state["mayor"] = ROW_INDEX[action["row"]]
        state["specials"]["mayor"] = "board"
    _record(state, seat, action)
    rounds.end_turn(state)


def _discard(state: State, piece: dict[str, Any]) -> None:
    kind = piece["kind"]
    if kind == "permit":
        state["specials"][f"permit{piece['value']}"] = "gone"
    elif kind in ("cancel", "mayor"):
        state["specials"][kind] = "gone"
        if kind == "mayor":
            state["mayor"] = None


def _record(state: State, seat: int, action: Action) -> None:
    """Keep what this turn did, so the next mail can tell the players."""
    auction = state["auction"]
    state["last"] = {
        "auctioneer": auction["auctioneer"],
        "piece": dict(auction["piece"]),
        "bids": [list(b) for b in auction["bids"]],
        "decision": auction.get("decision"),
        "recipient": seat,
        "used": dict(action),
    }
