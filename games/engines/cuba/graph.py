"""The track graph of one gauge, and what a company can reach on it.

Vertices are *stops* (a city, town or harbor on a hex) and *boundaries* (the
point where track crosses the side between two hexes).  Every path of a tile
joins two vertices.  The rules for walking it (draft VII.2):

* at a boundary a route must cross into the other hex: turning back into a
  second path of the same hex would be reversing at a junction;
* at a stop it may leave on any other path of that stop, unless the stop is a
  harbor (always a route end) or a city blocked for the company;
* a boundary is one piece of track: it can be used once per route, and by one
  train only (this is what makes a junction single-use).

Two gauges never mix: the standard network and the narrow network are built
separately, so narrow track meeting standard track is a dead end for both.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .board import FC, Board, city_tokens, content
from .hexes import HEXES, NEIGHBOURS, Stop


@dataclass
class Network:
    gauge: str
    # path id -> (hex, vertex a, vertex b, text)
    path_hex: list[str] = field(default_factory=list)
    path_ends: list[tuple[int, int]] = field(default_factory=list)
    path_text: list[str] = field(default_factory=list)
    # vertex id -> path ids touching it
    incident: list[list[int]] = field(default_factory=list)
    # stop vertices: vertex id -> (hex, stop index, Stop); boundaries are absent
    stops: dict[int, tuple[str, int, Stop]] = field(default_factory=dict)
    # boundary vertex id -> its two sides ((hex, edge), (hex or None, edge))
    sides: dict[int, tuple[tuple[str, int], tuple[str | None, int]]] = field(default_factory=dict)
    stop_ids: dict[tuple[str, int], int] = field(default_factory=dict)
    path_ids: dict[str, int] = field(default_factory=dict)

    def other_end(self, path: int, vertex: int) -> int:
        a, b = self.path_ends[path]
        return b if a == vertex else a


def path_label(coord: str, a: tuple[str, int], b: tuple[str, int]) -> str:
    """Canonical text of a path, e.g. ``C4:e0-s0`` (ends sorted)."""
    x, y = sorted((f"{a[0]}{a[1]}", f"{b[0]}{b[1]}"))
    return f"{coord}:{x}-{y}"


def build(board: Board, gauge: str) -> Network:
    net = Network(gauge)
    boundary_ids: dict[tuple[str, int], int] = {}

    def vertex() -> int:
        net.incident.append([])
        return len(net.incident) - 1

    def boundary(coord: str, edge: int) -> int:
        other = NEIGHBOURS[coord][edge]
        key = (coord, edge)
        if other is not None:
            key = min(key, (other, (edge + 3) % 6))
        if key not in boundary_ids:
            vid = boundary_ids[key] = vertex()
            net.sides[vid] = ((coord, edge), (other, (edge + 3) % 6))
        return boundary_ids[key]

    for coord in HEXES:
        c = content(board, coord)
        for p in c.paths:
            if p.gauge != gauge:
                continue
            ends = []
            for kind, n in (p.a, p.b):
                if kind == "e":
                    ends.append(boundary(coord, n))
                else:
                    if (coord, n) not in net.stop_ids:
                        vid = net.stop_ids[(coord, n)] = vertex()
                        net.stops[vid] = (coord, n, c.stops[n])
                    ends.append(net.stop_ids[(coord, n)])
            pid = len(net.path_hex)
            text = path_label(coord, p.a, p.b)
            net.path_hex.append(coord)
            net.path_ends.append((ends[0], ends[1]))
            net.path_text.append(text)
            net.path_ids[text] = pid
            net.incident[ends[0]].append(pid)
            net.incident[ends[1]].append(pid)
    return net


@dataclass
class Reach:
    """What a company reaches from its stations without reversing or passing a block."""

    paths: set[int] = field(default_factory=set)
    stops: set[int] = field(default_factory=set)
    arrivals: set[tuple[str, int]] = field(default_factory=set)  # (hex, edge) entered from outside


def passable(board: Board, company: str, coord: str, idx: int, stop: Stop, ignore_fc: Any) -> bool:
    """May a route run *through* this stop (not just start or end there)?"""
    if stop.type == "offboard":
        return False
    if stop.type != "city":
        return True
    owners = city_tokens(board, coord, idx)
    if company in owners:
        return True
    counted = [o for o in owners if not (o == FC and coord in ignore_fc)]
    return len(counted) < stop.slots


def reach(board: Board, net: Network, company: str, ignore_fc: Any = ()) -> Reach:
    """Breadth-first walk from every station of ``company`` over ``net``."""
    out = Reach()
    todo: list[tuple[int, int]] = []  # (path, vertex we travel towards)
    seen: set[tuple[int, int]] = set()
    for (coord, idx), vid in net.stop_ids.items():
        if company in city_tokens(board, coord, idx):
            out.stops.add(vid)
            todo.extend((p, net.other_end(p, vid)) for p in net.incident[vid])
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        path, v = state
        out.paths.add(path)
        here = net.path_hex[path]
        if v in net.stops:
            out.stops.add(v)
            coord, idx, stop = net.stops[v]
            if passable(board, company, coord, idx, stop, ignore_fc):
                todo.extend((q, net.other_end(q, v)) for q in net.incident[v] if q != path)
            continue
        side_a, side_b = net.sides[v]
        entered = side_b if side_a[0] == here else side_a
        if entered[0] is not None:
            out.arrivals.add((entered[0], entered[1]))
        todo.extend((q, net.other_end(q, v)) for q in net.incident[v] if net.path_hex[q] != here)
    return out


@dataclass
class PassReach:
    """Like :class:`Reach`, with the fewest FC tokens to pass to get there.

    Each value is the sorted tuple of FC hexes to pay for (empty: free).
    """

    paths: dict[int, tuple[str, ...]] = field(default_factory=dict)
    stops: dict[int, tuple[str, ...]] = field(default_factory=dict)
    arrivals: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)


def _through(board: Board, company: str, coord: str, idx: int, stop: Stop, paid: Any) -> str:
    """ "open", "fc" (passable for $20 past the FC token) or "closed"."""
    if passable(board, company, coord, idx, stop, paid):
        return "open"
    if stop.type == "city" and passable(board, company, coord, idx, stop, {coord}):
        return "fc"
    return "closed"


def cheapest_reach(
    board: Board, net: Network, company: str, paid: Any = (), *, may_pay: bool = True
) -> PassReach:
    """0-1 breadth-first walk: passing an unpaid FC token costs one pass."""
    out = PassReach()
    todo: deque[tuple[int, int, tuple[str, ...]]] = deque()
    for (coord, idx), vid in net.stop_ids.items():
        if company in city_tokens(board, coord, idx):
            out.stops[vid] = ()
            todo.extend((p, net.other_end(p, vid), ()) for p in net.incident[vid])
    seen: set[tuple[int, int]] = set()
    while todo:
        path, v, passes = todo.popleft()
        if (path, v) in seen:
            continue
        seen.add((path, v))
        out.paths.setdefault(path, passes)
        here = net.path_hex[path]
        if v in net.stops:
            out.stops.setdefault(v, passes)
            coord, idx, stop = net.stops[v]
            how = _through(board, company, coord, idx, stop, (*paid, *passes))
            if how == "closed" or (how == "fc" and not may_pay):
                continue
            nxt = passes if how == "open" else tuple(sorted((*passes, coord)))
            for q in net.incident[v]:
                if q != path:
                    item = (q, net.other_end(q, v), nxt)
                    todo.appendleft(item) if how == "open" else todo.append(item)
            continue
        side_a, side_b = net.sides[v]
        entered = side_b if side_a[0] == here else side_a
        if entered[0] is not None:
            out.arrivals.setdefault((entered[0], entered[1]), passes)
        todo.extendleft(
            (q, net.other_end(q, v), passes) for q in net.incident[v] if net.path_hex[q] != here
        )
    return out
