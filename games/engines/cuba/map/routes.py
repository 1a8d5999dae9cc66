"""Routes: enumerating every legal route of a company, and checking a given one.

A route is a walk over the company's gauge network from one revenue location
to another (draft VII.2, VII.3.7):

* at least two distinct revenue locations, at least one the company's station;
* no piece of track used twice, no reversing at a junction, no changing track
  at a crossover (the graph walk in :mod:`graph` forbids those by design);
* it may start or end in a city blocked by others' stations but not run
  through it; an FC token there can be passed for $20 (a plus train passes one
  for free);
* harbors are only ends; Havana's cities count once (no Havana to Havana);
* the red off-board of the 2-player easy game is only an end, standard gauge
  only, and worth its value in the current phase (``phase`` is needed then);
* a minor runs narrow gauge from its sugar mill over sugar fields only.

A route is written as the list of its track pieces in running order, each
``"<hex>:<end>-<end>"`` (``"B7:e1-s0"``: Havana, side 1 to city 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..data.hexes import HAVANA, revenue_of
from ..data.tiles import face
from ..refusals import refuse
from .board import MINORS, Board, city_tokens, content
from .graph import Network, build


@dataclass(frozen=True)
class Train:
    name: str
    distance: int  # revenue locations it may count
    double: bool = False  # 4D: values doubled
    plus: bool = False  # passes one FC token for free


def train_from_name(name: str) -> Train:
    """The running rules of a train card: "3", "3+", "4D", "8", "2n", "3-1n" (obsolete)."""
    if not isinstance(name, str) or not name:
        raise refuse("there is no train {name}", name=repr(name))
    if name.endswith("D") and name[:-1].isdigit():
        return Train(name, int(name[:-1]), double=True)
    if name.endswith("+") and name[:-1].isdigit():
        return Train(name, int(name[:-1]), plus=True)
    if name.endswith("-1n") and name[:-3].isdigit():
        return Train(name, int(name[:-3]) - 1)  # obsolete n-train: one stop fewer
    if name.endswith("n") and name[:-1].isdigit():
        return Train(name, int(name[:-1]))
    if name.isdigit():
        return Train(name, int(name))
    raise refuse("there is no train {name}", name=repr(name))


@dataclass(frozen=True)
class Route:
    stops: tuple[int, ...]  # stop vertices in running order
    paths: tuple[int, ...]  # path ids in running order
    mask: int  # track used: boundaries and paths, never stops (trains may share stops)
    revenues: tuple[int, ...]
    harbor_ends: tuple[int, ...]  # revenue of a harbor at the first / last stop
    passes: frozenset[str]  # FC tokens passed (their hexes)
    mills: tuple[str, ...]  # minors whose sugar mill the route visits


@dataclass
class StopInfo:
    coord: str
    revenue: int
    offboard: bool  # a harbor (the red off-board is an end, but not a harbor)
    own: bool
    through: str  # "open" | "fc" | "closed"
    allowed: bool  # may be a stop of this company's routes at all
    mills: tuple[str, ...]


def stop_infos(
    board: Board, net: Network, company: str, kind: str, phase: int | None = None
) -> dict[int, StopInfo]:
    out = {}
    for vid, (coord, idx, stop) in net.stops.items():
        owners = city_tokens(board, coord, idx)
        own = company in owners
        through = "open"
        if stop.type in ("offboard", "red"):
            through = "closed"
        elif stop.type == "city" and not own and len(owners) >= stop.slots:
            through = "fc" if "FC" in owners and len(owners) - 1 < stop.slots else "closed"
        allowed = True
        if kind == "minor":
            allowed = own or stop.type == "town"
        tile = content(board, coord).tile
        mills = tuple(o for o in owners if o in MINORS) if tile and face(tile).is_mill else ()
        out[vid] = StopInfo(
            coord, revenue_of(stop, phase), stop.type == "offboard", own, through, allowed, mills
        )
    return out


def enumerate_routes(
    board: Board,
    company: str,
    kind: str,
    max_stops: int,
    net: Network | None = None,
    *,
    phase: int | None = None,
) -> list[Route]:
    """Every legal route with at most ``max_stops`` revenue locations (deduplicated)."""
    net = net or build(board, "s" if kind == "major" else "n")
    info = stop_infos(board, net, company, kind, phase)
    nv = len(net.incident)
    stop_bits = sum(1 << v for v in net.stops)
    found: dict[int, Route] = {}

    def record(stops: list[int], paths: list[int], mask: int, passes: frozenset[str]) -> None:
        if len(stops) < 2 or not any(info[s].own for s in stops):
            return
        key = mask >> nv
        if key in found:
            return
        first, last = info[stops[0]], info[stops[-1]]
        found[key] = Route(
            stops=tuple(stops),
            paths=tuple(paths),
            mask=mask & ~stop_bits,
            revenues=tuple(info[s].revenue for s in stops),
            harbor_ends=tuple(i.revenue for i in (first, last) if i.offboard),
            passes=passes,
            mills=tuple(sorted({m for s in stops for m in info[s].mills})),
        )

    def at_stop(
        v: int,
        came: int,
        stops: list[int],
        paths: list[int],
        mask: int,
        passes: frozenset[str],
        havana: bool,
    ) -> None:
        record(stops, paths, mask, passes)
        if len(stops) >= max_stops:
            return
        if came >= 0:
            through = info[v].through
            if through == "closed":
                return
            if through == "fc":
                passes = passes | {info[v].coord}
        for q in net.incident[v]:
            if q != came:
                walk(q, v, stops, paths, mask, passes, havana)

    def walk(
        q: int,
        frm: int,
        stops: list[int],
        paths: list[int],
        mask: int,
        passes: frozenset[str],
        havana: bool,
    ) -> None:
        w = net.other_end(q, frm)
        if mask >> w & 1:
            return
        mask |= (1 << w) | (1 << (nv + q))
        paths = [*paths, q]
        if w in info:
            si = info[w]
            if not si.allowed or (havana and si.coord == HAVANA):
                return
            at_stop(w, q, [*stops, w], paths, mask, passes, havana or si.coord == HAVANA)
            return
        here = net.path_hex[q]
        for r in net.incident[w]:
            if net.path_hex[r] != here and not mask >> (nv + r) & 1:
                walk(r, w, stops, paths, mask, passes, havana)

    for v, si in info.items():
        if si.allowed:
            at_stop(v, -1, [v], [], 1 << v, frozenset(), si.coord == HAVANA)
    return [found[k] for k in sorted(found)]


def train_value(route: Route, train: Train, kind: str) -> int | None:
    """Revenue of ``train`` on ``route``, or None if the train cannot run it.

    A harbor at an end may be one stop beyond the train's range; it then
    counts zero (VII.3.8).  Minors never reach harbors (no narrow harbor track).
    """
    n = len(route.stops)
    total = sum(route.revenues)
    if n > train.distance:
        if n > train.distance + 1 or not route.harbor_ends or kind != "major":
            return None
        total -= min(route.harbor_ends)
    return total * 2 if train.double else total


def route_of_paths(
    board: Board,
    company: str,
    kind: str,
    texts: Any,
    net: Network | None = None,
    *,
    phase: int | None = None,
) -> Route:
    """Rebuild a submitted route from its track pieces; IllegalAction if it breaks a rule."""
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
        raise refuse("a route is a non-empty list of track pieces like 'B7:e1-s0'")
    net = net or build(board, "s" if kind == "major" else "n")
    pids = []
    for t in texts:
        if t not in net.path_ids:
            raise refuse("there is no usable track {t}", t=repr(t))
        pids.append(net.path_ids[t])
    info = stop_infos(board, net, company, kind, phase)
    start = _start_vertex(net, info, pids)
    return _walk_route(net, info, start, pids)


def _start_vertex(net: Network, info: dict[int, StopInfo], pids: list[int]) -> int:
    a, b = net.path_ends[pids[0]]
    if len(pids) > 1:
        nxt = set(net.path_ends[pids[1]])
        starts = [v for v in (a, b) if net.other_end(pids[0], v) in nxt]
    else:
        starts = [a, b]
    starts = [v for v in starts if v in info]
    if not starts:
        raise refuse("a route must start at a revenue location")
    return starts[0]


def _walk_route(net: Network, info: dict[int, StopInfo], start: int, pids: list[int]) -> Route:
    nv = len(net.incident)
    if not info[start].allowed:
        raise refuse("this company's trains may not stop at {coord}", coord=info[start].coord)
    v, mask, stops, passes = start, 1 << start, [start], set()
    for i, q in enumerate(pids):
        if v not in net.path_ends[q]:
            raise refuse("track piece {piece} does not continue the route", piece=net.path_text[q])
        if v in info and i > 0:
            if info[v].through == "closed":
                raise refuse("the route cannot run through {coord}", coord=info[v].coord)
            if info[v].through == "fc":
                passes.add(info[v].coord)
        if v not in info and net.path_hex[q] == net.path_hex[pids[i - 1]]:
            raise refuse("a route may not reverse at a junction")
        w = net.other_end(q, v)
        if mask >> w & 1 or mask >> (nv + q) & 1:
            raise refuse("a route may not use the same track or location twice")
        mask |= (1 << w) | (1 << (nv + q))
        if w in info:
            if not info[w].allowed:
                raise refuse("this company's trains may not stop at {coord}", coord=info[w].coord)
            if info[w].coord == HAVANA and any(info[s].coord == HAVANA for s in stops):
                raise refuse("a route may not run from Havana to Havana")
            stops.append(w)
        v = w
    if v not in info:
        raise refuse("a route must end at a revenue location")
    if len(stops) < 2:
        raise refuse("a route needs at least two revenue locations")
    if not any(info[s].own for s in stops):
        raise refuse("a route must include a station of the company")
    first, last = info[stops[0]], info[stops[-1]]
    return Route(
        stops=tuple(stops),
        paths=tuple(pids),
        mask=mask & ~sum(1 << s for s in net.stops),
        revenues=tuple(info[s].revenue for s in stops),
        harbor_ends=tuple(i.revenue for i in (first, last) if i.offboard),
        passes=frozenset(passes),
        mills=tuple(sorted({m for s in stops for m in info[s].mills})),
    )
