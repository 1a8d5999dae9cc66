"""Bot benchmarks: one JSON object per line (see docs/benchmarks.md).

    .venv/bin/python bench/bench_bots.py [--games N] [--title T]

- bots.greedy_beats_random.<title>: the share of 2-seat games the greedy bot
  wins against the random bot (a shared win counts by its share), over N
  seeded games per title (default 200; 18Cuba 20, whose games with the
  greedy bot take seconds each), the greedy bot in seat 0 in half of them
  and in seat 1 in the other half; target 0.70.
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
GAMES = 200
# Titles whose games take long with the greedy bot trying every move.
GAMES_OF = {"18cuba": 20}


def titles() -> list[str]:
    return [
        name
        for name, engine in sorted(base.available().items())
        if "greedy" in bots.kinds_for(engine)
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, help=f"per title (default {GAMES})")
    parser.add_argument("--title", help="only this title")
    args = parser.parse_args()
    for name in titles():
        if args.title and name != args.title:
            continue
        engine = base.get(name)
        games = args.games or GAMES_OF.get(name, GAMES)
        won = 0.0
        started = time.perf_counter()
        for seed in range(games):
            greedy = seed % 2
            kinds = ["random", "random"]
            kinds[greedy] = "greedy"
            won += bots.greedy_share(bots.play_out(engine, kinds, seed), greedy)
        seconds = time.perf_counter() - started
        emit(f"bots.greedy_beats_random.{name}", won / games, "share",
             games=games, seats=2, target=TARGET)  # fmt: skip
        emit(f"bots.seconds_per_game.{name}", seconds / games, "s", games=games)


if __name__ == "__main__":
    main()
