"""Benchmark of the Point City engine: full random games per player count.

Run: .venv/bin/python bench/bench_pointcity.py
Prints one JSON object per line: {"bench": "pointcity.<measure>", "value": ..., "unit": ...}.
Target: a 4-player random game in under 50 ms on one core (a turn must feel instant).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.pointcity import ENGINE

GAMES = 100


def play(players: int, seed: int) -> tuple[int, int]:
    """One random game from setup to result: (actions, legal actions listed)."""
    state = ENGINE.setup(players, {}, seed)
    rng = random.Random(seed)
    steps = listed = 0
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        listed += len(legal)
        state = ENGINE.apply(state, seat, rng.choice(legal))
        steps += 1
    return steps, listed


def emit(measure: str, value: float, unit: str, **context: object) -> None:
    line = {"bench": f"pointcity.{measure}", "value": round(value, 3), "unit": unit, **context}
    print(json.dumps(line), flush=True)


def main() -> None:
    for players in (1, 2, 3, 4):
        steps = listed = 0
        start = time.perf_counter()
        for seed in range(GAMES):
            s, n = play(players, seed)
            steps += s
            listed += n
        elapsed = time.perf_counter() - start
        context = {"players": players, "games": GAMES}
        emit("random_games_per_second", GAMES / elapsed, "games/s", **context)
        emit("ms_per_random_game", 1000 * elapsed / GAMES, "ms", target=50, **context)
        emit("us_per_action", 1e6 * elapsed / steps, "us", actions=steps, **context)
        emit("legal_actions_per_decision", listed / steps, "actions", **context)
    state = ENGINE.setup(4, {}, 1)
    start = time.perf_counter()
    for _ in range(1000):
        ENGINE.view(state, 0)
    emit("us_per_view", 1000 * (time.perf_counter() - start), "us", players=4)


if __name__ == "__main__":
    main()
