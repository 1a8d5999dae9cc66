"""The optimiser is exact: on small random networks it equals brute force.

The brute force shares nothing with the optimiser's search: it walks every
sequence of track pieces that never revisits a point, lets the route validator
(`route_of_paths`) judge each one, and tries every assignment of valid routes
to trains.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from games.engines.cuba.data.hexes import HEXES, NEIGHBOURS, edge_open
from games.engines.cuba.data.tiles import TILES, exits, rotated_paths
from games.engines.cuba.map.board import MINORS
from games.engines.cuba.map.graph import build
from games.engines.cuba.map.optimiser import evaluate, optimise
from games.engines.cuba.map.routes import Train, route_of_paths, train_value
from games.engines.cuba.play.simulate import one_round, phase_for_round, start

from ..helpers import empty_board, put, token

# slow: property tests against a brute-force search.
pytestmark = pytest.mark.slow

REGION = ["B5", "B9", "B11", "C4", "C6", "C8", "C10", "C12", "B13", "D11", "D13", "C14"]
CITY_HEXES = {"B9", "B11", "C4", "D13", "C14"}
PLAIN = [n for n, t in TILES.items() if t.is_plain and t.gauges == {"s"}]
CITY = [n for n, t in TILES.items() if t.cities == 1 and t.label is None and t.gauges == {"s"}]
MILLS = [n for n, t in TILES.items() if t.is_mill]
NARROW_PLAIN = [n for n, t in TILES.items() if t.is_plain and "n" in t.gauges]
FIELDS = [n for n, t in TILES.items() if t.is_sugar_field]


def facing(rng: random.Random, coord: str, name: str, chosen: list[str]) -> int | None:
    """A rotation that keeps the track on the map, mostly facing chosen hexes or harbors."""
    legal = [
        r for r in range(6) if all(edge_open(coord, e) for e in exits(rotated_paths(name, r)))
    ]
    if not legal:
        return None
    if rng.random() < 0.2:
        return rng.choice(legal)
    targets = set(chosen) | {c for c, h in HEXES.items() if h.is_harbor}

    def score(rot: int) -> tuple[int, float]:
        ends = exits(rotated_paths(name, rot))
        return (sum(NEIGHBOURS[coord][e] in targets for e in ends), rng.random())

    return max(legal, key=score)


def place(b, rng: random.Random, coord: str, name: str, chosen: list[str]) -> None:
    rot = facing(rng, coord, name, chosen)
    if rot is not None:
        put(b, coord, name, rot)


def random_major_board(rng: random.Random):
    b = empty_board()
    chosen = rng.sample(REGION, rng.randint(4, 9))
    for coord in chosen:
        if coord in CITY_HEXES:
            name = rng.choice(MILLS if rng.random() < 0.4 else CITY)
        else:
            name = rng.choice(PLAIN)
        place(b, rng, coord, name, chosen)
    if rng.random() < 0.3:
        place(b, rng, "B7", rng.choice(["L44", "L45", "L46"]), chosen)
    if "B7" in b["tiles"]:
        b["tokens"]["B7"] = [[] for _ in TILES[b["tiles"]["B7"][0]].stops]
        if rng.random() < 0.7:
            token(b, "B7", "FC", 0)
    cities = [c for c in chosen if c in CITY_HEXES and c in b["tiles"]]
    if not cities:
        return None
    home = rng.choice(cities)
    mills = [c for c in cities if TILES[b["tiles"][c][0]].is_mill and c != home]
    if mills and rng.random() < 0.7:
        token(b, mills[0], "HG")
    token(b, home, "MS")
    for c in cities:
        if c == home:
            continue
        for who in rng.sample(["FC", "HG", "CVC"], rng.randint(0, 3)):
            slots = TILES[b["tiles"][c][0]].stops[0].slots
            if len(b["tokens"][c][0]) < slots and who not in b["tokens"][c][0]:
                if who == "HG" and not TILES[b["tiles"][c][0]].is_mill:
                    continue
                token(b, c, who)
    return b


def random_trains(rng: random.Random, kind: str) -> list[Train]:
    trains = []
    for _ in range(rng.randint(1, 3)):
        d = rng.randint(2, 4)
        trains.append(
            Train(
                f"{d}",
                d,
                double=kind == "major" and rng.random() < 0.15,
                plus=kind == "major" and rng.random() < 0.3,
            )
        )
    return trains


def brute_routes(board, company, kind, max_stops):
    net = build(board, "s" if kind == "major" else "n")
    found = {}

    def extend(seq, vertex, seen, stops):
        # Every stop a route passes counts against the train, so a walk past
        # more stops than the longest train can never become a route; no
        # limit on track pieces (a legally built map has routes of 15+).
        if stops > max_stops:
            return
        if seq and vertex in net.stops:
            texts = [net.path_text[p] for p in seq]
            try:
                r = route_of_paths(board, company, kind, texts, net)
            except IllegalAction:
                r = None
            if r is not None:
                found.setdefault(frozenset(seq), r)
        for q in net.incident[vertex]:
            if q in seq:
                continue
            w = net.other_end(q, vertex)
            if w in seen:
                continue
            extend([*seq, q], w, seen | {w}, stops + (w in net.stops))

    for v in net.stops:
        extend([], v, {v}, 1)
    return list(found.values())


def brute_best(board, company, kind, trains, wagons, cubes):
    max_stops = max(t.distance for t in trains) + (1 if kind == "major" else 0)
    routes = brute_routes(board, company, kind, max_stops)
    best = 0
    options = [[None, *[r for r in routes if train_value(r, t, kind) is not None]] for t in trains]
    for combo in product(*options):
        used = 0
        ok = True
        for r in combo:
            if r is None:
                continue
            if r.mask & used:
                ok = False
                break
            used |= r.mask
        if ok:
            best = max(best, evaluate(list(combo), trains, kind, wagons, cubes).net)
    return best


@settings(max_examples=250, deadline=None)
@given(st.integers(0, 2**32))
def test_optimal_revenue_equals_brute_force_for_majors(seed: int) -> None:
    rng = random.Random(seed)
    board = random_major_board(rng)
    if board is None:
        return
    trains = random_trains(rng, "major")
    wagons = rng.sample([1, 2, 3], rng.choice([0, 1, 1, 2, 2, 3]))
    cubes = {"HG": rng.randint(1, 4)}
    plan = optimise(board, "MS", "major", trains, wagons=wagons, cubes=cubes)
    assert plan.net == brute_best(board, "MS", "major", trains, wagons, cubes)
    used = 0
    for r in plan.routes:
        if r is not None:
            assert not r.mask & used
            used |= r.mask


def hex_distance(a: str, b: str) -> int:
    ax, ay = HEXES[a].x, HEXES[a].y
    bx, by = HEXES[b].x, HEXES[b].y
    dy = abs(ay - by)
    return dy + max(0, (abs(ax - bx) - dy) // 2)


def random_minor_board(rng: random.Random):
    b = empty_board()
    home = rng.choice(["B11", "C4", "D13"])
    mill = rng.choice(MILLS)
    others = [
        c for c, h in HEXES.items() if h.kind in ("blank", "sugar") and hex_distance(c, home) <= 2
    ]
    chosen = [home, *rng.sample(others, min(len(others), rng.randint(3, 7)))]
    place(b, rng, home, mill, chosen)
    if home not in b["tiles"]:
        return None
    token(b, home, "HG")
    for coord in chosen[1:]:
        field = HEXES[coord].kind == "sugar" or rng.random() < 0.3
        name = rng.choice(FIELDS if field else NARROW_PLAIN)
        place(b, rng, coord, name, chosen)
    if rng.random() < 0.5:
        other = rng.choice([c for c in ["B11", "C4", "D13"] if c != home])
        place(b, rng, other, rng.choice([m for m in MILLS if TILES[m].color == "yellow"]), chosen)
        if other in b["tiles"]:
            token(b, other, "JU")
    return b


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32))
def test_optimal_revenue_equals_brute_force_for_minors(seed: int) -> None:
    rng = random.Random(seed)
    board = random_minor_board(rng)
    if board is None:
        return
    trains = random_trains(rng, "minor")
    plan = optimise(board, "HG", "minor", trains)
    assert plan.net == brute_best(board, "HG", "minor", trains, [], {})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_optimal_revenue_equals_brute_force_on_legally_built_narrow_networks(seed: int) -> None:
    rng = random.Random(seed)
    board, layers = start(rng, majors=0, minors=2)
    for n in range(rng.randint(3, 10)):
        board, layers = one_round(board, layers, phase_for_round(n, 8), rng)
    for who in layers:
        trains = random_trains(rng, "minor")
        plan = optimise(board, who.sym, "minor", trains)
        assert plan.net == brute_best(board, who.sym, "minor", trains, [], {})


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_optimal_revenue_equals_brute_force_on_legally_built_maps(seed: int) -> None:
    rng = random.Random(seed)
    board, layers = start(rng, majors=3, minors=2)
    for n in range(rng.randint(3, 9)):
        board, layers = one_round(board, layers, phase_for_round(n, 9), rng)
    # sorted: a frozenset's order changes with the process's hash seed, and so
    # would the mill that gets each count (a failure would not replay)
    cubes = {m: rng.randint(0, 3) for m in sorted(MINORS)}
    for who in layers:
        if who.kind != "major":
            continue
        trains = random_trains(rng, "major")[:2]
        wagons = rng.sample([1, 2, 3], rng.randint(0, 2))
        plan = optimise(board, who.sym, "major", trains, wagons=wagons, cubes=cubes)
        assert plan.net == brute_best(board, who.sym, "major", trains, wagons, cubes)
