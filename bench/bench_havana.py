"""Havana engine benchmarks: one JSON object per line (see docs/benchmarks.md).

    .venv/bin/python bench/bench_havana.py [--games N]

- havana.games_per_second.<n>p: full random games (setup to result) per second
  on one core, with the same buying-biased random policy as the tests;
- havana.ms_per_game.<n>p: the same as milliseconds per game (target: 4 players
  under 50 ms);
- havana.legal_actions_max_us: time of one legal_actions call at the decision
  point with the longest list met in those games;
- havana.ended_by.<policy>.<n>p: the share of games that end by the VP target of
  the rules ("target") and by the engine's safety net, no building left that can
  ever be paid ("exhausted"), over --end-games games (default 300) of the random
  and the greedy player of tests/engines/havana/playout.py; with the
  provisional building list the target share should stay at 0.99 or above.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import min_and_median, pin_one_core, timed_runs
from games.engines.havana import ENGINE
from tests.engines.havana.playout import POLICIES, playout


def pick(rng: random.Random, actions: list[dict]) -> dict:
    buys = [a for a in actions if a["type"] == "buy"]
    if buys and rng.random() < 0.7:
        return rng.choice(buys)
    return rng.choice(actions)


def play(players: int, seed: int, widest: list) -> int:
    rng = random.Random(seed)
    state = ENGINE.setup(players, {}, seed)
    moves = 0
    while ENGINE.result(state) is None:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        actions = ENGINE.legal_actions(state, seat)
        if len(actions) > widest[0]:
            widest[:] = [len(actions), state, seat]
        state = ENGINE.apply(state, seat, pick(rng, actions))
        moves += 1
    return moves


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--end-games", type=int, default=300)
    args = parser.parse_args()
    widest: list = [0, None, None]
    core = pin_one_core()
    for players in (2, 3, 4):
        moves = [0]

        def games(players=players, moves=moves) -> None:
            moves[0] = sum(play(players, seed, widest) for seed in range(args.games))

        took = min_and_median(timed_runs(games))
        context = {"players": players, "games": args.games, "runs": took["runs"], "core": core,
                   "moves_per_game": moves[0] / args.games}  # fmt: skip
        emit(
            bench=f"havana.games_per_second.{players}p",
            value=round(args.games / took["median"], 1),
            unit="games/s",
            best=round(args.games / took["min"], 1),
            **context,
        )
        emit(
            bench=f"havana.ms_per_game.{players}p",
            value=round(1000 * took["median"] / args.games, 2),
            unit="ms",
            min=round(1000 * took["min"] / args.games, 2),
            target_ms=50 if players == 4 else None,
            **context,
        )
    count, state, seat = widest
    repeats = 200
    start = time.perf_counter()
    for _ in range(repeats):
        ENGINE.legal_actions(state, seat)
    micro = 1e6 * (time.perf_counter() - start) / repeats
    emit(
        bench="havana.legal_actions_max_us",
        value=round(micro, 1),
        unit="us",
        actions=count,
        phase=state["phase"],
        buying=state["buying"],
    )

    for policy in POLICIES:
        for players in (2, 3, 4):
            ends = {"target": 0, "exhausted": 0}
            rounds = 0
            for seed in range(args.end_games):
                state, _ = playout(players, seed, policy=POLICIES[policy])
                ends[ENGINE.result(state)["ended_by"]] += 1
                rounds += state["round"]
            emit(
                bench=f"havana.ended_by.{policy}.{players}p",
                value=round(ends["target"] / args.end_games, 4),
                unit="share ending by the VP target",
                exhausted=round(ends["exhausted"] / args.end_games, 4),
                games=args.end_games,
                rounds_per_game=round(rounds / args.end_games, 1),
                target_min=0.99,
            )


if __name__ == "__main__":
    main()
