"""Load test of the real stack: gunicorn + a Celery worker on Redis + PostgreSQL,
outbound mail to an SMTP sink.  `make loadtest`.

GAMES concurrent games of Havana with two players each (2 x GAMES players); an
asyncio client runs one loop per player: read the game (GET detail), and when
it is that player's turn, list the legal actions and post one; a player who
is not to act reads again after POLL seconds.  A move makes
the worker send "your turn" mail, so the outbox is loaded as in real play.
Each run has two phases of SECONDS each, in this order: a trivial view
(GET /api/ping/, no database) with the same concurrency, then the game mix.
The whole thing runs once with 1 and once with 2 gunicorn workers.

Prints bench JSON lines (`loadtest.<phase>.<measure>`): requests per second,
p50 and p99 latency (for the game phase also per kind: read, actions, move),
errors, moves per second, and the notification backlog (outbox rows still
pending or sending) when the load stops and 10 s later.

Environment: LOADTEST_GAMES (16), LOADTEST_SECONDS (15), LOADTEST_WORKERS
("1,2"), LOADTEST_POLL (0.2), LOADTEST_REDIS_DB (14), DATABASE_URL (the
PostgreSQL server; a throwaway database is created next to it).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from support import ROOT, django_setup, emit, throwaway_database

# This process only sets up games; the mail their creation causes goes nowhere.
os.environ.update(LOG_LEVEL="WARNING", EMAIL_URL="memorymail://")
os.environ.pop("REDIS_URL", None)
django_setup()

from django.conf import settings  # noqa: E402

from accounts import tokens as api_tokens  # noqa: E402
from accounts.models import User  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from notifications.models import Notification  # noqa: E402

GAMES = int(os.environ.get("LOADTEST_GAMES", "16"))
SECONDS = float(os.environ.get("LOADTEST_SECONDS", "15"))
WORKER_COUNTS = [int(n) for n in os.environ.get("LOADTEST_WORKERS", "1,2").split(",")]
REDIS_DB = int(os.environ.get("LOADTEST_REDIS_DB", "14"))
# How often a player who is not to act reads the game again (seconds).
POLL = float(os.environ.get("LOADTEST_POLL", "0.2"))
TITLE = "havana"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Stack:
    """gunicorn (N workers), a Celery worker and an SMTP sink, stopped on exit."""

    def __init__(self, web_workers: int) -> None:
        self.web_workers = web_workers
        self.port = free_port()
        self.folder = tempfile.TemporaryDirectory(prefix="correo-loadtest-")
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> Stack:
        folder = Path(self.folder.name)
        (folder / "metrics").mkdir()
        sink_port = free_port()
        env = dict(
            os.environ,
            DATABASE_URL=database_url(),
            REDIS_URL=f"redis://127.0.0.1:6379/{REDIS_DB}",
            DJANGO_DEBUG="0",
            SECRET_KEY="loadtest-" + "x" * 50,
            CHAIN_KEY="loadtest-" + "y" * 50,
            EMAIL_URL=f"smtp://127.0.0.1:{sink_port}",
            THROTTLE_USER="100000000/min",
            THROTTLE_ANON="100000000/min",
            LOG_LEVEL="WARNING",
            PORT=str(self.port),
            WEB_WORKERS=str(self.web_workers),
            PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
        )
        bin_ = ROOT / ".venv/bin"
        mail = str(folder / "mail")
        commands = [
            [str(bin_ / "python"), "deploy/smoke/sink.py", "--port", str(sink_port),
             "--dir", mail],
            [str(bin_ / "gunicorn"), "config.wsgi", "--config", "deploy/gunicorn.conf.py"],
            [str(bin_ / "celery"), "-A", "config", "worker", "--loglevel", "WARNING",
             "--concurrency", os.environ.get("LOADTEST_CELERY_CONCURRENCY", "1")],
        ]  # fmt: skip
        self.log = open(folder / "stderr.log", "ab")  # closed in __exit__
        for command in commands:
            self.processes.append(
                subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=self.log
                )
            )
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/ping/", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError("gunicorn did not start: " + (folder / "stderr.log").read_text())

    def __exit__(self, *exc) -> None:
        for process in reversed(self.processes):
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.log.close()
        self.folder.cleanup()


async def http(port: int, method: str, path: str, token: str | None = None, body=None):
    """One request on a new connection (gunicorn's sync workers close after each)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        payload = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
                "Accept: application/json", f"Content-Length: {len(payload)}"]  # fmt: skip
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Token {token}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    header, _, content = raw.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    return status, json.loads(content) if content else None


class Recorder:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.by_kind: dict[str, list[float]] = {}
        self.errors = 0
        self.moves = 0
        self.conflicts = 0

    async def call(self, port, method, path, token=None, body=None, expect=(200, 201)):
        started = time.perf_counter()
        try:
            status, data = await http(port, method, path, token, body)
        except (OSError, ValueError, IndexError):
            self.errors += 1
            return None, None
        took = time.perf_counter() - started
        self.latencies.append(took)
        kind = "move" if method == "POST" else "actions" if path.endswith("/actions/") else "read"
        self.by_kind.setdefault(kind, []).append(took)
        if status == 409:
            self.conflicts += 1
        elif status not in expect:
            self.errors += 1
        return status, data

    def report(self, phase: str, elapsed: float, **context) -> None:
        count = len(self.latencies)
        # The machine's load when the phase ended: other work skews the figures.
        context = {**context, "errors": self.errors, "loadavg_1m": os.getloadavg()[0]}
        emit(f"loadtest.{phase}.rps", count / elapsed, "req/s", **context)
        groups = {"": self.latencies}
        if len(self.by_kind) > 1:
            groups.update((f".{kind}", values) for kind, values in sorted(self.by_kind.items()))
        for suffix, values in groups.items():
            values.sort()
            if values:
                p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
                extra = {"requests": len(values), **context}
                emit(
                    f"loadtest.{phase}{suffix}.p50",
                    statistics.median(values) * 1000,
                    "ms",
                    **extra,
                )
                emit(f"loadtest.{phase}{suffix}.p99", p99 * 1000, "ms", **extra)
        emit(f"loadtest.{phase}.errors", self.errors, "requests", **context)


async def trivial_phase(port: int, clients: int) -> tuple[Recorder, float]:
    recorder = Recorder()
    deadline = time.perf_counter() + SECONDS

    async def client() -> None:
        while time.perf_counter() < deadline:
            await recorder.call(port, "GET", "/api/ping/")

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return recorder, time.perf_counter() - started


async def game_phase(port: int, games: list) -> tuple[Recorder, float]:
    recorder = Recorder()
    deadline = time.perf_counter() + SECONDS

    async def player(game_id: int, seat: int, tokens: list[str], rng: random.Random) -> None:
        token = tokens[seat]
        while time.perf_counter() < deadline:
            status, detail = await recorder.call(port, "GET", f"/api/games/{game_id}/", token)
            if status != 200:
                continue
            if detail["status"] != "active":
                return
            if seat not in detail["to_act"]:
                await asyncio.sleep(POLL)  # the other player is thinking
                continue
            status, listed = await recorder.call(
                port, "GET", f"/api/games/{game_id}/actions/", token
            )
            if status != 200 or not listed["actions"]:
                continue
            action = rng.choice(listed["actions"])["action"]
            body = {"seq": listed["seq"], "action": action}
            status, _ = await recorder.call(
                port, "POST", f"/api/games/{game_id}/actions/", token, body
            )
            if status == 201:
                recorder.moves += 1

    started = time.perf_counter()
    rng = random.Random(1)
    await asyncio.gather(
        *(
            player(game_id, seat, tokens, random.Random(rng.random()))
            for game_id, tokens in games
            for seat in range(len(tokens))
        )
    )
    return recorder, time.perf_counter() - started


def backlog() -> int:
    return Notification.objects.filter(status__in=("pending", "sending")).count()


def new_games(run: int) -> list[tuple[int, list[str]]]:
    games = []
    for i in range(GAMES):
        players = [
            User.objects.create(username=f"lt{run}g{i}{side}", email=f"lt{run}g{i}{side}@lt.test")
            for side in "ab"
        ]
        tokens = [api_tokens.issue(user)[1] for user in players]
        game = do_create_game(title=TITLE, players=players, seed=1000 * run + i)
        games.append((game.pk, tokens))
    return games


def main() -> None:
    import redis

    redis.Redis.from_url(f"redis://127.0.0.1:6379/{REDIS_DB}").flushdb()
    with throwaway_database():
        for run, workers in enumerate(WORKER_COUNTS):
            games = new_games(run)
            Notification.objects.filter(status__in=("pending", "sending")).update(status="skipped")
            context = {"web_workers": workers, "games": GAMES, "players": 2 * GAMES,
                       "seconds": SECONDS, "cores": os.cpu_count()}  # fmt: skip
            with Stack(workers) as stack:
                recorder, elapsed = asyncio.run(trivial_phase(stack.port, 2 * GAMES))
                recorder.report("trivial", elapsed, **context)
                recorder, elapsed = asyncio.run(game_phase(stack.port, games))
                recorder.report("game", elapsed, **context)
                emit("loadtest.game.moves", recorder.moves / elapsed, "moves/s",
                     conflicts=recorder.conflicts, **context)  # fmt: skip
                emit("loadtest.backlog.at_stop", backlog(), "notifications", **context)
                time.sleep(10)
                emit("loadtest.backlog.after_10s", backlog(), "notifications", **context)
    redis.Redis.from_url(f"redis://127.0.0.1:6379/{REDIS_DB}").flushdb()


if __name__ == "__main__":
    sys.exit(main())
