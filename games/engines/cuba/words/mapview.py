"""The map as data a client can draw: every hex, its tile, track, stops and tokens.

Positions are the doubled coordinates (x = column - 1, y = row index) of a
pointy-topped grid: a client puts hex (x, y) at pixel (x * w / 2, y * h * 3/4).
Track ends are the rotated ends of the laid tile, so a client needs no tile
table to draw it; ``tile`` and ``rotation`` are there for clients that have one.

On a part of the map (2-player easy) every hex outside it has ``in_play``
false, the two special tiles show as laid tiles (colours ``red`` and
``darkgreen``; the red off-board lists its value per phase), and
``provisional`` says in sentences what is our reading rather than the rules'.
"""

from __future__ import annotations

import functools
from typing import Any

from ..data.hexes import BARRIERS, HEXES, PART_NOTES, revenue_of
from ..data.tiles import SPECIAL
from ..map.board import Board, content, edge_tile, in_play, part_of


def map_view(
    board: Board, last_routes: dict[str, Any] | None = None, phase: int | None = None
) -> dict[str, Any]:
    """Plain JSON for the whole map; ``last_routes`` maps company -> routes last run.

    ``phase`` gives the red off-board's current value (without it: its first).
    """
    part = board.get("part")
    tiles, tokens, reserved = board["tiles"], board["tokens"], board["reserved"]
    pending = set(board["fc_pending"])
    hexes = []
    for coord in HEXES:
        laid = tiles.get(coord)
        face, cities = _face(coord, None if laid is None else tuple(laid), part, phase)
        shown = dict(face)
        stops = [dict(stop) for stop in face["stops"]]
        owners = tokens.get(coord)
        for i in cities:
            stops[i]["tokens"] = list(owners[i]) if owners and i < len(owners) else []
        shown["stops"] = stops
        shown["track"] = list(face["track"])
        shown["fc_marker"] = coord in pending
        shown["reserved"] = sorted(reserved.get(coord, {}))
        hexes.append(shown)
    barriers = sorted([c, e] for c, e in BARRIERS)
    return {
        "hexes": hexes,
        "barriers": barriers,
        "supply": dict(sorted(board["supply"].items())),
        "routes": dict(last_routes or {}),
        "part": part,
        "provisional": provisional(board),
    }


@functools.lru_cache(maxsize=4096)
def _face(
    coord: str, laid: tuple[Any, ...] | None, part: str | None, phase: int | None
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """What a hex shows that the tile on it, the part and the phase fix (all
    but the stations, FC markers and reservations), and which of its stops
    are cities: a view draws every hex of the map, and most of the map is the
    same from one view to the next (read-only: copied where a view adds to
    it)."""
    alone: Board = {
        "tiles": {} if laid is None else {coord: list(laid)},
        "tokens": {},
        "fc_pending": [],
        "reserved": {},
        "supply": {},
        "part": part,
    }
    c = content(alone, coord)
    h = HEXES[coord]
    stops = []
    for s in c.stops:
        stop: dict[str, Any] = {
            "type": s.type,
            "revenue": revenue_of(s, phase) if phase is not None else s.revenue,
        }
        if s.phase_revenues:
            stop["phase_revenues"] = list(s.phase_revenues)
        if s.type == "city":
            stop["slots"] = s.slots
        stops.append(stop)
    face = {
        "hex": coord,
        "x": h.x,
        "y": h.y,
        "name": h.name,
        "kind": h.kind,
        "color": c.color,
        "label": c.label,
        "tile": c.tile,
        "rotation": c.rotation,
        "stops": stops,
        "track": [
            {
                "from": f"{p.a[0]}{p.a[1]}",
                "to": f"{p.b[0]}{p.b[1]}",
                "gauge": "standard" if p.gauge == "s" else "narrow",
            }
            for p in c.paths
        ],
        "fc_marker": False,
        "reserved": [],
        "in_play": in_play(alone, coord),
        "edge": edge_tile(alone, coord) is not None,
    }
    return face, tuple(i for i, s in enumerate(c.stops) if s.type == "city")


def provisional(board: Board) -> list[str]:
    """What the map shows that the rules do not settle (only a part has any)."""
    part = part_of(board)
    if part is None:
        return []
    notes = [SPECIAL[name].note or "" for name, _rot in part.tiles.values()]
    return [*PART_NOTES[part.name], *(n for n in notes if n)]
