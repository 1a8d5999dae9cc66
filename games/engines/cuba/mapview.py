"""The map as data a client can draw: every hex, its tile, track, stops and tokens.

Positions are the doubled coordinates (x = column - 1, y = row index) of a
pointy-topped grid: a client puts hex (x, y) at pixel (x * w / 2, y * h * 3/4).
Track ends are the rotated ends of the laid tile, so a client needs no tile
table to draw it; ``tile`` and ``rotation`` are there for clients that have one.
"""

from __future__ import annotations

from typing import Any

from .board import Board, city_tokens, content
from .hexes import BARRIERS, HEXES


def map_view(board: Board, last_routes: dict[str, Any] | None = None) -> dict[str, Any]:
    """Plain JSON for the whole map; ``last_routes`` maps company -> routes last run."""
    hexes = []
    for coord, h in HEXES.items():
        c = content(board, coord)
        stops = []
        for i, s in enumerate(c.stops):
            stop: dict[str, Any] = {"type": s.type, "revenue": s.revenue}
            if s.type == "city":
                stop["slots"] = s.slots
                stop["tokens"] = city_tokens(board, coord, i)
            stops.append(stop)
        hexes.append(
            {
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
                "fc_marker": coord in board["fc_pending"],
                "reserved": sorted(board["reserved"].get(coord, {})),
            }
        )
    barriers = sorted([c, e] for c, e in BARRIERS)
    return {
        "hexes": hexes,
        "barriers": barriers,
        "supply": dict(sorted(board["supply"].items())),
        "routes": dict(last_routes or {}),
    }
