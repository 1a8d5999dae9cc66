"""The map part of the game state, as plain JSON data, and what each hex holds.

``board`` (a dict inside the game state)::

    {"tiles":    {"C4": ["57", 2], ...},     # laid tile and rotation per hex
     "tokens":   {"B7": [[], ["FC"]], ...},  # per hex, per city: station owners
     "fc_pending": ["B9", ...],              # FC markers not yet in a city slot
     "reserved": {"C14": {"CVC": 0}, ...},   # homes not yet tokened: company -> city
     "supply":   {"8/9": 9, ...},            # physical tiles left, by group
     "part":     None}                       # "east" | "west": the 2-player easy map

Preprinted hexes are not stored: a hex without a laid tile shows its printing.
The two special tiles of a part are not stored either: the part fixes them
(``PARTS``), and a hex outside the part is out of play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from ..data.companies import majors_in_play
from ..data.hexes import (
    HAVANA,
    HEXES,
    LAND,
    MAJOR_HOMES,
    NEIGHBOURS,
    PART_TILES,
    DataError,
    Path,
    Stop,
    edge_open,
    harbor_accepts,
)
from ..data.tiles import SPECIAL, TILES, initial_supply, rotated_exits, rotated_paths


class Board(TypedDict):
    """The map part of the state (the module's docstring shows an example);
    declared so that the state's copy copies each part as deep as it goes
    rather than through JSON."""

    tiles: dict[str, list[Any]]  # [tile name, rotation]
    tokens: dict[str, list[list[str]]]
    fc_pending: list[str]
    reserved: dict[str, dict[str, int]]
    supply: dict[str, int]
    part: NotRequired[str | None]


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


@dataclass(frozen=True)
class Part:
    """One part of the island for the 2-player easy game (draft X)."""

    name: str
    tiles: dict[str, tuple[str, int]]  # hex -> (special tile, rotation): the edge
    hexes: frozenset[str]  # in play: the part's land and harbors and the two tiles


def _derive_part(name: str, placed: dict[str, tuple[str, int]]) -> Part:
    """Everything on the far side of the red and dark green tiles is out of play.

    The part is the land the tiles' arrows run into, grown hex by hex without
    crossing the two tiles, and every harbor whose arrows touch it.
    """
    if set(placed) - LAND or {t for t, _r in placed.values()} != set(SPECIAL):
        raise DataError(f"part {name}: the two special tiles go on two land hexes")
    targets = []
    for coord, (tile, rot) in placed.items():
        for edge in rotated_exits(tile, rot):
            other = NEIGHBOURS[coord][edge]
            if other is None or other not in LAND or other in placed:
                raise DataError(f"part {name}: the arrow of {coord} at side {edge} leads nowhere")
            targets.append(other)
    land = set(targets)
    todo = list(targets)
    while todo:
        for other in NEIGHBOURS[todo.pop()]:
            if other in LAND and other not in placed and other not in land:
                land.add(other)
                todo.append(other)
    if not LAND - land - set(placed):
        raise DataError(f"part {name}: the two tiles do not cut the map in two")
    harbors = set()
    for coord, h in HEXES.items():
        if not h.is_harbor:
            continue
        ends = {NEIGHBOURS[coord][e] for e in range(6) if harbor_accepts(coord, e)}
        if ends & land and not ends <= land:
            raise DataError(f"part {name}: harbor {coord} lies on the edge of the part")
        if ends <= land:
            harbors.add(coord)
    return Part(name, dict(placed), frozenset(land | harbors | set(placed)))


PARTS: dict[str, Part] = {name: _derive_part(name, tiles) for name, tiles in PART_TILES.items()}


def new_board(part: str | None = None) -> Board:
    """The map at the start: FC in Havana, FC markers waiting, homes reserved.

    On a part (the 2-player easy game) only what lies in play is on the board:
    the homes of the majors in play, and FC markers in play (outside the part
    they never enter the game; the FC station in Havana is only there in the
    western part).
    """
    if part is not None and part not in PARTS:
        raise ValueError(f"there is no part {part!r} of the map (east or west)")
    play = PARTS[part].hexes if part is not None else frozenset(HEXES)
    edge = PARTS[part].tiles if part is not None else {}
    reserved: dict[str, dict[str, int]] = {}
    for sym in majors_in_play(part):
        if sym in MAJOR_HOMES:
            coord, city = MAJOR_HOMES[sym]
            reserved.setdefault(coord, {})[sym] = city
    tokens: dict[str, list[list[str]]] = {}
    if HAVANA in play:
        havana: list[list[str]] = [[] for _ in HEXES[HAVANA].stops]
        havana[HEXES[HAVANA].homes[FC]].append(FC)
        tokens[HAVANA] = havana
    return {
        "tiles": {},
        "tokens": tokens,
        "fc_pending": sorted(
            c
            for c, h in HEXES.items()
            if h.fc_marker and c != HAVANA and c in play and c not in edge
        ),
        "reserved": reserved,
        "supply": initial_supply(),
        "part": part,
    }


def copy_board(board: Board) -> Board:
    """A copy deep enough for every change made by this package."""
    return {
        "tiles": {k: list(v) for k, v in board["tiles"].items()},
        "tokens": {k: [list(c) for c in v] for k, v in board["tokens"].items()},
        "fc_pending": list(board["fc_pending"]),
        "reserved": {k: dict(v) for k, v in board["reserved"].items()},
        "supply": dict(board["supply"]),
        "part": board.get("part"),
    }


def part_of(board: Board) -> Part | None:
    return part_named(board.get("part"))


def part_named(name: str | None) -> Part | None:
    """The part of the map called `name` (None: the whole map)."""
    return PARTS[name] if name is not None else None


def in_play(board: Board, coord: str) -> bool:
    """Is the hex in the part of the map being played (always, on the full map)?"""
    part = part_of(board)
    return part is None or coord in part.hexes


def edge_tile(board: Board, coord: str) -> tuple[str, int] | None:
    """The special tile (name, rotation) on this hex, if it is the edge of a part."""
    part = part_of(board)
    return part.tiles.get(coord) if part is not None else None


def buildable(board: Board, coord: str) -> bool:
    """In play and not one of the two edge tiles, which nothing replaces."""
    return in_play(board, coord) and edge_tile(board, coord) is None


def side_open(board: Board, coord: str, edge: int) -> bool:
    """May track on ``coord`` leave through ``edge`` (``hexes.edge_open``, and the part)?"""
    return edge_open(coord, edge) and part_side_open(part_of(board), coord, edge)


def part_side_open(part: Part | None, coord: str, edge: int) -> bool:
    """On a part, track may not run into a hex out of play, nor into an edge
    tile except at one of its arrows (the map's own limits: ``hexes.edge_open``)."""
    if part is None:
        return True
    other = NEIGHBOURS[coord][edge]
    if other not in part.hexes:
        return False
    if other in part.tiles:
        tile, rot = part.tiles[other]
        return (edge + 3) % 6 in rotated_exits(tile, rot)
    return True


def content(board: Board, coord: str) -> Content:
    part = board.get("part")  # inline: this runs for every hex of every network
    special = PARTS[part].tiles.get(coord) if part is not None else None
    if special is not None:
        name, rot = special
        t = SPECIAL[name]
        return Content(coord, t.color, t.label, t.stops, rotated_paths(name, rot), name, rot)
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
