"""Benchmark of the Point City engine: full games per player count.

Run: .venv/bin/python bench/bench_pointcity.py
Prints one JSON object per line: {"bench": "pointcity.<measure>", "value": ..., "unit": ...}.
Target: a 4-player random game in under 50 ms on one core (a turn must feel instant).

- timing lines (`ms_per_random_game`, `random_games_per_second`, `us_per_action`,
  `us_per_view`) come as `<measure>_min` and `<measure>_median` over RUNS runs,
  so one busy moment of a shared machine does not make the figure;
- `ended_by_share` (one line per player count, way of ending and policy): the
  share of games ending each way (`result["ended_by"]`), for random playouts
  and for greedy ones (the take with most printed building points, else a pile
  draw).  `no_draft` is the final turn's `pass` (games/engines/pointcity/README.md,
  "Where the rules are silent or uncertain"): these lines show how rarely it happens.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import pin_one_core
from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS
from games.engines.pointcity.market import BUILDING, INDEX

GAMES = 100  # games per run and player count (timing)
RUNS = 5  # timing runs; min and median are printed
ENDINGS_GAMES = 500  # games per player count and policy (ended_by shares)
ENDINGS = ("pile_exhausted", "no_draft", "resignation")

Policy = Callable[[dict[str, Any], int, list[dict[str, Any]], random.Random], dict[str, Any]]


def random_policy(state, seat, legal, rng):
    return rng.choice(legal)


def take_points(state: dict[str, Any], action: dict[str, Any]) -> int:
    """Printed points of the buildings a take builds."""
    slots = [state["market"][INDEX[s]] for s in action["spaces"]]
    return sum(CARDS[s["card"]].points for s in slots if s["side"] == BUILDING)


def greedy_policy(state, seat, legal, rng):
    """The take with most building points (fewest cards paid on a tie), else
    draw; with no draw (the final turn) the best take, else pass.  Never flips;
    a civic choice takes the token worth most now (as a timeout does)."""
    if state["phase"] == "civic":
        return ENGINE.timeout_action(state, seat)
    takes = [a for a in legal if a["type"] == "take"]
    best = max(takes, key=lambda a: (take_points(state, a), -len(a["pay"])), default=None)
    if best is not None and take_points(state, best) > 0:
        return best
    if {"type": "draw"} in legal:
        return {"type": "draw"}
    return best if best is not None else {"type": "pass"}


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def play(players: int, seed: int, policy: Policy = random_policy) -> tuple[int, int, str]:
    """One game from setup to result: (actions, legal actions listed, ended_by)."""
    state = ENGINE.setup(players, {}, seed)
    rng = random.Random(seed)
    steps = listed = 0
    while (result := ENGINE.result(state)) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        listed += len(legal)
        state = ENGINE.apply(state, seat, policy(state, seat, legal, rng))
        steps += 1
    return steps, listed, result["ended_by"]


def emit(measure: str, value: float, unit: str, **context: object) -> None:
    line = {"bench": f"pointcity.{measure}", "value": round(value, 3), "unit": unit, **context}
    print(json.dumps(line), flush=True)


def emit_spread(measure: str, values: list[float], unit: str, **context: object) -> None:
    """The min and the median of one timing over the runs, as two lines."""
    emit(f"{measure}_min", min(values), unit, runs=len(values), **context)
    emit(f"{measure}_median", statistics.median(values), unit, runs=len(values), **context)


def bench_timing(players: int) -> None:
    per_game, per_second, per_action = [], [], []
    steps = listed = 0
    for _ in range(RUNS):
        steps = listed = 0
        start = time.perf_counter()
        for seed in range(GAMES):
            s, n, _ = play(players, seed)
            steps += s
            listed += n
        elapsed = time.perf_counter() - start
        per_game.append(1000 * elapsed / GAMES)
        per_second.append(GAMES / elapsed)
        per_action.append(1e6 * elapsed / steps)
    context = {"players": players, "games": GAMES}
    emit_spread("random_games_per_second", per_second, "games/s", **context)
    emit_spread("ms_per_random_game", per_game, "ms", target=50, **context)
    emit_spread("us_per_action", per_action, "us", actions=steps, **context)
    emit("legal_actions_per_decision", listed / steps, "actions", **context)


def bench_endings(players: int) -> None:
    for name, policy in POLICIES.items():
        endings = Counter(play(players, seed, policy)[2] for seed in range(ENDINGS_GAMES))
        for ended_by in ENDINGS:
            emit(
                "ended_by_share",
                endings[ended_by] / ENDINGS_GAMES,
                "share",
                players=players,
                policy=name,
                ended_by=ended_by,
                games=ENDINGS_GAMES,
                count=endings[ended_by],
            )


def bench_view() -> None:
    state = ENGINE.setup(4, {}, 1)
    runs = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for _ in range(1000):
            ENGINE.view(state, 0)
        runs.append(1000 * (time.perf_counter() - start))
    emit_spread("us_per_view", runs, "us", players=4)


def main() -> None:
    pin_one_core()
    for players in (1, 2, 3, 4):
        bench_timing(players)
    for players in (1, 2, 3, 4):
        bench_endings(players)
    bench_view()


if __name__ == "__main__":
    main()
