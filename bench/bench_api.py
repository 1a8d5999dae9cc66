"""API benchmark: concurrent clients against gunicorn as deployed.

The stack is the one players use: PostgreSQL, Redis as broker, cache and
throttle store, and mail on (every player has an address, so a move writes
its notification rows and hands them off to the workers,
notifications.handoff).  A Celery worker as deployed runs beside gunicorn
and makes the publish of each row's delivery, on the same two cores; it
consumes no queue the mail goes to, so the publish is what is counted, not
the sending.

Reports requests per second and p50/p99 latency for a trivial JSON view (the
stack's ceiling), game detail, submitting a move, a durable write floor
(bench/floor: a move's authentication, one read and one committed
transaction, without the game), and a mixed load where half the clients
move while the other half read the same games (so a read does not find the
view of its head already cached), each one's throughput as a share of the
trivial view's beside its target.  The kinds take turns for BENCH_ROUNDS
rounds of BENCH_SECONDS each and the median round counts, so that a busy
moment of a shared machine does not decide a ratio.  Last, one client alone
times a move of each title (Havana, Point City, The Estates, 18Cuba; 2
players; BENCH_SINGLE moves of each, over as many games as that takes)
beside the trivial view and one committed INSERT made a few milliseconds
after its connection's last statement (as a request meets its commit), and
prints the move's median as a multiple of the two together.  Uses a
throwaway database next to DATABASE_URL's and its own Redis database.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import statistics
import threading
import time

import psycopg
import support
from support import deployed_redis, django_setup, emit, throwaway_database

django_setup()

from accounts import tokens as api_tokens  # noqa: E402
from accounts.models import User  # noqa: E402
from bench.floor import urls as floor_urls  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Game  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.stream import store  # noqa: E402

CLIENTS = 16
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
ROUND = float(os.environ.get("BENCH_SECONDS", "4"))
PORT = int(os.environ.get("BENCH_PORT", "8931"))
WORKERS = int(os.environ.get("BENCH_WEB_WORKERS", "2"))
MOVES = 1000  # per game: more than the rounds can play here
# Throughput as a share of the trivial view's: a move may cost four trivial views.
TARGETS = {"game_detail": 50, "move": 25}
# One client: a move may cost at most twice the trivial view plus one
# committed INSERT (the least a durable acknowledgement over HTTP costs).
MOVE_VS_FLOOR = 2.0
SINGLE_TITLES = ("havana", "pointcity", "estates", "18cuba")
SINGLE = int(os.environ.get("BENCH_SINGLE", "300"))  # requests of each kind


def start_gunicorn(redis_url: str):
    # The floor's settings add its one endpoint to the deployed ones.
    return support.start_gunicorn(
        PORT, REDIS_URL=redis_url, CELERY_TASK_ALWAYS_EAGER="0", WEB_WORKERS=str(WORKERS),
        DJANGO_SETTINGS_MODULE="bench.floor.settings",
    )  # fmt: skip


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


def hammer(work) -> tuple[float, list[float], int, dict[str, list[float]]]:
    """Run `work(i, conn)` (returns the seconds to count, or None when it has
    nothing left to do) from CLIENTS threads for ROUND seconds; (rps,
    latencies, errors, latencies by label): a work that returns (label,
    seconds) has each label's latencies kept apart as well."""
    latencies: list[float] = []
    by_label: dict[str, list[float]] = {}
    errors = [0]
    lock = threading.Lock()
    deadline = time.perf_counter() + ROUND

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        while time.perf_counter() < deadline:
            try:
                took = work(i, conn)
            except Exception:
                errors[0] += 1
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
                continue
            if took is None:
                return
            with lock:
                if isinstance(took, tuple):
                    label, took = took
                    by_label.setdefault(label, []).append(took)
                latencies.append(took)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.perf_counter() - started), latencies, errors[0], by_label


def measure(works: dict) -> dict[str, float]:
    """Interleaved rounds (each kind once per round), so that a busy moment of
    the machine weighs on every kind alike; medians of the rounds' rates."""
    rates: dict[str, list[float]] = {name: [] for name in works}
    latencies: dict[str, list[float]] = {name: [] for name in works}
    errors = dict.fromkeys(works, 0)
    labelled: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        for name, work in works.items():
            rps, took, failed, by_label = hammer(work)
            rates[name].append(rps)
            latencies[name] += took
            errors[name] += failed
            for label, seconds in by_label.items():
                labelled.setdefault(f"{name}.{label}", []).extend(seconds)
    for label, seconds in sorted(labelled.items()):
        took = sorted(seconds)
        context = {"clients": CLIENTS, "web_workers": WORKERS, "rounds": ROUNDS}
        emit(f"api.{label}.p50", statistics.median(took) * 1000, "ms", **context)
        emit(f"api.{label}.p99", took[int(len(took) * 0.99)] * 1000, "ms", **context)
    medians = {}
    for name in works:
        context = {"clients": CLIENTS, "web_workers": WORKERS, "rounds": ROUNDS,
                   "errors": errors[name]}  # fmt: skip
        took = sorted(latencies[name])
        medians[name] = statistics.median(rates[name])
        per_round = [round(rate) for rate in rates[name]]
        emit(f"api.{name}.rps", medians[name], "req/s", per_round=per_round, **context)
        emit(f"api.{name}.p50", statistics.median(took) * 1000, "ms", **context)
        emit(f"api.{name}.p99", took[int(len(took) * 0.99)] * 1000, "ms", **context)
    return medians


def planned_moves(game_id: int, count: int = MOVES) -> list[tuple[int, int, dict]]:
    """The game's next moves (seq expected, seat, action), worked out before
    the clock starts so the load generator spends no time in the engine."""
    game = Game.objects.get(pk=game_id)
    engine = base.get(game.title)
    state = store.load(game, engine).state
    moves = []
    for seq in range(game.seq, game.seq + count):
        if engine.result(state) is not None:
            break
        seat = min(engine.to_act(state))
        action = engine.legal_actions(state, seat)[-1]
        moves.append((seq, seat, action))
        state = engine.apply(state, seat, action)
    return moves


def start_forwarder(redis_url: str):
    """A Celery worker as deployed whose only work is its hand-off drain:
    it consumes a queue nothing is sent to, and publishes what the web
    processes hand off to the notification queue, which nobody consumes."""
    return support.start_worker(
        redis_url, "bench-forward-only", DJANGO_DEBUG="0", CORREO_EMBEDDED_SWEEP="0",
        SECRET_KEY="bench-" + secrets.token_hex(32), CHAIN_KEY=secrets.token_hex(32),
    )  # fmt: skip


def timed(method, path, token=None, body=None, conn=None, expect=(200, 201)):
    started = time.perf_counter()
    status, data = request(method, path, token, body, conn)
    took = time.perf_counter() - started
    if status not in expect:
        raise RuntimeError(f"{method} {path}: {status} {data}")
    return took, data


def committed_insert(conn, pause: float) -> float:
    """One committed INSERT on a connection of its own, `pause` seconds after
    its last statement, as a request meets its commit (back to back the same
    INSERT is cheaper: the server and the socket are still warm)."""
    time.sleep(pause)
    started = time.perf_counter()
    with conn.cursor() as cursor:
        cursor.execute(f"INSERT INTO {floor_urls.TABLE} (game, body) VALUES (0, 'x')")
    conn.commit()
    return time.perf_counter() - started


def single_plays(title: str) -> list[tuple[int, str, int, dict]]:
    """SINGLE moves of `title` for the single client, each as (game id, the
    mover's token, seq, action): one 2-player game after another
    (seeds 5, 6, ...) between the same two players, since a game of Point
    City ends after some forty moves and the median of so few moved by
    tenths from run to run."""
    players = [
        User.objects.create(username=f"s{title}{side}", email=f"s{title}{side}@bench.invalid")
        for side in "ab"
    ]
    tokens = [api_tokens.issue(user)[1] for user in players]
    plays = []
    for seed in range(5, 5 + SINGLE):
        game = do_create_game(title=title, players=players, seed=seed)
        for seq, seat, action in planned_moves(game.pk, SINGLE - len(plays)):
            plays.append((game.pk, tokens[seat], seq, action))
        if len(plays) >= SINGLE:
            break
    return plays


def single_client(titles: dict[str, list[tuple[int, str, int, dict]]]) -> None:
    """One client, request by request: per title, a move beside the trivial
    view and one committed INSERT measured alone (what a durable
    acknowledgement cannot go below), and the move's cost as a multiple of
    the two together; the three kinds take turns, so a busy moment weighs on
    all alike."""
    from django.db import connection

    db = connection.settings_dict
    insert_conn = psycopg.connect(dbname=db["NAME"], user=db["USER"], host=db["HOST"],
                                  port=db["PORT"], password=db["PASSWORD"])  # fmt: skip
    http_conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    trivial: list[float] = []
    insert: list[float] = []
    moves: dict[str, list[float]] = {title: [] for title in titles}
    for _ in range(SINGLE):
        for title, plays in titles.items():
            if not plays:
                continue
            trivial.append(timed("GET", "/api/ping/", conn=http_conn)[0])
            insert.append(committed_insert(insert_conn, pause=0.005))
            game_id, token, seq, action = plays.pop(0)
            body = {"seq": seq, "action": action}
            path = f"/api/games/{game_id}/actions/"
            moves[title].append(timed("POST", path, token, body, http_conn)[0])
    insert_conn.close()
    floor = statistics.median(trivial) + statistics.median(insert)
    for name, seconds in (("trivial", trivial), ("insert", insert)):
        emit_spread(f"api.single.{name}", seconds)
    for title, seconds in moves.items():
        if not seconds:
            continue
        emit_spread(f"api.single.{title}.move", seconds)
        ratio = statistics.median(seconds) / floor
        emit(f"api.single.{title}.move_vs_trivial_plus_insert", ratio, "x",
             target=MOVE_VS_FLOOR, met=ratio <= MOVE_VS_FLOOR, moves=len(seconds))  # fmt: skip


def emit_handed_off(redis_url: str) -> None:
    """That the forwarder did the publishing: the hand-off list drained,
    the deliveries waiting in the queue nobody consumes here."""
    import redis

    from notifications import handoff, tasks

    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 10
    while client.llen(handoff.KEY) and time.monotonic() < deadline:
        time.sleep(0.1)
    emit("api.handoff.left", client.llen(handoff.KEY), "items")
    queue = tasks.queue_of(tasks.deliver) or "celery"  # Celery's default queue
    emit("api.handoff.published", client.llen(queue), "tasks")


def emit_spread(name: str, seconds: list[float]) -> None:
    ordered = sorted(seconds)
    emit(f"{name}.p50", statistics.median(ordered) * 1000, "ms", requests=len(ordered),
         p10=round(ordered[len(ordered) // 10] * 1000, 3),
         p90=round(ordered[len(ordered) * 9 // 10] * 1000, 3))  # fmt: skip


def main() -> None:
    with throwaway_database(needs_postgresql=True), deployed_redis() as redis_url:
        games = []
        for i in range(CLIENTS):
            players = [
                User.objects.create(username=f"p{i}{side}", email=f"p{i}{side}@bench.invalid")
                for side in "ab"
            ]
            tokens = [api_tokens.issue(u)[1] for u in players]
            game = do_create_game(title="havana", players=players, seed=i)
            games.append((game.pk, tokens))
        plays = {i: planned_moves(game_id) for i, (game_id, _) in enumerate(games)}
        singles = {title: single_plays(title) for title in SINGLE_TITLES}
        floor_urls.create_table()
        server = start_gunicorn(redis_url)
        forwarder = start_forwarder(redis_url)
        try:

            def trivial(i, conn):
                return timed("GET", "/api/ping/", conn=conn)[0]

            def game_detail(i, conn):
                game_id, tokens = games[i]
                return timed("GET", f"/api/games/{game_id}/", tokens[0], conn=conn)[0]

            def floor(i, conn):
                game_id, tokens = games[i]
                body = {"seq": 1, "action": {"type": "floor"}}
                return timed("POST", f"/bench/floor/{game_id}/", tokens[0], body, conn)[0]

            def move(i, conn):
                game_id, tokens = games[i]
                if not plays[i]:
                    return None
                seq, seat, action = plays[i][0]
                body = {"seq": seq, "action": action}
                took, _ = timed("POST", f"/api/games/{game_id}/actions/", tokens[seat], body,
                                conn)  # fmt: skip
                plays[i].pop(0)
                return took

            def mixed(i, conn):
                # The first half move in games 0..7; the second half read
                # those games as the other seat, while they change.
                half = CLIENTS // 2
                if i < half:
                    took = move(i, conn)
                    return None if took is None else ("move", took)
                game_id, tokens = games[i - half]
                return "detail", timed("GET", f"/api/games/{game_id}/", tokens[1], conn=conn)[0]

            kinds = {"trivial": trivial, "game_detail": game_detail, "floor": floor,
                     "move": move, "mixed": mixed}  # fmt: skip
            rates = measure(kinds)
            for name in ("game_detail", "floor", "move"):
                ratio = rates[name] / rates["trivial"] * 100
                target = TARGETS.get(name)
                met = {"target": target, "met": ratio >= target} if target else {}
                emit(f"api.{name}.vs_trivial", ratio, "%", **met)
            single_client(singles)
            emit_handed_off(redis_url)
        finally:
            for process in (server, forwarder):
                process.terminate()
                process.wait(timeout=20)


if __name__ == "__main__":
    main()
