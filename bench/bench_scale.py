"""What a move, a game, the lists and the sweeps cost as the site grows.

    .venv/bin/python bench/bench_scale.py [--sizes 10000,1000000] [--requests N]

For each size, a database of its own is filled by bench/scale_fill.py with
that many finished games and a fiftieth as many active ones (20 000 beside a
million), their players (a game for every fifty seats, one player at 500
games), events, snapshots, sent mails and checkpoints, plus an open table in
the lobby for every twenty active games (at least fifty: two full pages).
Then, through gunicorn as deployed (DEBUG off, PostgreSQL, Redis), one request at a time:

- `scale.move`: a legal move (`POST /api/games/{id}/actions/`) in a
  different active game each time, by the seat to act;
- `scale.game`: that player's `GET /api/games/{id}/` of another one;
- `scale.dashboard`: the page `/` of the player with 500 games;
- `scale.lobby`: `/tables/`, the open tables;
- `scale.archive.*`: `/games/archive/`, finished games by title, the
  busy player's games, and the active ones;
- `scale.api_list`, `scale.api_list.title`: the busy player's
  `GET /api/games/`, all of it and one title's finished games;

and in this process, as the beat's tasks run them:

- `scale.clock_sweep`: `games.jobs.sweep.sweep()` (nothing due);
- `scale.outbox_sweep`: `notifications.delivery.sweep()`.

Each prints its median and p90 in ms at every size, and at the last size
its ratio to the first (`.ratio`; goal: at most 1.3).  The templates are
played once and cloned for every size, so the sizes differ in nothing but
how many games there are.  A million games of the realistic mix need
about 130 GB; of the short mix (`--mix short`) 51 GB and 21 minutes to
fill here.  The bench says how much a size needs and skips a
size that the disk cannot hold.  `--keep` leaves the last database
(`correo_scale_<size>`) for a profile, and `--reuse` measures again on
such a database instead of filling one (migrated first; its clocks set
to fall due after the run, as a fill sets them; its old seals are under
the key of the run that filled it, which changes no figure).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import secrets
import shutil
import statistics
import time
from urllib.parse import urlencode

from support import (
    deployed_redis,
    django_setup,
    emit,
    skip,
    start_gunicorn,
    throwaway_database,
)  # fmt: skip

SECRET_KEY = os.environ["SECRET_KEY"] = "bench-" + secrets.token_hex(32)
CHAIN_KEY = os.environ["CHAIN_KEY"] = secrets.token_hex(32)
# The fill's own games are played in this process: mail held, tasks run here.
os.environ.pop("REDIS_URL", None)
django_setup()

import scale_fill  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from accounts import tokens  # noqa: E402
from accounts.models import User  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.stream import store  # noqa: E402
from games.stream.derived import engine_for  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8934"))
TARGET_RATIO = 1.3
ACTIVE_SHARE = 50  # one active game for every fifty finished
TABLE_SHARE = 20  # one open table for every twenty active games
# Disk per game of the realistic mix, indexes included, at 10 000 games:
# what a size is checked against until the first size shows its own.
BYTES_PER_GAME = 131_000


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


class Http:
    """One keep-alive connection to the server, as a script holds one."""

    def __init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)

    def call(self, method: str, path: str, headers: dict[str, str], body: bytes | None = None):
        started = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        return response.status, data, (time.perf_counter() - started) * 1000


def figures(name: str, took: list[float], size: int, results: dict) -> None:
    took = sorted(took)
    median, p90 = statistics.median(took), took[int(len(took) * 0.9)]
    results.setdefault(name, {})[size] = median
    emit(f"{name}.{size}.median", median, "ms", requests=len(took), games=size)
    emit(f"{name}.{size}.p90", p90, "ms", requests=len(took), games=size)


def players_to_act(count: int, rng: random.Random) -> list[tuple[Game, Seat]]:
    """`count` active games, each with a seat to act, drawn at random."""
    ids = list(Game.objects.filter(status="active").values_list("pk", flat=True))
    chosen = rng.sample(ids, min(count, len(ids)))
    seats = Seat.objects.filter(game_id__in=chosen, to_act=True).select_related("game", "user")
    found: dict[int, Seat] = {}
    for seat in seats:
        found.setdefault(seat.game_id, seat)
    return [(seat.game, seat) for seat in found.values()]


def measure(size: int, requests: int, busy: User, results: dict) -> None:
    rng = random.Random(size)
    pairs = players_to_act(requests * 2 + 10, rng)
    keys: dict[int, str] = {}

    def auth(user) -> dict[str, str]:
        if user.pk not in keys:
            keys[user.pk] = tokens.issue(user, "bench")[1]
        return {"Authorization": f"Token {keys[user.pk]}", "Content-Type": "application/json"}

    http = Http()
    # Warm the worker's code on games the figures do not use.
    for game, seat in pairs[-10:]:
        http.call("GET", f"/api/games/{game.pk}/", auth(seat.user))
    moves, reads = [], []
    for game, seat in pairs[: requests * 2 : 2]:
        engine = engine_for(game)
        state = store.load(game, engine).state
        action = rng.choice(engine.legal_actions(state, seat.index))
        body = json.dumps({"seq": game.seq, "action": action}).encode()
        status, data, ms = http.call("POST", f"/api/games/{game.pk}/actions/", auth(seat.user),
                                     body)  # fmt: skip
        if status != 201:
            raise RuntimeError(f"move in game {game.pk}: {status} {data[:300]!r}")
        moves.append(ms)
    for game, seat in pairs[1 : requests * 2 : 2]:
        status, data, ms = http.call("GET", f"/api/games/{game.pk}/", auth(seat.user))
        if status != 200:
            raise RuntimeError(f"game {game.pk}: {status}")
        reads.append(ms)
    figures("scale.move", moves, size, results)
    figures("scale.game", reads, size, results)

    browser = Client()
    browser.force_login(busy)
    cookie = {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}
    pages = {
        "scale.dashboard": "/",
        "scale.lobby": "/tables/",
        "scale.archive.title": "/games/archive/?" + urlencode({"title": "havana"}),
        "scale.archive.player": "/games/archive/?" + urlencode({"player": busy.username}),
        "scale.archive.active": "/games/archive/?" + urlencode({"status": "active"}),
    }
    api = {
        "scale.api_list": "/api/games/",
        "scale.api_list.title": "/api/games/?" + urlencode({"title": "havana",
                                                            "status": "finished"}),
    }  # fmt: skip
    headers = dict.fromkeys(pages.values(), cookie)
    headers.update({path: auth(busy) for path in api.values()})
    for name, path in {**pages, **api}.items():
        took = []
        for n in range(requests + 1):
            status, data, ms = http.call("GET", path, headers[path])
            if status != 200:
                raise RuntimeError(f"{path}: {status}")
            if n:  # the first: the worker's first sight of that page
                took.append(ms)
        figures(name, took, size, results)

    from games.jobs import sweep
    from notifications import delivery

    figures("scale.clock_sweep", [timed(sweep.sweep) for _ in range(10)], size, results)
    figures("scale.outbox_sweep", [timed(delivery.sweep) for _ in range(10)], size, results)


def open_tables(count: int, rng: random.Random) -> None:
    """Open tables waiting for players, each by a player of the pool."""
    from games.services.tables import do_create_table

    hosts = list(User.objects.filter(username__startswith="p").order_by("?")[:count])
    titles = [("havana", 2, 4), ("pointcity", 2, 4), ("estates", 2, 4), ("18cuba", 2, 4)]
    for host in hosts:
        title, least, most = rng.choice(titles)
        do_create_table(host, title=title, least=least, most=most, options={}, clock=None,
                        public=True, open=True, seat_order="random",
                        spectator_delay=0)  # fmt: skip


def warm_running_games() -> None:
    """Read the running games' rows once, as a live site keeps them in memory
    by playing them: without it, what the first request of each game costs
    at a million games (51 GB on a machine of 24) is the disk's reads."""
    # Each a column of the rows, so that the rows are read and not only an
    # index that counts them.
    read = {"games_event": "payload", "games_snapshot": "state", "games_seat": "reminded",
            "notifications_notification": "context::text"}  # fmt: skip
    with connection.cursor() as cursor:
        for table, column in read.items():
            cursor.execute(f"SELECT sum(length(t.{column})) FROM {table} t JOIN games_game g "
                           f"ON g.id = t.game_id WHERE g.status = 'active'")  # fmt: skip


def serve_and_measure(size: int, requests: int, redis_url: str, results: dict) -> None:
    warm_running_games()
    server = start_gunicorn(PORT, secret_key=SECRET_KEY, REDIS_URL=redis_url,
                            CHAIN_KEY=CHAIN_KEY, WEB_WORKERS="1")  # fmt: skip
    try:
        measure(size, requests, User.objects.get(username=scale_fill.BUSY_NAME), results)
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def kept(size: int):
    """A database an earlier `--keep` left, migrated to this checkout's schema."""
    from django.core.management import call_command

    original = connection.settings_dict["NAME"]
    connection.close()
    settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = (
        f"correo_scale_{size}"
    )
    try:
        call_command("migrate", verbosity=0)
        yield
    finally:
        connection.close()
        settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = original


def _exists(name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=os.environ.get("BENCH_SCALE_SIZES", "10000,1000000"))
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--mix", choices=sorted(scale_fill.MIXES), default="realistic")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    if connection.vendor != "postgresql":
        skip("measures PostgreSQL as deployed; set DATABASE_URL")
    results: dict[str, dict[int, float]] = {}
    templates = None
    per_game = BYTES_PER_GAME
    with deployed_redis(13) as redis_url:
        for n, size in enumerate(sizes):
            keep = args.keep and n == len(sizes) - 1
            if args.reuse and _exists(f"correo_scale_{size}"):
                with kept(size):
                    scale_fill.refresh_clocks()
                    serve_and_measure(size, args.requests, redis_url, results)
                continue
            need = size * per_game
            free = shutil.disk_usage(_data_directory()).free
            if need > free * 0.9:
                emit(f"scale.skipped.{size}", need / 1e9, "GB", free_gb=round(free / 1e9, 1))
                continue
            with throwaway_database(name=f"correo_scale_{size}", keep=keep):
                started = time.perf_counter()
                written = scale_fill.fill(size, size // ACTIVE_SHARE, templates=templates,
                                          mix=scale_fill.MIXES[args.mix],
                                          log=lambda line: print(line, flush=True))  # fmt: skip
                templates = written.pop("templates")
                # At least two of the lobby's pages, so both sizes show full ones.
                open_tables(max(50, size // ACTIVE_SHARE // TABLE_SHARE), random.Random(size))
                stored = _database_bytes()
                per_game = stored / (size + size // ACTIVE_SHARE)
                emit(f"scale.fill.{size}", time.perf_counter() - started, "s", **written,
                     mix=args.mix, database_gb=round(stored / 1e9, 2),
                     bytes_per_game=round(per_game))  # fmt: skip
                serve_and_measure(size, args.requests, redis_url, results)
    first = sizes[0]
    for name, by_size in results.items():
        last = max(by_size)
        if last != first and first in by_size:
            ratio = by_size[last] / by_size[first]
            emit(f"{name}.ratio", ratio, "x", sizes=[first, last], target=TARGET_RATIO,
                 met=ratio <= TARGET_RATIO)  # fmt: skip


def _data_directory() -> str:
    with connection.cursor() as cursor:
        try:
            cursor.execute("SHOW data_directory")  # needs a superuser
            return cursor.fetchone()[0]
        except Exception:
            return "/"


def _database_bytes() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        return cursor.fetchone()[0]


if __name__ == "__main__":
    main()
