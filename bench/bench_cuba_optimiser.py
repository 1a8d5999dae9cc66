"""18Cuba optimiser under its work budget: one JSON object per line (`make bench`).

    .venv/bin/python bench/bench_cuba_optimiser.py [--maps N] [--runs R] [--uncapped]

Every position is timed R times (default 5); times are given as min/median/max
over those runs, so the spread shows how busy the machine was.

- cuba_optimiser.worst_ms: the worst position known (three 6+ trains with
  three wagons on a dense late-game map, seed 7; the phase limits make it
  unreachable in play), under the budget; target under 1,000 ms.  It must come
  back flagged ``exact: false``.  With ``--uncapped`` it is also timed without
  a budget (one run: tens of seconds).
- cuba_optimiser.reachable_ms: positions reachable in play on the late-game
  maps of bench_cuba.py, for every major: three 4+ trains with wagons 2, 2, 1
  (phase 4, train limit 3) and two trains with two wagons (phases 6-7, limit
  2: 6+ 6+, 8 4D, 8 6+ with 3-wagons).  Reported per position: the slowest
  position's min/median/max and how many positions the budget cut short.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import pin_one_core
from games.engines.cuba.map.board import MINORS, company_hexes
from games.engines.cuba.map.optimiser import WORK_BUDGET, optimise
from games.engines.cuba.map.routes import train_from_name
from games.engines.cuba.play.simulate import build_map

WORST = {"seed": 7, "company": "StSp", "trains": ["6+", "6+", "6+"], "wagons": [1, 2, 3]}
REACHABLE = (
    (["4+", "4+", "4+"], [2, 2, 1]),
    (["6+", "6+"], [3, 3]),
    (["8", "4D"], [3, 3]),
    (["8", "6+"], [3, 2]),
)
CUBES = dict.fromkeys(MINORS, 3)


def late_map(seed: int):
    return build_map(seed, 45, majors=7, minors=4)


def timed(board, company, trains, wagons, runs: int, budget: int = WORK_BUDGET):
    times, plan = [], None
    for _ in range(runs):
        t = time.perf_counter()
        plan = optimise(board, company, "major", trains, wagons=wagons, cubes=CUBES, budget=budget)
        times.append(1000 * (time.perf_counter() - t))
    return times, plan


def spread(times: list[float]) -> dict[str, float]:
    return {
        "min": round(min(times), 1),
        "median": round(statistics.median(times), 1),
        "max": round(max(times), 1),
    }


def emit(bench: str, value: float, unit: str, **context: object) -> None:
    record = {"bench": f"cuba_optimiser.{bench}", "value": round(value, 1), "unit": unit}
    print(json.dumps({**record, **context}), flush=True)


def main() -> None:
    pin_one_core()  # one core: the figures are the engine's, not the machine's other work
    parser = argparse.ArgumentParser()
    parser.add_argument("--maps", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--uncapped", action="store_true")
    args = parser.parse_args()

    board = late_map(WORST["seed"])
    trains = [train_from_name(n) for n in WORST["trains"]]
    times, plan = timed(board, WORST["company"], trains, WORST["wagons"], args.runs)
    emit(
        "worst_ms",
        statistics.median(times),
        "ms",
        **spread(times),
        runs=args.runs,
        target=1000,
        budget=WORK_BUDGET,
        exact=plan.exact,
        net=plan.net,
    )
    if args.uncapped:
        full, best = timed(board, WORST["company"], trains, WORST["wagons"], 1, 10**12)
        emit("worst_uncapped_ms", full[0], "ms", exact=best.exact, net=best.net)

    boards = []
    for seed in range(20 * args.maps):
        b = late_map(seed)
        if len(b["tiles"]) >= 40:
            boards.append(b)
        if len(boards) == args.maps:
            break
    slowest: tuple[float, list[float], str] | None = None
    positions = 0
    capped: list[str] = []
    for n, b in enumerate(boards):
        syms = sorted({s for cities in b["tokens"].values() for o in cities for s in o})
        for sym in syms:
            if sym == "FC" or sym in MINORS or not company_hexes(b, sym):
                continue
            for names, wagons in REACHABLE:
                trains = [train_from_name(n) for n in names]
                times, plan = timed(b, sym, trains, wagons, args.runs)
                positions += 1
                label = f"map {n} {sym} {' '.join(names)}"
                if not plan.exact:
                    capped.append(label)
                if slowest is None or statistics.median(times) > slowest[0]:
                    slowest = (statistics.median(times), times, label)
    assert slowest is not None
    emit(
        "reachable_ms",
        slowest[0],
        "ms",
        **spread(slowest[1]),
        slowest=slowest[2],
        positions=positions,
        capped=len(capped),
        capped_positions=capped,
        maps=len(boards),
        runs=args.runs,
        target=1000,
    )


if __name__ == "__main__":
    main()
