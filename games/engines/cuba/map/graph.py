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
On a part of the map (2-player easy) the network holds only the hexes in
play, so no route and no connection can run outside the part.

What a company reaches for laying and stations (:func:`cheapest_reach`) is
exact: only legal partial routes count, never a walk that turns round a loop
over its own track (see :class:`_Search`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..data.hexes import HEXES, NEIGHBOURS, Stop
from .board import FC, Board, city_tokens, content, part_of


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

    part = part_of(board)
    for coord in HEXES:
        if part is not None and coord not in part.hexes:
            continue
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
    """What a company reaches over legal partial routes from its stations.

    Each value is the sorted tuple of FC hexes the company must pass ($20
    each) on the cheapest way there; empty when the way is free.

    * ``track``: hexes with a piece of track that some such route runs over;
    * ``stops``: stop vertices some route reaches (its own stations included);
    * ``arrivals``: ``(hex, edge)`` where a route arrives at that side of
      ``hex`` from the neighbouring hex, so new track there would continue it.
    """

    track: dict[str, tuple[str, ...]] = field(default_factory=dict)
    stops: dict[int, tuple[str, ...]] = field(default_factory=dict)
    arrivals: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)


def passable(board: Board, company: str, coord: str, idx: int, stop: Stop, ignore_fc: Any) -> bool:
    """May a route run *through* this stop (not just start or end there)?"""
    if stop.type in ("offboard", "red"):  # harbors and the red off-board are route ends
        return False
    if stop.type != "city":
        return True
    owners = city_tokens(board, coord, idx)
    if company in owners:
        return True
    counted = [o for o in owners if not (o == FC and coord in ignore_fc)]
    return len(counted) < stop.slots


def _through(board: Board, company: str, coord: str, idx: int, stop: Stop, paid: Any) -> str:
    """ "open", "fc" (passable for $20 past the FC token) or "closed"."""
    if passable(board, company, coord, idx, stop, paid):
        return "open"
    if stop.type == "city" and passable(board, company, coord, idx, stop, {coord}):
        return "fc"
    return "closed"


def reach(board: Board, net: Network, company: str, ignore_fc: Any = ()) -> Reach:
    """What the company reaches passing exactly the FC tokens in ``ignore_fc``."""
    return cheapest_reach(board, net, company, ignore_fc, may_pay=False)


def cheapest_reach(
    board: Board, net: Network, company: str, paid: Any = (), *, may_pay: bool = True
) -> Reach:
    """Exactly what the legal partial routes from the company's stations reach.

    A partial route keeps the route rules (draft VII.2): no piece of track,
    hex side or stop used twice, no reversing at a junction, no changing track
    at a crossover, no running through a blocked city; it need not end at a
    revenue location.  FC tokens in ``paid`` are passed for free; with
    ``may_pay`` any other blocking FC token may be passed for one pass, and
    every result carries the fewest passes it needs.
    """
    return _Search(board, net, company, paid, may_pay).run()


# A *move* runs one piece of track in one direction: move 2p runs path p from
# its first end to its second, move 2p + 1 the other way.
Start = tuple[int, int, frozenset[str], int]  # move, points used before it, passes, extra cost


class _Search:
    """Branch and bound over legal partial routes (README: "How connectivity is computed").

    1. A breadth-first walk over moves that does not remember the track behind
       it: every legal route is such a walk, so the walk's cost (FC passes) to
       each result is a lower bound.  The walk that first found each move is
       kept; if it uses no point twice it *is* a legal partial route, which
       proves every result it shows at that cost.  On real maps this settles
       (nearly) everything.
    2. Results still open (the walk got there only by running round a loop and
       back over the same track, or only more cheaply than any proven route)
       are settled by a depth-first search over the legal partial routes
       themselves.  At each route it repeats step 1 from the route's end,
       never entering the route's own points and keeping to the blocks of the
       track ahead (:meth:`_blocks`): walks with no repeated point extend the
       route legally (proofs), and the bounds tell whether anything open can
       still be improved below this route.  If not, the subtree is cut; a
       route with the same last move, passes and track ahead as one searched
       before is not searched again.  When nothing is open the search stops.
    """

    def __init__(self, board: Board, net: Network, company: str, paid: Any, may_pay: bool):
        self.net = net
        paid = frozenset(paid)
        n = len(net.path_ends)
        to = [0] * (2 * n)
        for p, (a, b) in enumerate(net.path_ends):
            to[2 * p], to[2 * p + 1] = b, a
        self.to = to
        closed: set[int] = set()  # stops no route runs through
        # stops a route runs through for one FC pass; a hex holds at most one FC
        # token, so passes (by hex) and FC cities run through count the same
        self.fc: dict[int, str] = {}
        for vid, (coord, idx, stop) in net.stops.items():
            how = _through(board, company, coord, idx, stop, paid)
            if how == "closed" or (how == "fc" and not may_pay):
                closed.add(vid)
            elif how == "fc":
                self.fc[vid] = coord
        ids: dict[tuple[Any, ...], int] = {}
        self.keys: list[tuple[Any, ...]] = []  # result id -> ("track"|"stop"|"arrival", what)

        def result(key: tuple[Any, ...]) -> int:
            if key not in ids:
                ids[key] = len(self.keys)
                self.keys.append(key)
            return ids[key]

        self.succ: list[list[int]] = []  # move -> the moves that may follow it
        self.outs: list[tuple[int, ...]] = []  # move -> results it shows
        for m in range(2 * n):
            p, w = m >> 1, to[m]
            here = net.path_hex[p]
            shows = [result(("track", here))]
            if w in net.stops:
                nxt = [] if w in closed else [self.leave(r, w) for r in net.incident[w] if r != p]
                shows.append(result(("stop", w)))
            else:  # a hex side: cross it, never turn back into this hex
                nxt = [self.leave(r, w) for r in net.incident[w] if net.path_hex[r] != here]
                side_a, side_b = net.sides[w]
                entered = side_b if side_a[0] == here else side_a
                if entered[0] is not None:
                    shows.append(result(("arrival", entered)))
            self.succ.append(nxt)
            self.outs.append(tuple(shows))
        self.stations = [
            vid
            for (coord, idx), vid in net.stop_ids.items()
            if company in city_tokens(board, coord, idx)
        ]
        for v in self.stations:
            result(("stop", v))
        self.closed = closed
        self.inf = len(net.stops) + 1  # more passes than any route can need
        self.best = [self.inf] * len(self.keys)  # passes of the cheapest route proven
        self.best_passes: list[frozenset[str]] = [frozenset()] * len(self.keys)
        self.region = 0  # the points the last walk got to
        self.nodes = 0  # routes the depth-first search expanded (diagnostics)

    def leave(self, p: int, v: int) -> int:
        """The move that runs path ``p`` away from point ``v``."""
        return 2 * p if self.net.path_ends[p][0] == v else 2 * p + 1

    def run(self) -> Reach:
        to, best = self.to, self.best
        for v in self.stations:
            best[self.keys.index(("stop", v))] = 0
        by_station: dict[int, list[Start]] = {
            v: [(self.leave(p, v), 1 << v, frozenset(), 0) for p in self.net.incident[v]]
            for v in self.stations
        }
        bound = self._walk([s for v in self.stations for s in by_station[v]], 0, frozenset())
        open_ = self._open(bound)
        if open_:
            # a route starts at one station: walk from each, with its blocks
            bound = [self.inf] * len(bound)
            for v, starts in by_station.items():
                low = self._walk(starts, 1 << v, frozenset(), self._blocks(v, 1 << v))
                bound = [min(x, y) for x, y in zip(bound, low, strict=True)]
            open_ = self._open(bound)
        stack = [
            (m, used | 1 << to[m], passes)
            for v in reversed(self.stations)
            for m, used, passes, _extra in reversed(by_station[v])
        ]
        done: set[tuple[int, frozenset[str], int, int]] = set()
        while open_ and stack:
            m, used, passes = stack.pop()
            w = to[m]
            token = self.fc.get(w)
            extra = 1 if token is not None and token not in passes else 0
            beyond = passes | {token} if token is not None and extra else passes
            nxt: list[Start] = [
                (n, used, beyond, extra) for n in self.succ[m] if not used >> to[n] & 1
            ]
            if not nxt:
                continue
            self.nodes += 1
            cap = max(best[o] for o in open_)
            low = self._walk(nxt, used, passes, self._blocks(w, used), cap)
            key = (m, passes, cap, self.region)
            if key in done:
                continue  # the same move, passes and track ahead: searched already
            done.add(key)
            open_ = {o for o in open_ if best[o] > bound[o]}
            if any(low[o] < best[o] for o in open_):
                stack.extend((n, used | 1 << to[n], ps) for n, _u, ps, _e in reversed(nxt))
        out = Reach()
        fields: dict[str, dict[Any, tuple[str, ...]]] = {
            "track": out.track,
            "stop": out.stops,
            "arrival": out.arrivals,
        }
        for o, (kind, what) in enumerate(self.keys):
            if best[o] < self.inf:
                fields[kind][what] = tuple(sorted(self.best_passes[o]))
        return out

    def _open(self, bound: list[int]) -> set[int]:
        """Results whose cheapest proven route costs more than their bound."""
        best = self.best
        return {o for o, low in enumerate(bound) if low < best[o]}

    def _blocks(self, root: int, avoid: int) -> tuple[list[int], list[int]]:
        """Blocks (biconnected pieces) of the track reachable from ``root`` avoiding ``avoid``.

        Returns the block of every piece (-1: not reachable) and the top point
        of every block, the one nearest ``root``.  A route from ``root`` that
        uses no point twice enters a block only through its top and never
        returns to an earlier block.  A stop no route runs through counts as a
        separate end for each of its pieces.
        """
        net, closed = self.net, self.closed
        ends, incident = net.path_ends, net.incident
        block = [-1] * len(ends)
        tops: list[int] = []
        order = {root: 0}
        low = {root: 0}
        pieces: list[int] = []  # the DFS's tree and back edges, by block
        stack = [(root, -1, iter(incident[root]))]
        while stack:
            v, came, it = stack[-1]
            for p in it:
                if p == came:
                    continue
                a, b = ends[p]
                u = b if a == v else a
                if avoid >> u & 1 and u != root:
                    continue
                if u in closed:
                    block[p] = len(tops)  # a dead end of its own
                    tops.append(v)
                elif u not in order:
                    order[u] = low[u] = len(order)
                    pieces.append(p)
                    stack.append((u, p, iter(incident[u])))
                    break
                elif order[u] < order[v]:  # back edge to an ancestor
                    pieces.append(p)
                    if order[u] < low[v]:
                        low[v] = order[u]
            else:
                stack.pop()
                if not stack:
                    break
                parent = stack[-1][0]
                if low[v] < low[parent]:
                    low[parent] = low[v]
                if low[v] >= order[parent]:  # parent cuts this block off
                    b = len(tops)
                    tops.append(parent)
                    while True:
                        q = pieces.pop()
                        block[q] = b
                        if q == came:
                            break
        return block, tops

    def _walk(
        self,
        starts: list[Start],
        avoid: int,
        base: frozenset[str],
        blocks: tuple[list[int], list[int]] | None = None,
        cap: int | None = None,
    ) -> list[int]:
        """Breadth-first over moves from ``starts``, never entering a point in ``avoid``.

        Returns the lower bound on passes for every result (``inf`` where the
        walk does not get) and records every result proven on the way.  The
        bound counts passes beyond ``base``; a walk that uses no point twice
        (nor a point of its start's route) proves its results.  With
        ``blocks`` (of the starts' common point) the walk only moves on into a
        block through its top and never returns to its top: what it leaves out
        repeats a point, so the bound stays a bound.  Walks costing ``cap``
        passes or more are not followed (nothing open would gain from them).
        """
        to, succ, outs, fc = self.to, self.succ, self.outs, self.fc
        best, best_passes = self.best, self.best_passes
        inf = self.inf
        low = [inf] * len(self.keys)
        block, tops = blocks if blocks is not None else ([], [])
        state = bytearray(len(to))  # 0 unseen, 1 seen on a walk with a repeat, 2 proven
        region = 0  # every point the walk gets to
        level = len(base)
        # (move, points of its walk before the move, no point repeated, passes)
        current: deque[tuple[int, int, bool, frozenset[str]]] = deque()
        later: list[tuple[int, int, bool, frozenset[str]]] = []
        queue: (
            deque[tuple[int, int, bool, frozenset[str]]]
            | list[tuple[int, int, bool, frozenset[str]]]
        )
        for m, used, passes, extra in starts:
            (later if extra else current).append((m, used, True, passes))
        while current or later:
            if not current:
                current, later = deque(later), []
                level += 1
                if cap is not None and level >= cap:
                    break
            m, used, simple, passes = current.popleft()
            seen = state[m]
            w = to[m]
            simple = simple and not used >> w & 1
            if seen == 2 or (seen == 1 and not simple):
                continue
            state[m] = 2 if simple else 1
            region |= 1 << w
            for o in outs[m]:
                if level < low[o]:
                    low[o] = level
                if simple and len(passes) < best[o]:
                    best[o] = len(passes)
                    best_passes[o] = passes
            used |= 1 << w
            token = fc.get(w)
            if token is None or token in base:
                queue, more = current, passes
            else:
                queue, more = later, passes | {token}
            if blocks is None:
                for n in succ[m]:
                    if not avoid >> to[n] & 1 and state[n] < 2:
                        queue.append((n, used, simple, more))
            else:
                here = block[m >> 1]
                for n in succ[m]:
                    b, v = block[n >> 1], to[n]
                    onward = b == here or tops[b] == w  # same block, or into a block below
                    if onward and tops[b] != v and not avoid >> v & 1 and state[n] < 2:
                        queue.append((n, used, simple, more))
        self.region = region
        return low
