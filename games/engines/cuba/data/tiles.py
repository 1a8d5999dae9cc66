"""Tile faces, their rotations and the physical tile manifest.

A physical tile may have two faces (double-sided pairs): laying either face
uses the physical tile up, so the supply is counted per *group* (the physical
tile), never per face.  ``tiles.json`` lists the faces and the group counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path as FilePath
from typing import Any

from .hexes import DataError, Path, Stop, parse_paths, parse_stops

COLORS = ("yellow", "green", "brown", "gray")
NEXT_COLOR = {"white": "yellow", "yellow": "green", "green": "brown", "brown": "gray"}
# Phase in which each colour becomes available (draft VII.3.5 / VII.3.14).
COLOR_PHASE = {"yellow": 1, "green": 3, "brown": 5, "gray": 7}
SPECIAL_COLORS = ("red", "darkgreen")


@dataclass(frozen=True)
class Tile:
    name: str
    color: str
    group: str
    label: str | None
    stops: tuple[Stop, ...]
    paths: tuple[Path, ...]
    # The special tiles of the 2-player easy game are in neither source (README).
    provisional: bool = False
    note: str | None = None

    @property
    def gauges(self) -> frozenset[str]:
        return frozenset(p.gauge for p in self.paths)

    @property
    def is_mixed(self) -> bool:
        return len(self.gauges) == 2

    @property
    def cities(self) -> int:
        return sum(1 for s in self.stops if s.type == "city")

    @property
    def towns(self) -> int:
        return sum(1 for s in self.stops if s.type == "town")

    @property
    def is_plain(self) -> bool:
        """Plain track: no revenue location at all."""
        return not self.stops

    @property
    def is_sugar_field(self) -> bool:
        return self.towns > 0

    @property
    def is_mill(self) -> bool:
        """A sugar mill: a city tile with both gauges."""
        return self.cities > 0 and self.is_mixed


def _tile(t: dict[str, Any], group: str, colors: tuple[str, ...]) -> Tile:
    name = t["name"]
    if t["color"] not in colors:
        raise DataError(f"tile {name}: bad colour {t['color']!r}")
    stops = parse_stops(t["stops"], f"tile {name}")
    tile = Tile(
        name=name,
        color=t["color"],
        group=group,
        label=t["label"],
        stops=stops,
        paths=parse_paths(t["paths"], len(stops), f"tile {name}"),
        provisional=bool(t.get("provisional", False)),
        note=t.get("note"),
    )
    used = {n for p in tile.paths for k, n in (p.a, p.b) if k == "s"}
    if used != set(range(len(tile.stops))):
        raise DataError(f"tile {name}: a stop without track")
    return tile


def _load() -> tuple[dict[str, Tile], dict[str, int], dict[str, Tile]]:
    raw: dict[str, Any] = json.loads(
        FilePath(__file__).with_name("tiles.json").read_text(encoding="utf-8")
    )
    groups = {str(k): int(v) for k, v in raw["groups"].items()}
    tiles: dict[str, Tile] = {}
    for t in raw["tiles"]:
        name = t["name"]
        if name in tiles:
            raise DataError(f"tile {name} listed twice")
        if t["group"] not in groups or name not in t["group"].split("/"):
            raise DataError(f"tile {name}: bad group {t['group']!r}")
        tiles[name] = _tile(t, t["group"], COLORS)
        if any(s.type == "red" for s in tiles[name].stops):
            raise DataError(f"tile {name}: only a special tile is a red off-board")
    for group, count in groups.items():
        faces = group.split("/")
        if count <= 0 or any(f not in tiles for f in faces):
            raise DataError(f"group {group}: bad count or unknown face")
        if len({tiles[f].color for f in faces}) != 1:
            raise DataError(f"group {group}: faces of different colours")
    special: dict[str, Tile] = {}
    for t in raw["special"]:
        if t["name"] in tiles or t["name"] in special:
            raise DataError(f"tile {t['name']} listed twice")
        special[t["name"]] = _tile(t, t["name"], SPECIAL_COLORS)
    return tiles, groups, special


# TILES: the faces a company may lay; SPECIAL: the two tiles of the 2-player
# easy game, laid at the start and never in the supply.
TILES, MANIFEST, SPECIAL = _load()


def face(name: str) -> Tile:
    """A layable or a special tile face by name."""
    return TILES[name] if name in TILES else SPECIAL[name]


def initial_supply() -> dict[str, int]:
    """Physical tiles in the box, by group (JSON-ready)."""
    return dict(MANIFEST)


@cache
def rotated_paths(name: str, rotation: int) -> tuple[Path, ...]:
    """The tile's track with every edge turned ``rotation`` steps clockwise."""

    def turn(end: tuple[str, int]) -> tuple[str, int]:
        return ("e", (end[1] + rotation) % 6) if end[0] == "e" else end

    return tuple(Path(turn(p.a), turn(p.b), p.gauge) for p in face(name).paths)


def exits(paths: tuple[Path, ...]) -> frozenset[int]:
    return frozenset(n for p in paths for k, n in (p.a, p.b) if k == "e")


@cache
def rotated_exits(name: str, rotation: int) -> frozenset[int]:
    """The edges the tile's track leaves through at ``rotation``."""
    return exits(rotated_paths(name, rotation))


@cache
def distinct_rotations(name: str) -> tuple[int, ...]:
    """Rotations that look different (symmetric tiles repeat themselves).

    Stops are compared by what they are and where their track goes, not by
    their index, so Havana's three-city L45 has two distinct rotations, not six.
    """
    tile = TILES[name]
    seen: dict[frozenset[Any], int] = {}
    for r in range(6):
        paths = rotated_paths(name, r)
        plain = {_path_key(p) for p in paths if p.a[0] == "e" and p.b[0] == "e"}
        stops = set()
        for i, stop in enumerate(tile.stops):
            links = frozenset(
                (end[1], p.gauge)
                for p in paths
                for end in (p.a, p.b)
                if end[0] == "e" and ("s", i) in (p.a, p.b)
            )
            stops.add((stop.type, stop.revenue, stop.slots, links))
        seen.setdefault(frozenset(plain | stops), r)
    return tuple(sorted(seen.values()))


def _path_key(p: Path) -> tuple[Any, ...]:
    a, b = sorted((p.a, p.b))
    return (a, b, p.gauge)
