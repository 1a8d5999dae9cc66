"""Which tile may replace which (draft VII.3.5), independent of who lays it.

An upgrade keeps every piece of old track with its gauge, and every revenue
location of the old tile with all its connections.  Old stops are mapped onto
new stops; the mapping tells where station tokens move.  A labelled tile (the
Havana "H" tiles) may merge several cities into one; unlabelled tiles keep
their number of cities and towns.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from ...i18n import N_
from ..data.hexes import HAVANA, HEXES, Path, Stop
from ..data.tiles import NEXT_COLOR, TILES, Tile, rotated_paths
from ..refusals import reason

PREPRINTED_HAVANA = "#B7"  # pseudo tile name for the printed Havana hex


def _old(name: str, rotation: int) -> tuple[tuple[Stop, ...], tuple[Path, ...]]:
    if name == PREPRINTED_HAVANA:
        return HEXES[HAVANA].stops, HEXES[HAVANA].paths
    return TILES[name].stops, rotated_paths(name, rotation)


def _edge_paths(paths: tuple[Path, ...]) -> set[tuple[int, int, str]]:
    out = set()
    for p in paths:
        if p.a[0] == "e" and p.b[0] == "e":
            a, b = sorted((p.a[1], p.b[1]))
            out.add((a, b, p.gauge))
    return out


def _stop_edges(paths: tuple[Path, ...]) -> set[tuple[int, int, str]]:
    """(stop, edge, gauge) for every path joining a stop to a hex side."""
    out = set()
    for p in paths:
        ends = (p.a, p.b)
        stops = [n for k, n in ends if k == "s"]
        edges = [n for k, n in ends if k == "e"]
        if len(stops) == 1 and len(edges) == 1:
            out.add((stops[0], edges[0], p.gauge))
    return out


@cache
def stop_mapping(old: str, old_rot: int, new: str, new_rot: int) -> tuple[int, ...] | None:
    """Old stop index -> new stop index if ``new`` keeps all of ``old``'s track.

    None when some track, gauge, revenue location or connection would be lost.
    """
    old_stops, old_paths = _old(old, old_rot)
    new_tile = TILES[new]
    new_paths = rotated_paths(new, new_rot)
    if not _edge_paths(old_paths) <= _edge_paths(new_paths):
        return None
    old_links = _stop_edges(old_paths)
    new_links = _stop_edges(new_paths)
    merge = new_tile.label is not None and new_tile.cities < len(old_stops)
    choices = [
        [j for j, ns in enumerate(new_tile.stops) if ns.type == os.type] for os in old_stops
    ]
    for mapping in product(*choices):
        if not merge and len(set(mapping)) != len(mapping):
            continue
        if all((mapping[s], e, g) in new_links for s, e, g in old_links):
            return tuple(mapping)
    return None


def old_tile_name(coord: str, laid: str | None) -> str | None:
    """The tile an upgrade replaces: a laid tile, or printed Havana."""
    if laid is not None:
        return laid
    return PREPRINTED_HAVANA if coord == HAVANA else None


# Fixed by the two tiles alone, and asked of every rotation of every tile
# whenever a company's lays are listed.
@cache
def upgrade_fault(old: str, old_rot: int, new: str, new_rot: int) -> str | None:
    """Why ``new`` cannot replace ``old`` (colour, label, locations, track), or None."""
    new_tile = TILES[new]
    old_color = "yellow" if old == PREPRINTED_HAVANA else TILES[old].color
    old_label = "H" if old == PREPRINTED_HAVANA else TILES[old].label
    if NEXT_COLOR.get(old_color) != new_tile.color:
        return reason(
            N_("a {old_color} tile can only be upgraded to {new_color}"),
            old_color=old_color,
            new_color=NEXT_COLOR.get(old_color, "nothing"),
        )
    if old_label != new_tile.label:
        return reason(N_("tile {new} does not carry the label this hex needs"), new=new)
    old_stops, _ = _old(old, old_rot)
    if not old_stops and new_tile.stops:
        return reason(N_("plain track can only be upgraded to plain track"))
    if old != PREPRINTED_HAVANA and _kind(TILES[old]) != _kind(new_tile):
        return reason(N_("the upgrade must keep the same kind of revenue locations"))
    if stop_mapping(old, old_rot, new, new_rot) is None:
        return reason(N_("the upgrade would lose track or connections of the old tile"))
    return None


def _kind(tile: Tile) -> tuple[str, int, bool]:
    """Plain, sugar field or city; a sugar mill stays a mill and a city stays plain."""
    if tile.is_plain:
        return ("plain", 0, False)
    if tile.is_sugar_field:
        return ("field", tile.towns, False)
    return ("city", tile.cities if tile.label is None else 0, tile.is_mill)
