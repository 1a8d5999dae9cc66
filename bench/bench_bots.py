"""Bot benchmarks: one JSON object per line (see docs/benchmarks.md).

    .venv/bin/python bench/bench_bots.py [--games N]

- bots.greedy_beats_random.<title>: the share of 2-seat games the greedy bot
  wins against the random bot (a shared win counts by its share), over N
  seeded games per title (default 200), the greedy bot in seat 0 in half of
  them and in seat 1 in the other half; target 0.70.
- bots.seconds_per_game.<title>: the mean time of one of those games (the
  greedy bot tries every legal action at every move).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import emit
from games.engines import base, bots

TARGET = 0.70


def titles() -> list[str]:
    return [
        name
        for name, engine in sorted(base.available().items())
        if "greedy" in bots.kinds_for(engine)
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    for name in titles():
        engine = base.get(name)
        won = 0.0
        started = time.perf_counter()
        for seed in range(args.games):
            greedy = seed % 2
            kinds = ["random", "random"]
            kinds[greedy] = "greedy"
            won += bots.greedy_share(bots.play_out(engine, kinds, seed), greedy)
        seconds = time.perf_counter() - started
        emit(f"bots.greedy_beats_random.{name}", won / args.games, "share",
             games=args.games, seats=2, target=TARGET)  # fmt: skip
        emit(f"bots.seconds_per_game.{name}", seconds / args.games, "s", games=args.games)


if __name__ == "__main__":
    main()
