"""Another user's game list and dashboard while one account floods delayed games.

    .venv/bin/python bench/bench_lists.py [--games N] [--requests N]

The attack this measures: one account (with an accomplice) starts N public
games (600 by default) whose spectators see them one move late, and has
moved in half of them, so their spectators stand one move behind.  Another
user, who holds two games of her own, then fetches, one request at a time
through gunicorn as deployed (DEBUG off, one worker, PostgreSQL, a
throwaway database next to DATABASE_URL's):

- `lists.api_ms.<games>`: `GET /api/games/` (the first page of 25);
- `lists.dashboard_ms.<games>`: the dashboard `/` (her games, 20 to watch);

each as median, p95 and max of N requests after a first one, whose time is
printed as `.first` (the worker, warmed by a moderator's same request, has
seen none of the spectators' points: each listed game whose spectators
stand behind its head is replayed to that point once; the dashboard's
comes after the list's, in the same worker, which replayed them already).
Target: a median under 60 ms with 600 games.  The same is measured with 10
games first, so the two lines side by side show what the flood costs.  The
games are started through the service directly (the creation limits,
docs/guarantees.md, "Starting games is limited", would stop the attack long before).
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import statistics
import time

from support import django_setup, emit, start_gunicorn, throwaway_database

# The server's key is this process's, so the session made here logs her in.
SECRET_KEY = os.environ["SECRET_KEY"] = "bench-" + secrets.token_hex(32)
django_setup()

from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from accounts.models import User  # noqa: E402
from games.engines import base  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.services.moves import do_submit_action  # noqa: E402
from games.stream import store  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8933"))
TARGET_MS = 60
TITLE = "havana"


def get(conn, path: str, headers: dict[str, str]) -> tuple[int, float]:
    started = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status, time.perf_counter() - started


def flood(attacker, accomplice, count: int, start: int) -> None:
    """`count` public games with a delay of one move; a move in every other one."""
    engine = base.get(TITLE)
    for i in range(count):
        game = do_create_game(title=TITLE, players=[attacker, accomplice], creator=attacker,
                              seed=start + i, spectator_delay=1)  # fmt: skip
        if i % 2:
            state = store.load(game, engine).state
            seat = min(engine.to_act(state))
            action = engine.legal_actions(state, seat)[0]
            users = [attacker, accomplice]
            do_submit_action(game, seat, actor=users[seat], action=action, text=None,
                             expected_seq=game.seq, source="api", kind="action")  # fmt: skip


def measure(
    name: str, path: str, headers: dict[str, str], requests: int, games: int, warm: dict
) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    # A moderator (never delayed) warms the worker's code and templates, so
    # her first request counts the replays of the points it has not seen.
    if get(conn, path, warm)[0] != 200:
        raise RuntimeError(f"{path}: the moderator's request failed")
    status, first = get(conn, path, headers)
    if status != 200:
        raise RuntimeError(f"{path}: {status}")
    conn.request("GET", path, headers=headers)
    with conn.getresponse() as response:
        if b"mallory" not in response.read():
            raise RuntimeError(f"{path}: the flood is not listed (not logged in?)")
    took = []
    for _ in range(requests):
        status, seconds = get(conn, path, headers)
        if status != 200:
            raise RuntimeError(f"{path}: {status}")
        took.append(seconds * 1000)
    took.sort()
    median = statistics.median(took)
    emit(f"{name}.{games}.first", first * 1000, "ms", games=games)
    emit(f"{name}.{games}.median", median, "ms", requests=requests, games=games,
         target=TARGET_MS, met=median < TARGET_MS)  # fmt: skip
    emit(f"{name}.{games}.p95", took[int(len(took) * 0.95)], "ms", requests=requests, games=games)
    emit(f"{name}.{games}.max", took[-1], "ms", requests=requests, games=games)


def session_of(user) -> str:
    browser = Client()
    browser.force_login(user)
    return browser.cookies["sessionid"].value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with throwaway_database(needs_postgresql=True):
        attacker = User.objects.create(username="mallory")
        accomplice = User.objects.create(username="accomplice")
        eve, friend = User.objects.create(username="eve"), User.objects.create(username="friend")
        for seed in (1, 2):
            do_create_game(title=TITLE, players=[eve, friend], creator=eve, seed=seed)
        mo = User.objects.create(username="mo", is_moderator=True)
        token, mo_token = (Token.objects.create(user=user).key for user in (eve, mo))
        session, mo_session = (session_of(user) for user in (eve, mo))
        made = 0
        for games in (10, args.games):
            flood(attacker, accomplice, games - made, start=100 + made)
            made = games
            # a fresh worker for each size: the first request meets none of the games
            server = start_gunicorn(PORT, secret_key=SECRET_KEY, WEB_WORKERS="1")
            try:
                measure("lists.api_ms", "/api/games/", {"Authorization": f"Token {token}"},
                        args.requests, games, {"Authorization": f"Token {mo_token}"})  # fmt: skip
                measure("lists.dashboard_ms", "/", {"Cookie": f"sessionid={session}"},
                        args.requests, games, {"Cookie": f"sessionid={mo_session}"})  # fmt: skip
            finally:
                server.terminate()
                server.wait(timeout=10)


if __name__ == "__main__":
    main()
