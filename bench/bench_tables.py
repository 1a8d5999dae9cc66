"""The lobby and a player's profile, warm, with many rows in the database.

    .venv/bin/python bench/bench_tables.py [--games N] [--tables N] [--requests N]

The database holds N finished games (100,000 by default) among 1,000
players and M waiting tables (5,000: four in five open, with one to three
seats taken) beside 2,000 started ones.  The profiled player sits at 400 of
the games, with 40 moves in each of 200 of them (a long history to take the
reliability from).  Rows are written in bulk (the bench measures reading
them, not making them: games through the service would take an hour).

Through gunicorn as deployed (DEBUG off, one worker, PostgreSQL, a
throwaway database next to DATABASE_URL's), after one warming request each:

- `tables.lobby_api_ms`: `GET /api/tables/?open=1` (the first page of 25);
- `tables.lobby_page_ms`: the lobby page `/tables/`;
- `tables.profile_api_ms`: `GET /api/users/<name>/`;
- `tables.profile_page_ms`: `/players/<name>/`;

each as median, p95 and max of the requests, as a logged-in player (the
lobby's blocks are read for her).  Target: a median under 30 ms.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
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

from accounts import tokens, usernames  # noqa: E402
from accounts.models import User  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Event, Game, Seat, Table, TableSeat  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8934"))
TARGET_MS = 30
TITLES = ["havana", "estates", "pointcity"]
PLAYERS = 1000
BATCH = 5000


def people(count: int) -> list[User]:
    """Accounts in bulk (their name keys set as User.save would set them)."""
    made = [
        User(
            username=f"p{n:04d}",
            username_key=usernames.key(f"p{n:04d}"),
            username_look_key=usernames.look_key(f"p{n:04d}"),
            email=f"p{n}@bench.test",
            password="!",
        )
        for n in range(count)
    ]
    User.objects.bulk_create(made, batch_size=BATCH)
    return list(User.objects.order_by("pk"))


def finished_games(count: int, players: list[User], her: User, rng: random.Random) -> list[int]:
    """`count` finished two-player games; `her` sits at 400 of them."""
    now = timezone.now()
    hers: list[int] = []
    for start in range(0, count, BATCH):
        games = []
        for n in range(start, min(start + BATCH, count)):
            title = TITLES[n % len(TITLES)]
            winner = rng.randrange(2)
            result = {"winners": [winner], "places": [1 + (winner != s) for s in range(2)],
                      "scores": [10, 5][::1 if winner == 0 else -1], "ended_by": "end",
                      "breakdown": [{"points": 10}, {"points": 5}]}  # fmt: skip
            games.append(Game(
                title=title, options={}, engine_version=base.get(title).VERSION,
                seed=n, salt=secrets.token_hex(8), status=Game.Status.FINISHED, seq=40,
                head_hash="0" * 64, result=result, public=n % 5 != 0,
                created_by=players[n % PLAYERS], spectator_at=now,
            ))  # fmt: skip
        made = Game.objects.bulk_create(games)
        seats = []
        for game in made:
            n = game.seed
            first = (
                her if n % (count // 400 or 1) == 0 and len(hers) < 400 else players[n % PLAYERS]
            )
            if first is her:
                hers.append(game.pk)
            second = players[(n * 7 + 1) % PLAYERS]
            if second.pk == first.pk:
                second = players[(n * 7 + 2) % PLAYERS]
            seats += [Seat(game=game, index=0, user=first), Seat(game=game, index=1, user=second)]
        Seat.objects.bulk_create(seats)
    return hers


def moves_of(her: User, games: list[int], other: User) -> None:
    """40 moves in each of 200 of her games, hers every other one."""
    events = []
    start = timezone.now() - datetime.timedelta(days=60)
    for g, game_id in enumerate(games[:200]):
        at = start + datetime.timedelta(hours=g)
        for seq in range(1, 41):
            at += datetime.timedelta(minutes=7 + seq % 5)
            mine = seq % 2 == 0
            events.append(Event(
                game_id=game_id, seq=seq, kind=Event.Kind.CREATED if seq == 1 else "action",
                seat=0 if mine else 1, actor=her if mine else other, source="api",
                payload={}, created_at=at, prev_hash="0" * 64, hash=secrets.token_hex(32),
            ))  # fmt: skip
    Event.objects.bulk_create(events, batch_size=BATCH)


def tables(count: int, players: list[User]) -> None:
    now = timezone.now()
    made = []
    for n in range(count + 2000):
        waiting = n < count
        made.append(Table(
            title=TITLES[n % len(TITLES)], options={}, min_seats=2, max_seats=4,
            seated=1 + n % 3 if waiting else 4, host=players[n % PLAYERS],
            status=Table.Status.WAITING if waiting else Table.Status.STARTED,
            open=n % 5 != 0, expires_at=now + datetime.timedelta(days=14),
        ))  # fmt: skip
    made = Table.objects.bulk_create(made, batch_size=BATCH)
    seats = [
        TableSeat(table=table, user=players[(table.pk * 13 + k) % PLAYERS])
        for table in made
        for k in range(table.seated)
    ]
    TableSeat.objects.bulk_create(seats, batch_size=BATCH, ignore_conflicts=True)


def get(conn, path: str, headers: dict[str, str]) -> tuple[int, float, bytes]:
    started = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    return response.status, time.perf_counter() - started, body


def measure(name: str, path: str, headers: dict[str, str], requests: int, **context) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    status, _, body = get(conn, path, headers)  # the warming request
    if status != 200:
        raise RuntimeError(f"{path}: {status} {body[:300]!r}")
    took = []
    for _ in range(requests):
        status, seconds, _ = get(conn, path, headers)
        if status != 200:
            raise RuntimeError(f"{path}: {status}")
        took.append(seconds * 1000)
    took.sort()
    median = statistics.median(took)
    emit(f"{name}.median", median, "ms", requests=requests, target=TARGET_MS,
         met=median < TARGET_MS, **context)  # fmt: skip
    emit(f"{name}.p95", took[int(len(took) * 0.95)], "ms", requests=requests, **context)
    emit(f"{name}.max", took[-1], "ms", requests=requests, **context)


def session_of(user) -> str:
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return browser.cookies["sessionid"].value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=5_000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(7)
    with throwaway_database(needs_postgresql=True):
        players = people(PLAYERS)
        her = players[0]
        hers = finished_games(args.games, players, her, rng)
        moves_of(her, hers, players[1])
        tables(args.tables, players)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        _, key = tokens.issue(her, "bench")
        api = {"Authorization": f"Token {key}"}
        page = {"Cookie": f"sessionid={session_of(her)}"}
        context = {"games": args.games, "tables": args.tables}
        server = start_gunicorn(PORT, secret_key=SECRET_KEY, WEB_WORKERS="1")
        try:
            lobby = json.loads(get(http.client.HTTPConnection("127.0.0.1", PORT, timeout=60),
                                   "/api/tables/?open=1", api)[2])  # fmt: skip
            if len(lobby["results"]) != 25:
                raise RuntimeError(f"the lobby lists {len(lobby['results'])} tables, not 25")
            measure("tables.lobby_api_ms", "/api/tables/?open=1", api, args.requests, **context)
            measure("tables.lobby_page_ms", "/tables/", page, args.requests, **context)
            path = f"/api/users/{her.username}/"
            measure("tables.profile_api_ms", path, api, args.requests, **context)
            measure("tables.profile_page_ms", f"/players/{her.username}/", page,
                    args.requests, **context)  # fmt: skip
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
