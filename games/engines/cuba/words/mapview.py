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

from typing import Any

from ..data.hexes import BARRIERS, HEXES, PART_NOTES, revenue_of
from ..data.tiles import SPECIAL
from ..map.board import Board, city_tokens, content, edge_tile, in_play, part_of


def map_view(
    board: Board, last_routes: dict[str, Any] | None = None, phase: int | None = None
) -> dict[str, Any]:
    """Plain JSON for the whole map; ``last_routes`` maps company -> routes last run.

    ``phase`` gives the red off-board's current value (without it: its first).
    """
    hexes = []
    for coord, h in HEXES.items():
        c = content(board, coord)
        stops = []
        for i, s in enumerate(c.stops):
            value = revenue_of(s, phase) if phase is not None else s.revenue
            stop: dict[str, Any] = {"type": s.type, "revenue": value}
            if s.phase_revenues:
                stop["phase_revenues"] = list(s.phase_revenues)
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
                "in_play": in_play(board, coord),
                "edge": edge_tile(board, coord) is not None,
            }
        )
    barriers = sorted([c, e] for c, e in BARRIERS)
    return {
        "hexes": hexes,
        "barriers": barriers,
        "supply": dict(sorted(board["supply"].items())),
        "routes": dict(last_routes or {}),
        "part": board.get("part"),
        "provisional": provisional(board),
    }


def provisional(board: Board) -> list[str]:
    """What the map shows that the rules do not settle (only a part has any)."""
    part = part_of(board)
    if part is None:
        return []
    notes = [SPECIAL[name].note or "" for name, _rot in part.tiles.values()]
    return [*PART_NOTES[part.name], *(n for n in notes if n)]
