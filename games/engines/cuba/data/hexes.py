"""The 18Cuba hex grid: coordinates, neighbours, barriers and preprinted hexes.

Data comes from ``map.json`` (transcribed once from the team's gamedata; see
README) and is validated when this module is imported, so a typo in the data
file fails loudly at start-up instead of deep inside a game.

Geometry: pointy-topped hexes in a doubled-coordinate system.  A coordinate
such as ``B7`` is row letter + column number; x = column - 1, y = row index.
Edges are numbered clockwise from the lower-left side: 0 SW, 1 W, 2 NW, 3 NE,
4 E, 5 SE; the opposite of edge e is (e + 3) % 6.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

EDGE_OFFSETS: tuple[tuple[int, int], ...] = ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1))
HEX_KINDS = ("blank", "city", "sugar", "harbor", "havana")
# "offboard" is a harbor; "red" the red off-board area of the 2-player easy game
STOP_TYPES = ("city", "town", "offboard", "red")
GAUGES = ("s", "n")  # standard, narrow
HAVANA = "B7"


class DataError(ValueError):
    """The packaged component data is inconsistent (a bug, never a player error)."""


@dataclass(frozen=True)
class Stop:
    type: str  # city | town | offboard | red
    revenue: int  # a stop valued by phase: its phase-1 value (use revenue_of)
    slots: int = 0
    phase_revenues: tuple[int, ...] = ()  # value in phases 1, 2, ... (the red off-board)


def revenue_of(stop: Stop, phase: int | None) -> int:
    """What the stop counts in ``phase``; a stop valued by phase needs the phase."""
    if not stop.phase_revenues:
        return stop.revenue
    if phase is None:
        raise ValueError("the red off-board's value depends on the phase: pass phase=")
    return stop.phase_revenues[min(max(phase, 1), len(stop.phase_revenues)) - 1]


@dataclass(frozen=True)
class Path:
    """One piece of track: two ends, each ``("e", edge)`` or ``("s", stop index)``."""

    a: tuple[str, int]
    b: tuple[str, int]
    gauge: str


@dataclass(frozen=True)
class Hex:
    coord: str
    name: str | None
    kind: str
    label: str | None
    stops: tuple[Stop, ...]
    paths: tuple[Path, ...]
    fc_marker: bool
    homes: dict[str, int]  # company -> city index
    x: int
    y: int

    @property
    def is_harbor(self) -> bool:
        return self.kind == "harbor"


def parse_end(text: str) -> tuple[str, int]:
    if len(text) < 2 or text[0] not in "es" or not text[1:].isdigit():
        raise DataError(f"bad path end {text!r}")
    return (text[0], int(text[1:]))


def parse_coord(coord: str) -> tuple[int, int]:
    """``B7`` -> (x, y) = (6, 1)."""
    if len(coord) < 2 or not coord[0].isalpha() or not coord[1:].isdigit():
        raise DataError(f"bad coordinate {coord!r}")
    return int(coord[1:]) - 1, ord(coord[0].upper()) - ord("A")


def coord_of(x: int, y: int) -> str:
    return f"{chr(ord('A') + y)}{x + 1}"


def parse_stops(raw: list[dict[str, Any]], where: str) -> tuple[Stop, ...]:
    stops = []
    for s in raw:
        if s["type"] not in STOP_TYPES:
            raise DataError(f"{where}: bad stop type {s['type']!r}")
        ladder = tuple(int(v) for v in s.get("phase_revenues", ()))
        if (s["type"] == "red") != bool(ladder) or list(ladder) != sorted(ladder):
            raise DataError(f"{where}: a red off-board (only) has rising values by phase")
        revenue = ladder[0] if ladder else int(s["revenue"])
        stops.append(Stop(s["type"], revenue, int(s.get("slots", 0)), ladder))
    return tuple(stops)


def parse_paths(raw: list[list[str]], n_stops: int, where: str) -> tuple[Path, ...]:
    paths = []
    for a, b, gauge in raw:
        pa, pb = parse_end(a), parse_end(b)
        if gauge not in GAUGES:
            raise DataError(f"{where}: bad gauge {gauge!r}")
        for kind, n in (pa, pb):
            if (kind == "e" and not 0 <= n < 6) or (kind == "s" and not 0 <= n < n_stops):
                raise DataError(f"{where}: path end {kind}{n} out of range")
        paths.append(Path(pa, pb, gauge))
    return tuple(paths)


def _load() -> tuple[dict[str, Hex], frozenset[tuple[str, int]]]:
    raw = json.loads(FilePath(__file__).with_name("map.json").read_text(encoding="utf-8"))
    hexes: dict[str, Hex] = {}
    for coord, h in raw["hexes"].items():
        x, y = parse_coord(coord)
        if (x + y) % 2 != 1:
            raise DataError(f"{coord}: column parity does not match the row")
        if h["kind"] not in HEX_KINDS:
            raise DataError(f"{coord}: bad kind {h['kind']!r}")
        stops = parse_stops(h.get("stops", []), coord)
        hexes[coord] = Hex(
            coord=coord,
            name=h.get("name"),
            kind=h["kind"],
            label=h.get("label"),
            stops=stops,
            paths=parse_paths(h.get("paths", []), len(stops), coord),
            fc_marker=bool(h.get("fc_marker", False)),
            homes=dict(h.get("homes", {})),
            x=x,
            y=y,
        )
    barriers: set[tuple[str, int]] = set()
    for a, b in raw["barriers"]:
        edge = edge_between(a, b)
        if edge is None or a not in hexes or b not in hexes:
            raise DataError(f"barrier {a}|{b} is not between two neighbouring hexes")
        barriers.add((a, edge))
        barriers.add((b, (edge + 3) % 6))
    _validate(hexes)
    return hexes, frozenset(barriers)


def edge_between(a: str, b: str) -> int | None:
    """The edge of hex ``a`` that faces hex ``b``, or None if they do not touch."""
    ax, ay = parse_coord(a)
    bx, by = parse_coord(b)
    for edge, (dx, dy) in enumerate(EDGE_OFFSETS):
        if (ax + dx, ay + dy) == (bx, by):
            return edge
    return None


def _validate(hexes: dict[str, Hex]) -> None:
    for h in hexes.values():
        bad_harbor = len(h.stops) != 1 or h.stops[0].type != "offboard" or not h.paths
        if h.kind == "harbor" and bad_harbor:
            raise DataError(f"{h.coord}: a harbor needs one offboard stop and track stubs")
        if h.kind in ("city", "havana") and not all(s.type == "city" for s in h.stops):
            raise DataError(f"{h.coord}: city hex with a non-city stop")
        if h.kind == "city" and len(h.stops) != 1:
            raise DataError(f"{h.coord}: a plain city hex has exactly one city")
        for sym, idx in h.homes.items():
            if not 0 <= idx < len(h.stops):
                raise DataError(f"{h.coord}: home of {sym} names a missing city")
        for p in h.paths:
            for kind, n in (p.a, p.b):
                if kind == "e" and neighbour(h.coord, n, hexes) is None:
                    raise DataError(f"{h.coord}: preprinted track leaves the map at edge {n}")


def neighbour(coord: str, edge: int, table: dict[str, Hex] | None = None) -> str | None:
    """The hex across ``edge`` of ``coord``, or None at the edge of the map."""
    x, y = parse_coord(coord)
    dx, dy = EDGE_OFFSETS[edge]
    if x + dx < 0 or y + dy < 0:
        return None
    other = coord_of(x + dx, y + dy)
    return other if other in (HEXES if table is None else table) else None


HEXES, BARRIERS = _load()
LAND = frozenset(c for c, h in HEXES.items() if not h.is_harbor)
FC_MARKER_HEXES = tuple(c for c, h in HEXES.items() if h.fc_marker)
MAJOR_HOMES: dict[str, tuple[str, int]] = {
    sym: (c, idx) for c, h in HEXES.items() for sym, idx in h.homes.items() if sym != "FC"
}
NEIGHBOURS: dict[str, tuple[str | None, ...]] = {
    c: tuple(neighbour(c, e) for e in range(6)) for c in HEXES
}


def harbor_accepts(coord: str, edge: int) -> bool:
    """Does the harbor hex ``coord`` have a track stub on ``edge``?"""
    return any(("e", edge) in (p.a, p.b) for p in HEXES[coord].paths)


def edge_open(coord: str, edge: int) -> bool:
    """May track on land hex ``coord`` leave through ``edge``?

    Not into a barrier, not off the map, and not into the sea: a harbor hex
    only takes track on the sides where its arrow (stub) is printed.
    """
    if (coord, edge) in BARRIERS:
        return False
    other = NEIGHBOURS[coord][edge]
    if other is None:
        return False
    if HEXES[other].is_harbor:
        return harbor_accepts(other, (edge + 3) % 6)
    return True


# The 2-player easy game (draft X) is played on one part of the island: the red
# off-board tile and the dark green sugar field tile, laid at the start, form
# the edge of the map.  Hex -> (tile, rotation) per part.  The draft's hexes
# (C15/B16 east, C19/D18 west) are not in this grid: README "The 2-player easy
# map" explains the mapping, which is provisional.
PART_TILES: dict[str, dict[str, tuple[str, int]]] = {
    "east": {"D15": ("RED", 0), "C16": ("DG", 0)},
    "west": {"D19": ("RED", 3), "E18": ("DG", 3)},
}
PART_NOTES: dict[str, tuple[str, ...]] = {
    "east": (
        "The draft puts the red tile on C15 and the dark green tile on B16, hexes this map "
        "does not have; they lie here on D15 (Sancti Spiritus) and C16 (a sugar cane field), "
        "one row lower: the only shift that makes them the edge between the two parts with "
        "every arrow pointing into the part in play.",
    ),
    "west": (
        "The draft puts the red tile on C19 and the dark green tile on D18, hexes this map "
        "does not have; they lie here on D19 (Camagüey) and E18 (a sugar cane field), the "
        "same shift as for the eastern part.",
        "The draft turns the red tile's arrows W and SW, but SW faces the dark green tile; "
        "here they point W and NW (the eastern placement turned round), into the part in play.",
    ),
}
