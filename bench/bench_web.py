"""Web pages: a warm game page and an unchanged live poll, served by gunicorn.

    .venv/bin/python bench/bench_web.py [--requests N]

One game per title, part-way through (seeded random legal moves), on a
throwaway PostgreSQL database next to DATABASE_URL's, with Redis when
REDIS_URL is set, behind gunicorn as deployed (DEBUG off).  A logged-in
player fetches the game page (`web.game_page_ms.<title>`: the whole page,
board, moves and log, rendered server-side; target under 50 ms for a warm
game) and polls it unchanged (`web.live_poll_ms.<title>`: the 204 a page gets
every 5 s while nobody moves), one request at a time so that each figure is a
page's own latency, not a queue's.  Median, p95 and max of N requests, after
one request that warms the game.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import statistics
import subprocess
import time

from support import ROOT, django_setup, emit, throwaway_database

django_setup()

from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from bench.bench_api import database_url  # noqa: E402
from games import store  # noqa: E402
from games.engines import base  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.services.moves import do_submit_action  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8932"))
TARGET_MS = 50
# (title, players, moves played before measuring): part-way through a game,
# where the page has a full log and a board with something on it.
GAMES = [("havana", 3, 60), ("estates", 3, 60), ("pointcity", 2, 60), ("18cuba", 4, 200)]


def start_gunicorn() -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url(), DJANGO_DEBUG="0",
               SECRET_KEY="bench-" + secrets.token_hex(32), CHAIN_KEY=secrets.token_hex(32),
               THROTTLE_USER="1000000/min", THROTTLE_ANON="1000000/min", LOG_LEVEL="WARNING",
               WEB_WORKERS="1", GUNICORN_BIND=f"127.0.0.1:{PORT}", GUNICORN_MAX_REQUESTS="0",
               SESSION_COOKIE_SECURE="0")  # fmt: skip
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-c", "deploy/gunicorn.conf.py"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    for _ in range(100):
        try:
            get("/api/ping/", "")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def get(path: str, session: str, conn=None) -> tuple[int, float]:
    conn = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    started = time.perf_counter()
    conn.request("GET", path, headers={"Cookie": f"sessionid={session}"})
    response = conn.getresponse()
    response.read()
    return response.status, time.perf_counter() - started


def played_game(title: str, players: int, moves: int):
    users = [User.objects.create(username=f"{title}-{seat}") for seat in range(players)]
    game = do_create_game(title=title, players=users, seed=7)
    engine, rng = base.get(title), random.Random(7)
    for _ in range(moves):
        state = store.load(game, engine).state
        if engine.result(state) is not None:
            break
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        do_submit_action(game, seat, actor=users[seat], action=action, text=None,
                         expected_seq=game.seq, source="web", kind="action")  # fmt: skip
        game.refresh_from_db()
    return game, users[0]


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def measure(name: str, path: str, session: str, expect: int, requests: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    status, _ = get(path, session, conn)  # warms the game in the worker
    if status != expect:
        raise RuntimeError(f"{path}: {status}, expected {expect}")
    took = []
    for _ in range(requests):
        status, seconds = get(path, session, conn)
        if status != expect:
            raise RuntimeError(f"{path}: {status}, expected {expect}")
        took.append(seconds * 1000)
    took.sort()
    emit(f"{name}.median", statistics.median(took), "ms", requests=requests, target=TARGET_MS,
         met=statistics.median(took) < TARGET_MS)  # fmt: skip
    emit(f"{name}.p95", took[int(len(took) * 0.95)], "ms", requests=requests)
    emit(f"{name}.max", took[-1], "ms", requests=requests)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    with throwaway_database():
        games = [(title, *played_game(title, players, moves)) for title, players, moves in GAMES]
        sessions = {title: session_of(user) for title, _, user in games}
        server = start_gunicorn()
        try:
            for title, game, _ in games:
                page = f"/games/{game.pk}/"
                measure(f"web.game_page_ms.{title}", page, sessions[title], 200, args.requests)
                etag = _etag(page, sessions[title])
                poll = f"/games/{game.pk}/live/?etag={etag}"
                measure(f"web.live_poll_ms.{title}", poll, sessions[title], 204, args.requests)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _etag(path: str, session: str) -> str:
    from urllib.parse import quote

    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request("GET", path, headers={"Cookie": f"sessionid={session}"})
    response = conn.getresponse()
    response.read()
    return quote(response.headers["ETag"])


if __name__ == "__main__":
    main()
