"""Benchmark of the Estates engine: full random games per second, and how
random games end (the share of each ``ended_by`` per player count).

Run: .venv/bin/python bench/bench_estates.py
Prints one JSON object per line: {"bench": "estates.<measure>", "value": ..., "unit": ...};
the "estates.ended_by" line per edition and player count carries "shares", e.g.
{"two_rows_complete": 0.6, "no_numbered_roof": 0.4}.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import min_and_median, pin_one_core, timed_runs
from games.engines.estates import ENGINE

GAMES = 200


def play(players: int, seed: int, edition: str, ends: Counter | None = None) -> int:
    """One random game from setup to result; returns the number of actions
    and counts the result's ``ended_by`` in ``ends``."""
    state = ENGINE.setup(players, {"edition": edition}, seed)
    rng = random.Random(seed)
    steps = 0
    while (result := ENGINE.result(state)) is None:
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        steps += 1
    if ends is not None:
        ends[result["ended_by"]] += 1
    return steps


def emit(measure: str, value: float, unit: str, **context: object) -> None:
    line = {"bench": f"estates.{measure}", "value": round(value, 3), "unit": unit, **context}
    print(json.dumps(line), flush=True)


def main() -> None:
    core = pin_one_core()
    for edition in ("neue-heimat", "the-estates"):
        for players in (2, 3, 4, 5):
            play(players, 0, edition)  # warm up
            counted = {"steps": 0, "ends": Counter()}

            def games(players=players, edition=edition, counted=counted) -> None:
                ends: Counter = Counter()
                counted["steps"] = sum(play(players, s, edition, ends) for s in range(GAMES))
                counted["ends"] = ends

            took = min_and_median(timed_runs(games))
            median, steps, ends = took["median"], counted["steps"], counted["ends"]
            context = {"players": players, "edition": edition, "games": GAMES,
                       "runs": took["runs"], "core": core}  # fmt: skip
            emit("games_per_second", GAMES / median, "games/s", best=GAMES / took["min"],
                 **context)  # fmt: skip
            emit("ms_per_game", 1000 * median / GAMES, "ms", min=1000 * took["min"] / GAMES,
                 **context, target_ms=20)  # fmt: skip
            emit("actions_per_second", steps / median, "actions/s", **context)
            # How random games end: per ended_by, its share of the games.
            shares = {way: round(n / GAMES, 3) for way, n in sorted(ends.items())}
            emit("ended_by", GAMES, "games", **context, shares=shares)


if __name__ == "__main__":
    main()
