"""Web pages: a warm game page and an unchanged live poll, served by gunicorn.

    .venv/bin/python bench/bench_web.py [--requests N]

One game per title, part-way through (seeded random legal moves), on a
throwaway PostgreSQL database next to DATABASE_URL's, with Redis when
REDIS_URL is set, behind gunicorn as deployed (DEBUG off).  A logged-in
player, one request at a time (each figure is a page's own latency, not a
queue's), fetches:

- `web.game_page_ms.<title>.after_move`: the whole page (board, moves, log)
  right after another player moved, so the new position is drawn for the
  first time: what a page costs whenever the game changes; target under
  50 ms for a warm game (the server process has served the game before);
- `web.game_page_ms.<title>.same_head`: the same page again, nothing moved
  (the drawn board is remembered per position and seat);
- `web.live_poll_ms.<title>`: the 204 a page gets every 5 s while nobody
  moves.

Median, p95 and max of N requests (N moves for after_move), after one
request that warms the game.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import os
import random
import secrets
import statistics
import time
from urllib.parse import quote

from support import django_setup, emit, start_gunicorn, throwaway_database

# The server's key is this process's: it must read the sessions made here,
# or every page timed is a logged-out spectator's.
SECRET_KEY = os.environ["SECRET_KEY"] = "bench-" + secrets.token_hex(32)
django_setup()

from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from games.engines import base  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.services.moves import do_submit_action  # noqa: E402
from games.stream import store  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8932"))
TARGET_MS = 50
# (title, players, moves played before measuring): part-way through a game,
# where the page has a full log and a board with something on it.
GAMES = [("havana", 3, 40), ("estates", 3, 30), ("pointcity", 3, 10), ("18cuba", 4, 90)]


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
    rng = random.Random(7)
    for _ in range(moves):
        if not random_move(game, users, rng):
            break
    return game, users


def to_move(game) -> tuple[int, list[dict]] | None:
    """The lowest seat to act and its legal moves (None at the end)."""
    engine = base.get(game.title)
    game.refresh_from_db()
    state = store.load(game, engine).state
    if engine.result(state) is not None:
        return None
    seat = min(engine.to_act(state))
    return seat, engine.legal_actions(state, seat)


def random_move(game, users, rng: random.Random, turn=None) -> bool:
    """One random legal move of the lowest seat to act (False at the end);
    `turn` is `to_move(game)` when the caller has it already."""
    turn = turn or to_move(game)
    if turn is None:
        return False
    seat, legal = turn
    do_submit_action(game, seat, actor=users[seat], action=rng.choice(legal), text=None,
                     expected_seq=game.seq, source="web", kind="action")  # fmt: skip
    return True


def lays_on_offer(game, users, rng: random.Random, at_least: int = 40, moves: int = 3000):
    """Play random moves until a director has `at_least` lays to choose
    from: the dearest 18Cuba page, one drawn tile per lay. Returns that
    seat and the number of lays (None: no such position in `moves`)."""
    for _ in range(moves):
        turn = to_move(game)
        if turn is None:
            return None
        seat, legal = turn
        lays = sum(1 for a in legal if a["type"] == "lay")
        if lays >= at_least:
            return seat, lays
        random_move(game, users, rng, turn)
    return None


def page_of(path: str, session: str) -> str:
    """The page as the session's player gets it; refused if the server took
    them for a logged-out visitor (the bench must time the page it says)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request("GET", path, headers={"Cookie": f"sessionid={session}"})
    with conn.getresponse() as response:
        body = response.read().decode()
    if ">Log out</button>" not in body:
        raise RuntimeError(f"{path}: the server did not take the session as logged in")
    return body


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def measure(name: str, path: str, session: str, expect: int, requests: int, before=None):
    """`requests` timed GETs of `path`, each after `before()` if given."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    status, _ = get(path, session, conn)  # warms the game in the worker
    if status != expect:
        raise RuntimeError(f"{path}: {status}, expected {expect}")
    took = []
    for _ in range(requests):
        if before is not None and not before():
            break
        status, seconds = get(path, session, conn)
        if status != expect:
            raise RuntimeError(f"{path}: {status}, expected {expect}")
        took.append(seconds * 1000)
    report(name, took)


def report(name: str, took: list[float]) -> None:
    requests = len(took)
    if not took:
        raise RuntimeError(f"{name}: the game ended before anything was measured")
    took.sort()
    emit(f"{name}.median", statistics.median(took), "ms", requests=requests, target=TARGET_MS,
         met=statistics.median(took) < TARGET_MS)  # fmt: skip
    emit(f"{name}.p95", took[int(len(took) * 0.95)], "ms", requests=requests)
    emit(f"{name}.max", took[-1], "ms", requests=requests)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args()
    with throwaway_database(needs_postgresql=True):
        games = [(title, *played_game(title, players, moves)) for title, players, moves in GAMES]
        # The viewer is the last seat: the moves made between requests are
        # mostly other seats', as in a real game.
        sessions = {title: session_of(users[-1]) for title, _, users in games}
        # The acting director's 18Cuba page with a hex panel per hex and a
        # drawn button per legal lay, measured at the same head (the moves
        # are drawn on every request: their forms carry the CSRF token).
        cuba_users = [User.objects.create(username=f"lays-{seat}") for seat in range(4)]
        cuba = do_create_game(title="18cuba", players=cuba_users, seed=5)
        found = lays_on_offer(cuba, cuba_users, random.Random(5))
        # Sessions are made before the server starts, as for the pages above.
        cuba_session = session_of(cuba_users[found[0]]) if found else ""
        server = start_gunicorn(PORT, secret_key=SECRET_KEY, WEB_WORKERS="1")
        try:
            for title, game, users in games:
                page = f"/games/{game.pk}/"
                page_of(page, sessions[title])
                mover = functools.partial(random_move, game, users, random.Random(11))
                measure(
                    f"web.game_page_ms.{title}.after_move",
                    page,
                    sessions[title],
                    200,
                    args.requests,
                    before=mover,
                )
                measure(f"web.game_page_ms.{title}.same_head", page, sessions[title], 200,
                        args.requests)  # fmt: skip
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
                conn.request("GET", page, headers={"Cookie": f"sessionid={sessions[title]}"})
                with conn.getresponse() as response:
                    etag = quote(response.headers["ETag"])
                poll = f"/games/{game.pk}/live/?etag={etag}"
                measure(f"web.live_poll_ms.{title}", poll, sessions[title], 204, args.requests)
            if found is None:
                emit("web.game_page_ms.18cuba.lays_on_offer.lays", 0, "lays",
                     note="no director had 40 lays in 3000 random moves")  # fmt: skip
            else:
                _, lays = found
                page, session = f"/games/{cuba.pk}/", cuba_session
                drawn = page_of(page, session).count('class="tile-button"')
                if drawn != lays:
                    raise RuntimeError(f"{page}: {drawn} tile buttons for {lays} legal lays")
                emit("web.game_page_ms.18cuba.lays_on_offer.lays", lays, "lays")
                measure("web.game_page_ms.18cuba.lays_on_offer", page, session, 200,
                        args.requests)  # fmt: skip
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
