"""Server push: how soon an open page hears of a move, and what 1,000 open
idle pages cost one web process.

    .venv/bin/python bench/bench_push.py [--moves N] [--idle N]

The stack as deployed: the web process (gunicorn, a sync worker) where the
moves are made and the push process (gunicorn with one uvicorn ASGI
worker) holding the streams, on a throwaway PostgreSQL database next to
DATABASE_URL's, Redis carrying the publish (a database of its own).  A
public game is played through the API by its two players while listeners
hold its stream (`/games/{id}/stream/`, server-sent events) open as a
visitor's page does:

- `push.latency_ms` p50 and p99: from sending a move to a listener reading
  the event that names its seq (targets: 300 ms p50, 1 s p99);
- `push.idle_rss_mb_per_1000`: the push worker's resident memory with `--idle`
  (1,000) more streams open on another game, less without them, per 1,000;
- `push.idle_cpu_ms_per_s`: the worker's CPU time per second while those
  streams stay open and nobody moves (target: none to speak of; a comment
  line every 25 s keeps each one open through proxies).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import threading
import time
from pathlib import Path

from support import deployed_redis, django_setup, emit, start_gunicorn, throwaway_database

django_setup()

from accounts import tokens as api_tokens  # noqa: E402
from accounts.models import User  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8937"))  # the push process
WEB_PORT = PORT + 1  # the web process, where the moves are made
TARGET_P50_MS, TARGET_P99_MS = 300, 1000


def open_stream(game_id: int) -> socket.socket:
    """A raw connection reading the game's stream, as a visitor's page holds it."""
    sock = socket.create_connection(("127.0.0.1", PORT), timeout=30)
    sock.sendall(
        f"GET /games/{game_id}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    return sock


def read_seqs(sock: socket.socket, arrivals: dict[int, float], stop: threading.Event) -> None:
    buffer = b""
    sock.settimeout(0.5)
    while not stop.is_set():
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            return
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    seq = json.loads(line[6:])["seq"]
                    arrivals.setdefault(seq, time.perf_counter())


def post(path: str, token: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", WEB_PORT, timeout=30)
    conn.request("POST", path, json.dumps(body), {"Authorization": f"Token {token}",
                                                  "Content-Type": "application/json"})  # fmt: skip
    response = conn.getresponse()
    data = json.loads(response.read() or b"null")
    conn.close()
    return data


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--idle", type=int, default=1000)
    args = parser.parse_args()
    with throwaway_database(needs_postgresql=True), deployed_redis() as redis_url:
        alice = User.objects.create_user("alice", password="x")
        bob = User.objects.create_user("bob", password="x")
        keys = {alice.pk: api_tokens.issue(alice, "bench")[1],
                bob.pk: api_tokens.issue(bob, "bench")[1]}  # fmt: skip
        game = do_create_game(title="havana", players=[alice, bob], seed=1)
        quiet = do_create_game(title="havana", players=[alice, bob], seed=2)
        secret = os.environ.get("BENCH_SECRET_KEY") or "bench-push-" + os.urandom(16).hex()
        web = start_gunicorn(WEB_PORT, REDIS_URL=redis_url, WEB_WORKERS="1",
                             CELERY_TASK_ALWAYS_EAGER="0", secret_key=secret)  # fmt: skip
        server = start_gunicorn(PORT, REDIS_URL=redis_url, WEB_WORKERS="1", push=True,
                                CELERY_TASK_ALWAYS_EAGER="0", secret_key=secret)  # fmt: skip
        stop = threading.Event()
        try:
            time.sleep(1.0)
            worker = worker_pid(server.pid)
            arrivals: dict[int, float] = {}
            listener = open_stream(game.pk)
            threading.Thread(
                target=read_seqs, args=(listener, arrivals, stop), daemon=True
            ).start()
            latencies = play(game, keys, arrivals, args.moves)
            emit("push.latency_ms.p50", statistics.median(latencies), "ms",
                 target=TARGET_P50_MS, moves=len(latencies))  # fmt: skip
            p99 = (
                statistics.quantiles(latencies, n=100)[98]
                if len(latencies) > 2
                else max(latencies)
            )
            emit("push.latency_ms.p99", p99, "ms", target=TARGET_P99_MS, moves=len(latencies))
            idle_cost(worker, quiet.pk, args.idle)
        finally:
            stop.set()
            for process in (server, web):
                process.terminate()
                process.wait(timeout=30)


def play(game, keys: dict[int, str], arrivals: dict[int, float], moves: int) -> list[float]:
    from games.stream import store
    from games.stream.derived import engine_for

    latencies = []
    for _ in range(moves):
        game.refresh_from_db()
        engine = engine_for(game)
        state = store.load(game, engine).state
        if engine.result(state) is not None:
            break
        seat = min(engine.to_act(state))
        action = engine.legal_actions(state, seat)[0]
        user = game.seats.get(index=seat).user_id
        sent = time.perf_counter()
        answer = post(f"/api/games/{game.pk}/actions/", keys[user],
                      {"seq": game.seq, "action": action})  # fmt: skip
        seq = answer["seq"]
        deadline = time.monotonic() + 5
        while seq not in arrivals and time.monotonic() < deadline:
            time.sleep(0.001)
        if seq in arrivals:
            latencies.append((arrivals[seq] - sent) * 1000)
    return latencies


def idle_cost(worker: int, game_id: int, count: int) -> None:
    before = rss_mb(worker)
    streams = [open_stream(game_id) for _ in range(count)]
    refused = 0
    for sock in streams:  # every stream answered (its first event read) and waiting
        received = b""
        while b"data: " not in received:
            chunk = sock.recv(65536)
            if not chunk:
                refused += 1
                break
            received += chunk
    if refused:
        raise SystemExit(f"{refused} of {count} streams were refused: {received[:200]!r}")
    time.sleep(1.0)
    after = rss_mb(worker)
    emit("push.idle_rss_mb_per_1000", (after - before) * 1000 / max(count, 1), "MB",
         streams=count, worker_rss_mb=round(after, 1))  # fmt: skip
    start, started = cpu_seconds(worker), time.monotonic()
    time.sleep(10.0)
    used = cpu_seconds(worker) - start
    emit("push.idle_cpu_ms_per_s", used * 1000 / (time.monotonic() - started), "ms/s",
         streams=count)  # fmt: skip
    for sock in streams:
        sock.close()


if __name__ == "__main__":
    main()
