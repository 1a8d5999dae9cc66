"""API benchmark: 16 concurrent clients against gunicorn on PostgreSQL.

Reports requests per second and p50/p99 latency for a trivial JSON view (the
stack's ceiling), game detail and submitting a move, all in one run.  Uses
a throwaway database next to DATABASE_URL's (PostgreSQL by default).
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import statistics
import subprocess
import threading
import time

from support import ROOT, django_setup, emit, throwaway_database

django_setup()

from django.conf import settings  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from accounts.models import User  # noqa: E402
from games import service, store  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Game  # noqa: E402

CLIENTS = 16
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
PORT = int(os.environ.get("BENCH_PORT", "8931"))
WORKERS = int(os.environ.get("BENCH_WEB_WORKERS", "2"))


def database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def start_gunicorn() -> subprocess.Popen:
    # As deployed (DEBUG off: no query log), with throttles out of the way.
    env = dict(os.environ, DATABASE_URL=database_url(), DJANGO_DEBUG="0",
               SECRET_KEY="bench-" + secrets.token_hex(32), THROTTLE_USER="1000000/min",
               THROTTLE_ANON="1000000/min", LOG_LEVEL="WARNING")  # fmt: skip
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{PORT}",
         "--workers", str(WORKERS), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    for _ in range(100):
        try:
            request("GET", "/api/ping/")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def request(method, path, token=None, body=None, conn=None):
    conn = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(
        method, path, body=json.dumps(body) if body is not None else None, headers=headers
    )
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


def hammer(name: str, work) -> None:
    """Run `work(i, conn)` (returns the seconds to count, or None) from CLIENTS threads."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    deadline = time.perf_counter() + SECONDS

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        while time.perf_counter() < deadline:
            try:
                took = work(i, conn)
            except Exception:
                errors[0] += 1
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
                continue
            if took is not None:
                with lock:
                    latencies.append(took)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    context = {"clients": CLIENTS, "web_workers": WORKERS, "errors": errors[0]}
    emit(f"api.{name}.rps", len(latencies) / elapsed, "req/s", **context)
    emit(f"api.{name}.p50", statistics.median(latencies) * 1000, "ms", **context)
    emit(f"api.{name}.p99", latencies[int(len(latencies) * 0.99)] * 1000, "ms", **context)


def timed(method, path, token=None, body=None, conn=None, expect=(200, 201)):
    started = time.perf_counter()
    status, data = request(method, path, token, body, conn)
    took = time.perf_counter() - started
    if status not in expect:
        raise RuntimeError(f"{method} {path}: {status} {data}")
    return took, data


def main() -> None:
    with throwaway_database():
        games = []
        for i in range(CLIENTS):
            players = [User.objects.create(username=f"p{i}{side}") for side in "ab"]
            tokens = [Token.objects.create(user=u).key for u in players]
            game = service.create_game(title="havana", players=players, seed=i)
            games.append((game.pk, tokens))
        server = start_gunicorn()
        try:
            hammer("trivial", lambda i, conn: timed("GET", "/api/ping/", conn=conn)[0])
            hammer("game_detail", lambda i, conn: timed(
                "GET", f"/api/games/{games[i][0]}/", games[i][1][0], conn=conn)[0])  # fmt: skip

            # Each client plays its own game and follows it with the engine
            # locally, so only the POSTs are timed and counted.
            engine = base.get("havana")
            local = {i: [store.load(Game.objects.get(pk=g), engine).state, 1]
                     for i, (g, _) in enumerate(games)}  # fmt: skip

            def move(i, conn):
                game_id, tokens = games[i]
                state, seq = local[i]
                if engine.result(state) is not None:
                    return None
                seat = min(engine.to_act(state))
                action = engine.legal_actions(state, seat)[-1]
                body = {"seq": seq, "action": action}
                took, answer = timed("POST", f"/api/games/{game_id}/actions/", tokens[seat], body,
                                     conn)  # fmt: skip
                local[i] = [engine.apply(state, seat, action), answer["seq"]]
                return took

            hammer("move", move)
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
