"""18Cuba whole games: one JSON object per line (see docs/benchmarks.md).

    .venv/bin/python bench/bench_cuba_games.py [--seeds N] [--moves N]

- cuba.game_seconds (min / median / max over seeds, per variant) and
  cuba.game_moves: whole random games (`randomgame`, the same player as the
  property tests) from the first auction to the final ranking, in the engine
  alone, pinned to one core; target: a 4-player game under 10 s.
- cuba.service_move_ms_warm / _cold (median / p95 / max): one move of a game already
  1,500 events long (six players), submitted through `games.services.moves` exactly as the
  API does (load from the newest snapshot and the events after it, apply,
  chained append, notifications to players who have addresses), on the
  database of DATABASE_URL (PostgreSQL by default) with Redis when REDIS_URL
  is set; target under 20 ms. Moves alternate between a warm process (it
  served the game's previous request) and a cold one (its memory of the
  game and of legal lays cleared first).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from support import django_setup, emit, throwaway_database

# One core, so the figure does not depend on what else the machine runs.
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

SETUPS = [
    ("2e", 2, {"difficulty": "easy"}),
    ("2h", 2, {"difficulty": "hard"}),
    ("3e", 3, {"difficulty": "easy"}),
    ("4", 4, {}),
    ("5", 5, {}),
    ("6", 6, {}),
]
LONG_GAME = 1_500


def bench_games(seeds: int) -> None:
    from games.engines.cuba.play import randomgame

    for name, players, options in SETUPS:
        seconds, moves = [], []
        for seed in range(1, seeds + 1):
            started = time.perf_counter()
            played = randomgame.play(players, options, seed)
            seconds.append(time.perf_counter() - started)
            moves.append(played.moves)
        for label, value in (
            ("min", min(seconds)),
            ("median", statistics.median(seconds)),
            ("max", max(seconds)),
        ):
            target = {"target": 10} if players == 4 and label == "max" else {}
            emit(f"cuba.game_seconds_{label}", value, "s", variant=name, games=seeds, **target)
        emit("cuba.game_moves_median", statistics.median(moves), "moves", variant=name,
             min=min(moves), max=max(moves), games=seeds)  # fmt: skip


def bench_service_move(measured: int) -> None:
    from django.conf import settings
    from django.db import connection

    from accounts.models import User
    from games.engines import base
    from games.engines.cuba.map import laying
    from games.engines.cuba.play.randomgame import choose
    from games.services.creation import do_create_game
    from games.services.moves import check_submit_action
    from games.stream import store

    engine = base.get("18cuba")
    # Six players: their random games are the ones that run past 1,500 events.
    users = [
        User.objects.create(username=f"cuba{i}", email=f"cuba{i}@example.org") for i in range(6)
    ]
    # A seed whose game lasts beyond the long game plus the measured moves.
    for seed in range(1, 50):
        game = do_create_game(title="18cuba", players=users, options={}, seed=seed)
        rng = random.Random(seed)
        times: dict[str, list[float]] = {"warm": [], "cold": []}
        while not engine.is_over(state := store.load(game, engine).state):
            seat = min(engine.to_act(state))
            action = choose(rng, engine.legal_actions(state, seat))
            # Past the long game, moves take turns between a process that
            # served this game's previous request ("warm": the state and the
            # legal lays it asked for are in its memory) and one that holds
            # nothing of it ("cold": the newest snapshot and the events since,
            # every lay worked out afresh).
            kind = "cold" if len(times["warm"]) > len(times["cold"]) else "warm"
            if kind == "cold":
                store._newest.discard(store._key(game, engine))
                laying._lays_of.cache_clear()
            started = time.perf_counter()
            check_submit_action(game, users[seat], action=action, expected_seq=game.seq)
            elapsed = time.perf_counter() - started
            game.refresh_from_db()
            if game.seq > LONG_GAME:
                times[kind].append(elapsed)
                if len(times["cold"]) == measured:
                    break
        if len(times["cold"]) == measured:
            break
    else:
        raise SystemExit("no seed gave a game long enough")
    context = {
        "events": LONG_GAME,
        "players": len(users),
        "moves": measured,
        "snapshot_every": settings.CORREO_SNAPSHOT_EVERY,
        "database": connection.vendor,
        "redis": bool(os.environ.get("REDIS_URL")),
    }
    for kind, series in times.items():
        ms = sorted(1000 * t for t in series)
        target = {"target": 20} if kind == "cold" else {}
        emit(
            f"cuba.service_move_ms_{kind}_median", statistics.median(ms), "ms", **target, **context
        )
        emit(f"cuba.service_move_ms_{kind}_p95", ms[int(0.95 * (len(ms) - 1))], "ms", **context)
        emit(f"cuba.service_move_ms_{kind}_max", ms[-1], "ms", **context)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    django_setup()
    bench_games(args.seeds)
    with throwaway_database():
        bench_service_move(args.moves)


if __name__ == "__main__":
    sys.exit(main())
