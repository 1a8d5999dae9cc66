"""The map part of the game state, as plain JSON data, and what each hex holds.

``board`` (a dict inside the game state)::

    {"tiles":    {"C4": ["57", 2], ...},     # laid tile and rotation per hex
     "tokens":   {"B7": [[], ["FC"]], ...},  # per hex, per city: station owners
     "fc_pending": ["B9", ...],              # FC markers not yet in a city slot
     "reserved": {"C14": {"CVC": 0}, ...},   # homes not yet tokened: company -> city
     "supply":   {"8/9": 9, ...}}            # physical tiles left, by group

Preprinted hexes are not stored: a hex without a laid tile shows its printing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hexes import HAVANA, HEXES, MAJOR_HOMES, Path, Stop
from .tiles import TILES, initial_supply, rotated_paths

Board = dict[str, Any]
FC = "FC"
MAJORS = frozenset({*MAJOR_HOMES, "FEC"})
MINORS = frozenset({"HG", "JU", "HY", "DQ", "CO", "SB"})


@dataclass(frozen=True)
class Content:
    """What is on a hex now: the laid tile or the preprinted face."""

    coord: str
    color: str  # white | yellow | green | brown | gray | blue
    label: str | None
    stops: tuple[Stop, ...]
    paths: tuple[Path, ...]
    tile: str | None
    rotation: int


def new_board() -> Board:
    """The map at the start: FC in Havana, FC markers waiting, homes reserved."""
    reserved: dict[str, dict[str, int]] = {}
    for sym, (coord, city) in MAJOR_HOMES.items():
        reserved.setdefault(coord, {})[sym] = city
    havana: list[list[str]] = [[] for _ in HEXES[HAVANA].stops]
    havana[HEXES[HAVANA].homes[FC]].append(FC)
    return {
        "tiles": {},
        "tokens": {HAVANA: havana},
        "fc_pending": sorted(c for c, h in HEXES.items() if h.fc_marker and c != HAVANA),
        "reserved": reserved,
        "supply": initial_supply(),
    }


def copy_board(board: Board) -> Board:
    """A copy deep enough for every change made by this package."""
    return {
        "tiles": {k: list(v) for k, v in board["tiles"].items()},
        "tokens": {k: [list(c) for c in v] for k, v in board["tokens"].items()},
        "fc_pending": list(board["fc_pending"]),
        "reserved": {k: dict(v) for k, v in board["reserved"].items()},
        "supply": dict(board["supply"]),
    }


def content(board: Board, coord: str) -> Content:
    laid = board["tiles"].get(coord)
    h = HEXES[coord]
    if laid is not None:
        name, rot = laid
        t = TILES[name]
        return Content(coord, t.color, t.label, t.stops, rotated_paths(name, rot), name, rot)
    if h.is_harbor:
        color = "blue"
    elif h.kind == "havana":
        color = "yellow"
    else:
        color = "white"
    return Content(coord, color, h.label, h.stops, h.paths, None, 0)


def city_tokens(board: Board, coord: str, city: int) -> list[str]:
    cities = board["tokens"].get(coord)
    return list(cities[city]) if cities and city < len(cities) else []


def company_hexes(board: Board, company: str) -> list[tuple[str, int]]:
    """Every (hex, city) where ``company`` has a station."""
    return [
        (coord, i)
        for coord, cities in sorted(board["tokens"].items())
        for i, owners in enumerate(cities)
        if company in owners
    ]


def free_slots(board: Board, coord: str, city: int) -> int:
    stop = content(board, coord).stops[city]
    return stop.slots - len(city_tokens(board, coord, city))


def is_blocked(board: Board, coord: str, city: int, company: str, ignore_fc: Any = ()) -> bool:
    """A full city the company has no station in; FC tokens it paid to pass don't count."""
    stop = content(board, coord).stops[city]
    if stop.type != "city":
        return False
    owners = city_tokens(board, coord, city)
    if company in owners:
        return False
    counted = [o for o in owners if not (o == FC and coord in ignore_fc)]
    return len(counted) >= stop.slots


def tiles_on_map(board: Board) -> dict[str, int]:
    """Physical tiles on the map, by group (for the conservation check)."""
    out: dict[str, int] = {}
    for name, _rot in board["tiles"].values():
        group = TILES[name].group
        out[group] = out.get(group, 0) + 1
    return out
