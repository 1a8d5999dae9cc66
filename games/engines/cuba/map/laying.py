"""Laying and upgrading track tiles (draft VII.3.4 and VII.3.5).

``check_lay`` says whether a lay is legal and what it costs; ``lay_tile``
applies it to a copy of the board; ``legal_lays`` enumerates every legal lay
for a company.  A round step (later issue) decides *when* a company may lay
(one lay per OR plus commissioner lays) and pays the costs returned here.

Who lays is described by :class:`Layer`; ``fc_paid`` are FC tokens the
company already paid $20 to pass *for laying* this OR, ``fc_new`` the ones it
pays for with this lay (each must actually be needed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ...i18n import N_
from ..data.hexes import HAVANA, HEXES, LAND, edge_open
from ..data.tiles import (
    COLOR_PHASE,
    NEXT_COLOR,
    TILES,
    Tile,
    distinct_rotations,
    rotated_exits,
    rotated_paths,
)
from ..refusals import reason, refusal, refuse
from .board import (
    FC,
    Board,
    Content,
    Part,
    buildable,
    company_hexes,
    content,
    copy_board,
    is_blocked,
    part_named,
    part_of,
    part_side_open,
)
from .graph import Reach, build, cheapest_reach, reach
from .upgrades import old_tile_name, stop_mapping, upgrade_fault

SUGAR_FIELD_COST = 10  # a major's plain track on a sugar cane hex
FC_FEE = 20

# Commissioner number -> (colour, "plain" | "city"); plain includes sugar field tiles (IV.1).
COMMISSIONER_TILES = {
    1: ("yellow", "plain"),
    2: ("yellow", "city"),
    3: ("green", "plain"),
    4: ("green", "city"),
    5: ("brown", "plain"),
    6: ("brown", "city"),
}


@dataclass(frozen=True)
class Layer:
    """The company laying track, as the lay rules need to know it."""

    sym: str
    kind: str  # "major" | "minor"
    home: str | None = None  # home hex (a minor's chosen sugar mill city)
    first_turn: bool = False

    @property
    def gauge(self) -> str:
        return "s" if self.kind == "major" else "n"


@dataclass(frozen=True)
class LayResult:
    cost: int  # terrain cost paid to the bank
    fc_fee: int  # $20 per FC token newly passed
    replaced: str | None  # the tile returned to the supply


def _static_fault(
    board: Board, who: Layer, coord: str, tile: Tile, rot: int, phase: int
) -> str | None:
    """Every rule that does not depend on connectivity; None when all pass."""
    if coord not in LAND:
        return reason(N_("{coord} is not a land hex of the map"), coord=coord)
    part = part_of(board)
    if part is not None and coord not in part.hexes:
        return reason(N_("{coord} lies outside the part of the map in play"), coord=coord)
    if part is not None and coord in part.tiles:
        return reason(
            N_("{coord} is the edge of the map: its special tile is never built on or upgraded"),
            coord=coord,
        )
    cur = content(board, coord)
    if NEXT_COLOR.get(cur.color) != tile.color:
        want = NEXT_COLOR.get(cur.color, "nothing")
        return reason(
            N_("{coord} takes a {want} tile next, not {color}"),
            coord=coord,
            want=want,
            color=tile.color,
        )
    if COLOR_PHASE[tile.color] > phase:
        return reason(
            N_("{color} tiles are not available before phase {phase}"),
            color=tile.color,
            phase=COLOR_PHASE[tile.color],
        )
    if cur.label != tile.label:
        if tile.label == "H" or cur.label == "H":
            return reason(N_("only H tiles go on Havana, and H tiles go nowhere else"))
        return reason(
            N_("tile {name} does not match the label of {coord}"), name=tile.name, coord=coord
        )
    return _rotation_fault(board, who, coord, cur, tile, rot)


def _rotation_fault(
    board: Board, who: Layer, coord: str, cur: Content, tile: Tile, rot: int
) -> str | None:
    """The rules `_static_fault` asks last, those that depend on the
    rotation; the listing of legal lays asks only these of each rotation,
    having asked the rest once per hex and tile."""
    fault = _sides_fault(board.get("part"), coord, tile.name, rot)
    if fault:
        return fault
    if cur.color == "white":
        return _lay_fault(who, coord, tile)
    return _upgrade_fault(board, who, coord, tile, rot)


# Asked of every rotation of every tile on every candidate hex whenever a
# company's lays are listed, and fixed by the map and the part alone.
@cache
def _sides_fault(part_name: str | None, coord: str, name: str, rot: int) -> str | None:
    """Why track on tile `name` at `rot` may not leave `coord` (off the map,
    into the sea or a barrier, off the part in play), or None."""
    part = part_named(part_name)
    ends = rotated_exits(name, rot)
    if _sides_open(part, coord, ends):
        return None
    bad = sorted(e for e in ends if not edge_open(coord, e))
    if bad:
        return reason(
            N_("track would run off the map, into the sea or into a barrier at side {side}"),
            side=bad[0],
        )
    bad = sorted(e for e in ends if not part_side_open(part, coord, e))
    return reason(
        N_("track would run off the part of the map in play at side {side}"), side=bad[0]
    )


def _sides_open(part: Part | None, coord: str, ends: Iterable[int]) -> bool:
    """Whether track may leave `coord` through each of `ends` (the map's own
    limits, then the part's)."""
    return all(edge_open(coord, e) and part_side_open(part, coord, e) for e in ends)


def _lay_fault(who: Layer, coord: str, tile: Tile) -> str | None:
    kind = HEXES[coord].kind
    if who.kind == "minor" and tile.is_mill:
        if kind != "city" or coord != who.home:
            return reason(N_("a minor lays a sugar mill tile only on its own home city"))
        return None
    if who.kind == "minor" and tile.gauges != {"n"}:
        return reason(N_("minor companies lay only narrow gauge yellow tiles"))
    if who.kind == "major" and tile.gauges != {"s"}:
        return reason(N_("major companies lay only standard gauge yellow tiles"))
    if kind == "city":
        if who.kind == "minor":
            return reason(N_("a minor company lays no city tile except its home sugar mill"))
        if tile.cities == 1 and not tile.towns:
            return None
        return reason(N_("a city hex needs a city tile"))
    if kind == "sugar":
        if who.kind == "minor" and not tile.is_sugar_field:
            return reason(N_("on a sugar cane field a minor lays only a sugar field tile"))
        if who.kind == "major" and not tile.is_plain:
            return reason(N_("on a sugar cane field a major lays only plain track"))
        return None
    return None if tile.is_plain else reason(N_("open hexes take only plain track"))


def _upgrade_fault(board: Board, who: Layer, coord: str, tile: Tile, rot: int) -> str | None:
    laid = board["tiles"].get(coord)
    old = old_tile_name(coord, laid[0] if laid else None)
    if old is None:
        return reason(N_("{coord} has no tile to upgrade"), coord=coord)
    old_rot = laid[1] if laid else 0
    if coord == HAVANA and who.kind != "major":
        return reason(N_("only major companies may build in Havana"))
    fault = upgrade_fault(old, old_rot, tile.name, rot) or _room_fault(
        board, coord, old, old_rot, tile, rot
    )
    if fault:
        return fault
    if laid is None:
        return None
    old_tile = TILES[old]
    if who.kind == "minor" and old_tile.cities and coord != who.home:
        return reason(N_("a minor company upgrades no city tile except its home"))
    if old_tile.is_plain and old_tile.color == "yellow":
        before = sum(1 for p in old_tile.paths if p.gauge == who.gauge)
        after = sum(1 for p in tile.paths if p.gauge == who.gauge)
        if after <= before:
            gauge = "standard" if who.gauge == "s" else "narrow"
            return reason(
                N_("this upgrade must extend the company's own {gauge} gauge track"), gauge=gauge
            )
    return None


def _room_fault(
    board: Board, coord: str, old: str, old_rot: int, tile: Tile, rot: int
) -> str | None:
    """The new cities must hold the stations and kept homes already there (L46 -> L47)."""
    mapping = stop_mapping(old, old_rot, tile.name, rot) or ()
    need = [0] * len(tile.stops)
    for i, owners in enumerate(board["tokens"].get(coord, [])):
        need[mapping[i]] += len(owners)
    for city in board["reserved"].get(coord, {}).values():
        need[mapping[city]] += 1
    if any(n > s.slots for n, s in zip(need, tile.stops, strict=True) if s.type == "city"):
        return reason(
            N_("tile {name} has no room for the stations already in {coord}"),
            name=tile.name,
            coord=coord,
        )
    return None


def _connected(board: Board, r: Reach, who: Layer, coord: str, tile: str, rot: int) -> bool:
    """Is the new tile connected to a station of the company (draft VII.3.4/5)?"""
    if any(c == coord for c, _i in company_hexes(board, who.sym)):
        return True
    if who.kind == "minor" and coord == who.home and TILES[tile].is_mill:
        return True
    if coord in r.track:
        return True  # old track on the hex is reached and survives the upgrade
    for p in rotated_paths(tile, rot):
        if p.gauge != who.gauge:
            continue
        for kind, n in (p.a, p.b):
            if kind == "e" and (coord, n) in r.arrivals:
                return True
    return False


def _first_turn_fault(board: Board, who: Layer, coord: str) -> str | None:
    if not who.first_turn or who.home is None or coord == who.home:
        return None
    if who.home == HAVANA or who.home in board["tiles"]:
        return None
    return reason(
        N_("in its first turn the company must lay its tile on its home {home}"), home=who.home
    )


def _commissioner_fault(commissioner: int | None, tile: Tile) -> str | None:
    if commissioner is None:
        return None
    if commissioner not in COMMISSIONER_TILES:
        return reason(N_("there is no commissioner #{commissioner}"), commissioner=commissioner)
    color, kind = COMMISSIONER_TILES[commissioner]
    is_city = tile.cities > 0
    if tile.color != color or (kind == "city") != is_city:
        return reason(
            N_("commissioner #{commissioner} lays only a {color} {kind} tile"),
            commissioner=commissioner,
            color=color,
            kind=kind,
        )
    if is_city and tile.label == "Y":
        return reason(
            N_("commissioner #{commissioner} cannot lay a Y city tile"), commissioner=commissioner
        )
    return None


def check_lay(
    board: Board,
    who: Layer,
    coord: str,
    tile: str,
    rotation: int,
    phase: int,
    *,
    fc_paid: Any = (),
    fc_new: Any = (),
    commissioner: int | None = None,
) -> LayResult:
    """Validate a lay or upgrade; raise IllegalAction with the reason."""
    if not isinstance(coord, str) or not isinstance(tile, str):
        raise refuse("name the hex and the tile, e.g. hex 'B9', tile '57'")
    _check_passes(fc_new)
    if coord not in HEXES:
        raise refuse("there is no hex {coord} on the map", coord=repr(coord))
    if tile not in TILES:
        raise refuse("there is no tile {tile}", tile=repr(tile))
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation < 6:
        raise refuse("rotation must be a whole number from 0 to 5")
    t = TILES[tile]
    if board["supply"].get(t.group, 0) <= 0:
        raise refuse("no tile {tile} is left in the supply", tile=tile)
    for fault in (
        _commissioner_fault(commissioner, t),
        _first_turn_fault(board, who, coord),
        _static_fault(board, who, coord, t, rotation, phase),
    ):
        if fault:
            raise refusal(fault)
    fc_new = sorted(set(fc_new))
    if fc_new and who.kind != "major":
        raise refuse("only major companies may pay to pass FC tokens")
    for token in fc_new:
        if token in fc_paid or not _fc_blocks(board, token, who.sym):
            raise refuse("the FC token in {token} does not block {sym}", token=token, sym=who.sym)
    net = build(board, who.gauge)
    passes = set(fc_paid) | set(fc_new)
    if not _connected(board, reach(board, net, who.sym, passes), who, coord, tile, rotation):
        raise refuse("{coord} is not connected to a station of {sym}", coord=coord, sym=who.sym)
    for token in fc_new:
        fewer = passes - {token}
        if _connected(board, reach(board, net, who.sym, fewer), who, coord, tile, rotation):
            raise refuse("passing the FC token in {token} is not needed for this lay", token=token)
    cost = 0
    if who.kind == "major" and HEXES[coord].kind == "sugar" and content(board, coord).tile is None:
        cost = SUGAR_FIELD_COST
    laid = board["tiles"].get(coord)
    return LayResult(cost, FC_FEE * len(fc_new), laid[0] if laid else None)


def _check_passes(fc_new: Any) -> None:
    if not isinstance(fc_new, list | tuple) or not all(isinstance(t, str) for t in fc_new):
        raise refuse("FC passes are a list of hexes, e.g. ['B11']")


def _fc_blocks(board: Board, coord: str, company: str) -> bool:
    """Is there an FC token in ``coord`` that closes a city to ``company``?"""
    cities = board["tokens"].get(coord, [])
    return any(
        FC in owners and is_blocked(board, coord, i, company) for i, owners in enumerate(cities)
    )


def lay_tile(
    board: Board, who: Layer, coord: str, tile: str, rotation: int, phase: int, **kw: Any
) -> tuple[Board, LayResult]:
    """Check and apply a lay; returns a new board (the given one is untouched)."""
    result = check_lay(board, who, coord, tile, rotation, phase, **kw)
    return apply_lay(board, who, coord, tile, rotation), result


def apply_lay(board: Board, who: Layer, coord: str, tile: str, rotation: int) -> Board:
    """Put the tile down: supply, returned tile, moved tokens and reservations, FC marker."""
    new = copy_board(board)
    laid = board["tiles"].get(coord)
    t = TILES[tile]
    new["supply"][t.group] -= 1
    if laid is not None:
        old_group = TILES[laid[0]].group
        new["supply"][old_group] = new["supply"].get(old_group, 0) + 1
    old = old_tile_name(coord, laid[0] if laid else None)
    mapping: tuple[int, ...] = (0,) * len(HEXES[coord].stops)
    if old is not None:
        mapping = stop_mapping(old, laid[1] if laid else 0, tile, rotation) or ()
    new["tiles"][coord] = [tile, rotation]
    old_tokens = board["tokens"].get(coord)
    if old_tokens is not None or t.cities:
        cities: list[list[str]] = [[] for _ in t.stops]
        for i, owners in enumerate(old_tokens or []):
            cities[mapping[i]].extend(owners)
        new["tokens"][coord] = cities
    if coord in new["reserved"]:
        new["reserved"][coord] = {s: mapping[c] for s, c in new["reserved"][coord].items()}
    home_mill = who.kind == "minor" and t.is_mill and coord == who.home
    if home_mill and not company_hexes(new, who.sym):
        # the minor's station marker is its sugar mill, put down with the tile (VII.3.4)
        new["tokens"][coord][0].append(who.sym)
        new["reserved"].get(coord, {}).pop(who.sym, None)
    if coord in new["fc_pending"] and t.color != "yellow":
        _place_fc(new, coord)
    if not new["reserved"].get(coord, True):
        del new["reserved"][coord]
    return new


def _place_fc(board: Board, coord: str) -> None:
    """The FC marker slips into an open slot when its hex turns green (IV.5)."""
    stops = content(board, coord).stops
    for i, stop in enumerate(stops):
        if stop.type == "city" and len(board["tokens"][coord][i]) < stop.slots:
            board["tokens"][coord][i].append(FC)
            board["fc_pending"].remove(coord)
            return


def legal_lays(
    board: Board,
    who: Layer,
    phase: int,
    *,
    fc_paid: Any = (),
    commissioner: int | None = None,
) -> list[dict[str, Any]]:
    """Every legal lay: ``{"hex", "tile", "rotation", "cost", "fc_passes"}``.

    ``fc_passes`` is the fewest FC tokens the company must pay to pass for it
    (which of several equally short sets is immaterial: each costs $20).
    """
    who_key = [who.sym, who.kind, who.home, who.first_turn]
    key = json.dumps([board, who_key, phase, sorted(fc_paid), commissioner], sort_keys=True)
    return [{**lay, "fc_passes": list(lay["fc_passes"])} for lay in _lays_of(key)]


# A round lists a company's lays after every move and checks each lay against
# them, for the same position many times over (about 10 ms a time on a late
# map). The answer is computed from the key alone (the board as JSON gives
# it back, whatever order its dicts held), so a remembered one is exact and
# the same in every process.
@lru_cache(maxsize=32)
def _lays_of(key: str) -> tuple[dict[str, Any], ...]:
    board, (sym, kind, home, first_turn), phase, fc_paid, commissioner = json.loads(key)
    who = Layer(sym, kind, home=home, first_turn=first_turn)
    lays = _legal_lays(board, who, phase, fc_paid=fc_paid, commissioner=commissioner)
    return tuple(lays)


def _legal_lays(
    board: Board,
    who: Layer,
    phase: int,
    *,
    fc_paid: Any = (),
    commissioner: int | None = None,
) -> list[dict[str, Any]]:
    net = build(board, who.gauge)
    cheap = cheapest_reach(board, net, who.sym, fc_paid, may_pay=who.kind == "major")
    own = {c for c, _i in company_hexes(board, who.sym)}
    track = cheap.track
    candidates = set(track) | own | {h for h, _e in cheap.arrivals}
    candidates |= {net.stops[s][0] for s in cheap.stops}
    if who.home is not None and (who.kind == "minor" or who.first_turn):
        candidates.add(who.home)
    out: list[dict[str, Any]] = []
    available = [t for t in TILES.values() if board["supply"].get(t.group, 0) > 0]
    for coord in sorted(c for c in candidates & LAND if buildable(board, c)):
        if _first_turn_fault(board, who, coord):
            continue
        cur = content(board, coord)
        want = NEXT_COLOR.get(cur.color)
        cost = 0
        if who.kind == "major" and HEXES[coord].kind == "sugar" and cur.tile is None:
            cost = SUGAR_FIELD_COST
        for t in available:
            # What _static_fault asks of the hex and the tile, asked once here
            # (buildable and the first-turn rule above, these filters); of
            # each rotation only the rest.
            if t.color != want or t.label != cur.label or _commissioner_fault(commissioner, t):
                continue
            if COLOR_PHASE[t.color] > phase:
                continue
            for rot in distinct_rotations(t.name):
                if _rotation_fault(board, who, coord, cur, t, rot):
                    continue
                passes = _cheapest_link(cheap, who, coord, t.name, rot, own, track)
                if passes is not None:
                    out.append(
                        {
                            "hex": coord,
                            "tile": t.name,
                            "rotation": rot,
                            "cost": cost,
                            "fc_passes": list(passes),
                        }
                    )
    return out


def _cheapest_link(
    cheap: Reach,
    who: Layer,
    coord: str,
    tile: str,
    rot: int,
    own: set[str],
    track: dict[str, tuple[str, ...]],
) -> tuple[str, ...] | None:
    """The fewest FC passes that connect this lay to a station, or None."""
    if coord in own or (who.kind == "minor" and coord == who.home and TILES[tile].is_mill):
        return ()
    options = [track[coord]] if coord in track else []
    for p in rotated_paths(tile, rot):
        if p.gauge != who.gauge:
            continue
        for kind, n in (p.a, p.b):
            if kind == "e" and (coord, n) in cheap.arrivals:
                options.append(cheap.arrivals[(coord, n)])
    return min(options, key=lambda o: (len(o), o)) if options else None
