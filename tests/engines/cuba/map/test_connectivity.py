"""Connectivity for laying and stations is exact: legal partial routes only.

A tile lay, an upgrade or a station must be reached from one of the company's
stations by a legal route (draft VII.3.4-VII.3.6): no track used twice, no
reversing at a junction, no changing track at a crossover, no running through
a blocked city.  The brute force below shares nothing with the search in
``graph``: it walks every sequence of track pieces from a station that never
revisits a point, judging each step by the rules written out here again.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from games.engines.cuba.data.hexes import HEXES, NEIGHBOURS
from games.engines.cuba.data.tiles import TILES
from games.engines.cuba.map.board import FC
from games.engines.cuba.map.graph import build, cheapest_reach, reach
from games.engines.cuba.map.laying import Layer, check_lay, legal_lays
from games.engines.cuba.map.tokens import check_token, legal_tokens
from games.engines.cuba.play.simulate import one_round, phase_for_round, start

from ..helpers import empty_board, put, token
from .test_optimiser_bruteforce import facing, random_minor_board

MS = Layer("MS", "major")

# a compact patch of the map (C8|D9 is a barrier, B13 and D11 are sugar cane)
PATCH = ["B9", "B11", "B13", "C8", "C10", "C12", "C14", "D11", "D13", "B15", "C16"]
CITIES = [n for n, t in TILES.items() if t.cities == 1 and t.label is None and t.gauges == {"s"}]
PLAIN = [n for n, t in TILES.items() if t.is_plain and t.gauges == {"s"}]
JUNCTIONS = [n for n in PLAIN if TILES[n].color != "yellow"]
OTHERS = ["CVC", "StSp", "Oe", FC]


LASSO = {"C4": ("57", 1), "C6": ("9", 1), "C8": ("26", 4), "C10": ("24", 1), "B11": ("5", 5)}
LASSO_MORE = {"C12": ("7", 1)}


def dense_board(rng: random.Random):
    """Random track on the patch, rich in junctions and loops; MS somewhere.

    Half the boards grow around the lasso below (the loop closed or not), so
    that turning round a loop is often the only way somewhere.
    """
    b = empty_board()
    chosen = rng.sample(PATCH, rng.randint(7, 11))
    if rng.random() < 0.5:
        for coord, (name, rot) in LASSO.items():
            put(b, coord, name, rot)
        if rng.random() < 0.8:
            put(b, "C12", *LASSO_MORE["C12"])
        chosen = [c for c in chosen if c not in b["tiles"]]
    for coord in chosen:
        if HEXES[coord].kind == "city":
            name = rng.choice(CITIES)
        else:
            name = rng.choice(JUNCTIONS if rng.random() < 0.85 else PLAIN)
        rot = facing(rng, coord, name, chosen + list(b["tiles"]))
        if rot is not None:
            put(b, coord, name, rot)
    cities = [c for c in b["tiles"] if TILES[b["tiles"][c][0]].cities]
    if not cities:
        return None
    homes = rng.sample(cities, min(len(cities), rng.choice([1, 1, 2])))
    for c in homes:
        token(b, c, "MS")
    for c in cities:
        if c in homes:
            continue
        slots = TILES[b["tiles"][c][0]].stops[0].slots
        for who in rng.sample(OTHERS, rng.randint(0, min(slots, 3))):
            token(b, c, who)
    return b


def through_status(board, net, company: str, paid, may_pay: bool) -> dict:
    """Per stop: "open", ("fc", hex) (passable for a pass) or "closed"."""
    through = {}
    for v, (coord, idx, stop) in net.stops.items():
        owners = board["tokens"].get(coord, [[]] * (idx + 1))[idx]
        if stop.type == "offboard":
            through[v] = "closed"
        elif stop.type != "city" or company in owners:
            through[v] = "open"
        else:
            counted = [o for o in owners if not (o == FC and coord in paid)]
            if len(counted) < stop.slots:
                through[v] = "open"
            elif may_pay and FC in counted and len(counted) - 1 < stop.slots:
                through[v] = ("fc", coord)
            else:
                through[v] = "closed"
    return through


def brute_force(board, company: str, gauge: str, paid=(), may_pay: bool = True):
    """Fewest FC passes to each result over every legal partial route, by enumeration."""
    net = build(board, gauge)
    through = through_status(board, net, company, paid, may_pay)
    found: dict[tuple, int] = {}

    def note(key, passes: frozenset) -> None:
        if key not in found or len(passes) < found[key]:
            found[key] = len(passes)

    def walk(v: int, came: int | None, used: frozenset, passes: frozenset) -> None:
        if v in net.stops and came is not None:
            how = through[v]
            if how == "closed":
                return
            if how != "open":
                passes = passes | {how[1]}
        for q in net.incident[v]:
            if q == came:
                continue
            if v not in net.stops and net.path_hex[q] == net.path_hex[came]:
                continue  # that would reverse at a junction
            u = net.other_end(q, v)
            if u in used:
                continue
            coord = net.path_hex[q]
            note(("track", coord), passes)
            if u in net.stops:
                note(("stop", u), passes)
            else:
                (h1, e1), (h2, e2) = net.sides[u]
                far = (h2, e2) if h1 == coord else (h1, e1)
                if far[0] is not None:
                    note(("arrival", far), passes)
            walk(u, q, used | {u}, passes)

    for (coord, idx), v in net.stop_ids.items():
        if company in board["tokens"].get(coord, [[]] * (idx + 1))[idx]:
            note(("stop", v), frozenset())
            walk(v, None, frozenset({v}), frozenset())
    return found


def state_walk(board, company: str, gauge: str) -> set[tuple]:
    """The old approximation: a walk over (piece, direction) that forgets its past."""
    net = build(board, gauge)
    through = through_status(board, net, company, (), False)
    todo, seen, found = [], set(), set()
    for (coord, idx), v in net.stop_ids.items():
        if company in board["tokens"].get(coord, [[]] * (idx + 1))[idx]:
            found.add(("stop", v))
            todo += [(q, v) for q in net.incident[v]]
    while todo:
        q, v = todo.pop()
        if (q, v) in seen:
            continue
        seen.add((q, v))
        u, coord = net.other_end(q, v), net.path_hex[q]
        found.add(("track", coord))
        if u in net.stops:
            found.add(("stop", u))
            if through[u] == "open":
                todo += [(r, u) for r in net.incident[u] if r != q]
            continue
        (h1, e1), (h2, e2) = net.sides[u]
        far = (h2, e2) if h1 == coord else (h1, e1)
        if far[0] is not None:
            found.add(("arrival", far))
        todo += [(r, u) for r in net.incident[u] if net.path_hex[r] != coord]
    return found


def as_found(r) -> dict[tuple, int]:
    out = {("track", h): len(p) for h, p in r.track.items()}
    out |= {("stop", v): len(p) for v, p in r.stops.items()}
    out |= {("arrival", a): len(p) for a, p in r.arrivals.items()}
    return out


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.integers(0, 2**32))
def test_reach_equals_brute_force_on_dense_random_track(seed: int) -> None:
    rng = random.Random(seed)
    board = dense_board(rng)
    if board is None:
        return
    net = build(board, "s")
    assert as_found(cheapest_reach(board, net, "MS")) == brute_force(board, "MS", "s")
    free = brute_force(board, "MS", "s", may_pay=False)
    assert as_found(reach(board, net, "MS")) == free
    fcs = sorted(c for c, cities in board["tokens"].items() if any(FC in o for o in cities))
    if fcs:
        paid = rng.sample(fcs, rng.randint(1, len(fcs)))
        got = as_found(reach(board, net, "MS", paid))
        assert got == brute_force(board, "MS", "s", paid, may_pay=False)
        assert as_found(cheapest_reach(board, net, "MS", paid)) == brute_force(
            board, "MS", "s", paid
        )


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_reach_equals_brute_force_on_legally_built_maps(seed: int) -> None:
    rng = random.Random(seed)
    board, layers = start(rng, majors=4, minors=2)
    rounds = rng.randint(4, 20)
    for n in range(rounds):
        board, layers = one_round(board, layers, phase_for_round(n, rounds), rng)
    for who in layers:
        net = build(board, who.gauge)
        major = who.kind == "major"
        got = as_found(cheapest_reach(board, net, who.sym, may_pay=major))
        assert got == brute_force(board, who.sym, who.gauge, may_pay=major)
        got = as_found(reach(board, net, who.sym))
        assert got == brute_force(board, who.sym, who.gauge, may_pay=False)


def test_the_random_boards_often_need_the_exact_search() -> None:
    """The boards above are worth testing on: the old walk is often wrong there."""
    wrong = 0
    for seed in range(100):
        board = dense_board(random.Random(seed))
        if board is None:
            continue
        exact = set(brute_force(board, "MS", "s", may_pay=False))
        old = state_walk(board, "MS", "s")
        assert exact <= old
        wrong += exact != old
    assert wrong >= 5


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_narrow_gauge_reach_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    board = random_minor_board(rng)
    if board is None:
        return
    net = build(board, "n")
    got = as_found(cheapest_reach(board, net, "HG", may_pay=False))
    assert got == brute_force(board, "HG", "n", may_pay=False)


# --- a loop that can only be reached by running round it and back -----------


@pytest.fixture
def lasso():
    """MS in Pinar del Rio; Matanzas is reachable only by turning round a loop.

    C4 -> C6 -> C8 (tile 26: W-E straight, E-NE curve, both at C8's side 4)
    -> C10 (tile 24: W-E straight and W-NE curve, both at C10's side 1) ->
    a loop C10 -> B11 -> C12 -> C10 that comes back to C10's side 1.  Only a
    walk that crossed C8|C10 twice could turn into C8's curve towards
    Matanzas (B9).
    """
    b = empty_board()
    put(b, "C4", "57", 1)  # sides 1 and 4
    token(b, "C4", "MS")
    put(b, "C6", "9", 1)  # W-E
    put(b, "C8", "26", 4)  # sides 4-1 and 4-3 (towards B9)
    put(b, "C10", "24", 1)  # sides 1-4 and 1-3 (towards B11)
    put(b, "B11", "5", 5)  # city on sides 5 (C12) and 0 (C10)
    put(b, "C12", "7", 1)  # sides 1 (C10) and 2 (B11)
    return b


def test_the_lasso_is_what_the_fixture_says(lasso) -> None:
    assert NEIGHBOURS["C8"][3] == "B9" and NEIGHBOURS["C10"][3] == "B11"
    assert NEIGHBOURS["C12"][2] == "B11" and NEIGHBOURS["C10"][4] == "C12"
    found = brute_force(lasso, "MS", "s")
    assert ("arrival", ("B9", 0)) not in found
    assert ("arrival", ("B9", 0)) in state_walk(lasso, "MS", "s")  # the old walk got there
    assert {("track", h) for h in ("C10", "B11", "C12")} <= set(found)


def test_no_lay_reached_only_by_turning_round_a_loop(lasso) -> None:
    # the old walk over (track, direction) states accepted this lay
    assert "not connected" in illegal(check_lay, lasso, MS, "B9", "5", 0, 1)
    assert not [x for x in legal_lays(lasso, MS, 1) if x["hex"] == "B9"]
    # the loop itself is reached, both ways round: its tiles may be upgraded
    r = reach(lasso, build(lasso, "s"), "MS")
    assert {"C6", "C8", "C10", "B11", "C12"} <= set(r.track)
    assert ("B9", 0) not in r.arrivals
    assert {x["hex"] for x in legal_lays(lasso, MS, 7)} >= {"C8", "C12", "B11"}
    # from a station on the loop the same curve is an ordinary legal route
    token(lasso, "B11", "MS")
    assert check_lay(lasso, MS, "B9", "5", 0, 1).cost == 0


def test_no_station_reached_only_by_turning_round_a_loop(lasso) -> None:
    put(lasso, "B9", "5", 0)  # Matanzas on sides 0 (C8) and 1 (Havana)
    assert "not connected" in illegal(check_token, lasso, "MS", "B9", 0)
    assert not [t for t in legal_tokens(lasso, "MS") if t["hex"] == "B9"]
    assert check_token(lasso, "MS", "B11", 0) == 0  # on the loop: reached
    token(lasso, "B11", "MS")
    assert check_token(lasso, "MS", "B9", 0) == 0  # from B11 no turning round is needed


def illegal(fn, *args, **kw) -> str:
    with pytest.raises(IllegalAction) as exc:
        fn(*args, **kw)
    return exc.value.message
