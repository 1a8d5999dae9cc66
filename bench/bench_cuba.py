"""18Cuba geography benchmarks: one JSON object per line (see docs/benchmarks.md).

    .venv/bin/python bench/bench_cuba.py [--maps N]

Late-game maps come from seeded random legal building (``simulate``: 7 majors,
4 minors, 45 rounds through all phases), keeping maps with 40 or more tiles.
On each map, for every major:

- cuba.revenue_ms_p95 / _p50 / _max: optimal revenue for 2 trains + 2 wagons
  (a 6 and a 5, and an 8 and a 4D, wagons of 2 and 3, 3 cubes at every mill);
  target p95 under 200 ms on one core;
- cuba.legal_lays_ms_p95 / _max: enumeration of every legal tile lay in phase 7
  for every company on the map; target under 50 ms;
- cuba.routes_p95: how many distinct routes the optimiser enumerated (context).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import pin_one_core
from games.engines.cuba.map.board import MINORS, company_hexes
from games.engines.cuba.map.laying import Layer, legal_lays
from games.engines.cuba.map.optimiser import optimise
from games.engines.cuba.map.routes import Train, enumerate_routes
from games.engines.cuba.play.simulate import build_map

TRAIN_SETS = ([Train("6", 6), Train("5", 5)], [Train("8", 8), Train("4D", 4, double=True)])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def emit(bench: str, value: float, unit: str, **context: object) -> None:
    print(
        json.dumps({"bench": f"cuba.{bench}", "value": round(value, 3), "unit": unit, **context})
    )


def main() -> None:
    pin_one_core()  # one core: the figures are the engine's, not the machine's other work
    parser = argparse.ArgumentParser()
    parser.add_argument("--maps", type=int, default=4)
    args = parser.parse_args()
    revenue_ms: list[float] = []
    lays_ms: list[float] = []
    routes: list[float] = []
    tiles: list[float] = []
    boards = []
    for seed in range(20 * args.maps):
        board = build_map(seed, 45, majors=7, minors=4)
        if len(board["tiles"]) >= 40:  # late-game maps only
            boards.append(board)
        if len(boards) == args.maps:
            break
    for board in boards:
        tiles.append(len(board["tiles"]))
        cubes = dict.fromkeys(MINORS, 3)
        syms = sorted(
            {s for cities in board["tokens"].values() for o in cities for s in o} - {"FC"}
        )
        for sym in syms:
            kind = "minor" if sym in MINORS else "major"
            t = time.perf_counter()
            legal_lays(board, Layer(sym, kind), 7)
            lays_ms.append(1000 * (time.perf_counter() - t))
            if kind == "minor" or not company_hexes(board, sym):
                continue
            for trains in TRAIN_SETS:
                t = time.perf_counter()
                optimise(board, sym, "major", trains, wagons=[2, 3], cubes=cubes)
                revenue_ms.append(1000 * (time.perf_counter() - t))
                routes.append(len(enumerate_routes(board, sym, "major", 9)))
    context = {"maps": len(boards), "tiles_min": min(tiles), "runs": len(revenue_ms)}
    emit("revenue_ms_p95", pct(revenue_ms, 0.95), "ms", target=200, **context)
    emit("revenue_ms_p50", pct(revenue_ms, 0.50), "ms", **context)
    emit("revenue_ms_max", max(revenue_ms), "ms", **context)
    emit("legal_lays_ms_p95", pct(lays_ms, 0.95), "ms", target=50, calls=len(lays_ms))
    emit("legal_lays_ms_max", max(lays_ms), "ms", calls=len(lays_ms))
    emit("routes_p95", pct(routes, 0.95), "routes", **context)


if __name__ == "__main__":
    main()
