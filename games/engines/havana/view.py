"""What a seat (or a spectator) may see, and how others see a hidden choice.

Open: hands, discard piles, face-up cards, everyone's cubes, pesos, workers
and buildings, the centre, the rows.  Hidden: the bag order, the draw pile
order, and every face-down choice except the viewer's own.
"""

from __future__ import annotations

from typing import Any

from ..base import State
from . import data
from .rounds import active_seats, current_seat, to_act


def _bag_counts(state: State) -> dict[str, int]:
    # The contents follow from public information anyway; the order never shows.
    counts = dict.fromkeys(data.CUBES, 0)
    for colour in state["bag"]:
        counts[colour] += 1
    return counts


def _seat_view(state: State, index: int, viewer: int | None) -> dict[str, Any]:
    seat = state["seats"][index]
    pending = state["pending"][index]
    out = {
        "seat": index,
        "hand": list(seat["hand"]),
        "discard": list(seat["discard"]),
        "cards": list(seat["cards"]),
        "pesos": seat["pesos"],
        "workers": seat["workers"],
        "cubes": dict(seat["cubes"]),
        "buildings": list(seat["buildings"]),
        "vp": seat["vp"],
        "resigned": index in state["resigned"],
        "chosen": pending is not None,
    }
    if pending is not None and index == viewer:
        out["choice"] = dict(pending)
    return out


def view(state: State, viewer: int | None) -> dict[str, Any]:
    shown = set()
    for row in state["rows"]:
        shown.update(row)
    shown.update(state["boxed"])
    for seat in state["seats"]:
        shown.update(seat["buildings"])
    return {
        "round": state["round"],
        "phase": state["phase"],
        "target": state["target"],
        "to_act": sorted(to_act(state)),
        "order": list(state["order"]),
        "current": current_seat(state),
        "done": list(state["done"]),
        "buying": state["buying"],
        "flags": dict(state["flags"]),
        "centre": {"pesos": state["centre"]["pesos"], "cubes": dict(state["centre"]["cubes"])},
        "workers_in_supply": state["workers"],
        "bag": _bag_counts(state),
        "bag_size": len(state["bag"]),
        "removed": dict(state["removed"]),
        "rows": [list(row) for row in state["rows"]],
        "pile_size": len(state["pile"]),
        "boxed": list(state["boxed"]),
        "buildings": {k: v for k, v in state["buildings"].items() if int(k) in shown},
        "seats": [_seat_view(state, i, viewer) for i in range(state["players"])],
        "active": active_seats(state),
        "end": state["end"],
        # The seat's own copy of the flag, for a client that reads the view
        # alone: the building costs and VP are not from a printed source.
        "provisional": ["buildings"] if data.PROVISIONAL else [],
    }


def public_action(state: State, seat: int, action: dict[str, Any]) -> dict[str, Any] | None:
    """Face-down choices are hidden from the other seats until the reveal."""
    if isinstance(action, dict) and action.get("type") in ("choose", "replace"):
        return {"type": action["type"]}
    return None
