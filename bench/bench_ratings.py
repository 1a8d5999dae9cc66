"""Ratings: every rating rebuilt from scratch from many finished games, and
the leaderboard warm.

    .venv/bin/python bench/bench_ratings.py [--games N] [--requests N]

The database holds N finished games (100,000 by default) of 2 to 5 seats
among 5,000 players, in three titles; one in twenty has a seat two players
shared (a replacement), one in ten has ties.  Their results are synthesized
(places drawn at random) and handed to the rebuild as the facts its reading
of the streams would give (`ratings.ledger.Facts`): the bench measures the
rating, not a replay of 100,000 streams, which verify_games' own bench times.

- `ratings.rebuild_s`: `ratings.updates.do_rebuild` of all of them, from no
  rating at all: the model's updates in order and the rows written (one
  rating event per game, a change per player and game, a rating per player
  and title);
- `ratings.leaderboard_api_ms`, `ratings.leaderboard_page_ms`:
  `GET /api/titles/havana/ratings/` and `/ratings/?title=havana` (the first
  50), through gunicorn as deployed, after one warming request each, median
  p95 and max; target: a median under 30 ms.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import os
import random
import secrets
import statistics
import time

from support import django_setup, emit, start_gunicorn, throwaway_database

SECRET_KEY = os.environ["SECRET_KEY"] = "bench-" + secrets.token_hex(32)
django_setup()

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts import usernames  # noqa: E402
from accounts.models import User  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Game  # noqa: E402
from ratings import ledger, updates  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8936"))
TARGET_MS = 30
TITLES = ["havana", "estates", "18cuba"]
PLAYERS = 5000
BATCH = 5000


def people(count: int) -> list[int]:
    made = [
        User(
            username=f"r{n:05d}",
            username_key=usernames.key(f"r{n:05d}"),
            username_look_key=usernames.look_key(f"r{n:05d}"),
            email=f"r{n}@bench.test",
            password="!",
        )
        for n in range(count)
    ]
    User.objects.bulk_create(made, batch_size=BATCH)
    return list(User.objects.order_by("pk").values_list("pk", flat=True))


def finished(count: int, players: list[int], rng: random.Random) -> list[ledger.Facts]:
    """`count` finished games in bulk and the facts their streams would give."""
    start = timezone.now() - datetime.timedelta(days=365)
    facts = []
    for first in range(0, count, BATCH):
        games, shapes = [], []
        for n in range(first, min(first + BATCH, count)):
            title = TITLES[n % len(TITLES)]
            seats = rng.randint(2, 5)
            places = sorted(range(1, seats + 1), key=lambda _: rng.random())
            if n % 10 == 0:  # a tie: two seats share the better place
                a, b = rng.sample(range(seats), 2)
                places[a] = places[b] = min(places[a], places[b])
            games.append(Game(
                title=title, options={}, engine_version=base.get(title).VERSION, seed=n,
                salt="0" * 16, status=Game.Status.FINISHED, seq=60, head_hash="0" * 64,
                result={"winners": [], "places": places, "scores": [0] * seats,
                        "ended_by": "end", "breakdown": [{}] * seats},
                spectator_at=start,
            ))  # fmt: skip
            shapes.append((title, places))
        made = Game.objects.bulk_create(games)
        for game, (title, places) in zip(made, shapes, strict=True):
            users = rng.sample(players, len(places) + 1)
            holders = [[[user, 1.0]] for user in users[: len(places)]]
            if game.seed % 20 == 0:  # a replacement took a seat over
                holders[0] = [[users[0], 0.4], [users[-1], 0.6]]
            facts.append(ledger.Facts(
                game.pk, title, rated=True, finish_seq=60,
                finished_at=start + datetime.timedelta(minutes=game.seed), places=places,
                holders=holders,
            ))  # fmt: skip
    return facts


def get(conn, path: str) -> tuple[int, float]:
    started = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    return response.status, time.perf_counter() - started


def measure(name: str, path: str, requests: int, **context) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    status, _ = get(conn, path)  # the warming request
    if status != 200:
        raise RuntimeError(f"{path}: {status}")
    took = []
    for _ in range(requests):
        status, seconds = get(conn, path)
        if status != 200:
            raise RuntimeError(f"{path}: {status}")
        took.append(seconds * 1000)
    took.sort()
    median = statistics.median(took)
    emit(f"{name}.median", median, "ms", requests=requests, target=TARGET_MS,
         met=median < TARGET_MS, **context)  # fmt: skip
    emit(f"{name}.p95", took[int(len(took) * 0.95)], "ms", requests=requests, **context)
    emit(f"{name}.max", took[-1], "ms", requests=requests, **context)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(39)
    with throwaway_database(needs_postgresql=True):
        players = people(PLAYERS)
        facts = finished(args.games, players, rng)
        started = time.perf_counter()
        rated = updates.do_rebuild(facts)
        seconds = time.perf_counter() - started
        changes = sum(len(seat) for f in facts for seat in f.holders)
        emit("ratings.rebuild_s", seconds, "s", games=rated, changes=changes,
             per_game_ms=round(1000 * seconds / max(rated, 1), 3))  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        context = {"games": args.games, "players": PLAYERS}
        server = start_gunicorn(PORT, secret_key=SECRET_KEY, WEB_WORKERS="1")
        try:
            measure("ratings.leaderboard_api_ms", "/api/titles/havana/ratings/", args.requests,
                    **context)  # fmt: skip
            measure("ratings.leaderboard_page_ms", "/ratings/?title=havana", args.requests,
                    **context)  # fmt: skip
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
