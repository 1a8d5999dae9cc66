"""`manage.py verify_games` speed: the release gate replays every game.

BENCH_VERIFY_GAMES (default 1 000) three-player Havana games of 200 events
each (random legal moves; written in bulk exactly as the service chains and
snapshots them), then `games.audit.sweep.checked()` over all of them,
as the command runs it, in this process pinned to one core.  Prints games
and events per second, and what 10 000 games of 200 events would take at
that rate (target: under a minute), with the spread over BENCH_VERIFY_RUNS
runs.  Then the same with `--jobs` for each core the machine has (the
speed-up per core), and an incremental run after a tenth of the games took
one more move (only those are checked again).  Needs PostgreSQL (the
deployed database).
"""

from __future__ import annotations

import os
import random
import statistics
import time

from support import django_setup, emit, throwaway_database

django_setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.models import User  # noqa: E402
from games.audit import sweep  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Event, Game, Snapshot  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.stream import chain, spectators, store  # noqa: E402
from games.stream.derived import derived_fields  # noqa: E402

GAMES = int(os.environ.get("BENCH_VERIFY_GAMES", "1000"))
EVENTS = 200
RUNS = int(os.environ.get("BENCH_VERIFY_RUNS", "3"))
TARGET_GAMES, TARGET_SECONDS = 10_000, 60
HAVANA = base.get("havana")


def build(game: Game, rng: random.Random, until: int = EVENTS) -> None:
    """Random legal moves up to seq `until` (or the game's end), chained and
    snapshotted as the service writes them, in bulk."""
    state = store.load(game, HAVANA).state
    head_hash, seq = game.head_hash, game.seq
    rows, snapshots = [], []
    while seq < until and HAVANA.result(state) is None:
        seat = min(HAVANA.to_act(state))
        action = rng.choice(HAVANA.legal_actions(state, seat))
        payload = {"action": action}
        state = HAVANA.apply(state, seat, action)
        seq += 1
        event = Event(game=game, seq=seq, kind="action", seat=seat, source="system",
                      payload=payload, created_at=game.created_at)  # fmt: skip
        chain.link(event, head_hash, game.chain_version)
        head_hash = event.hash
        rows.append(event)
        if store.snapshot_due(seq):
            snapshots.append(Snapshot(game=game, seq=seq, engine_version=HAVANA.VERSION,
                                      event_hash=head_hash, state=state))  # fmt: skip
    Event.objects.bulk_create(rows, batch_size=1000)
    # The service prunes as it goes (store.save_snapshot): only the newest
    # CORREO_SNAPSHOTS_KEPT survive, and only those does a verification read.
    kept = settings.CORREO_SNAPSHOT_EVERY * settings.CORREO_SNAPSHOTS_KEPT
    Snapshot.objects.bulk_create([s for s in snapshots if s.seq > seq - kept])
    # Where the spectators stand, as the service keeps it (no delay: the head).
    spectator_seq, spectator_at = spectators.walked(game.events.order_by("seq"), 0)
    Game.objects.filter(pk=game.pk).update(seq=seq, head_hash=head_hash,
                                           spectator_seq=spectator_seq, spectator_at=spectator_at,
                                           **derived_fields(HAVANA, state))  # fmt: skip
    flags = derived_fields(HAVANA, state)["to_act"]
    game.seats.update(to_act=False)
    game.seats.filter(index__in=flags).update(to_act=True)


def main() -> None:
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cores[0]})
    with throwaway_database(needs_postgresql=True):
        users = [User.objects.create(username=f"bench{i}") for i in range(3)]
        rng = random.Random(7)
        for i in range(GAMES):
            build(do_create_game(title="havana", players=users, seed=i), rng)
        events = Event.objects.count()
        seconds = []
        for _ in range(RUNS):
            started = time.perf_counter()
            problems = [c for c in sweep.checked() if c.problems]
            seconds.append(time.perf_counter() - started)
            if problems:
                raise RuntimeError(f"verify_games found problems: {problems[:3]}")
        median = statistics.median(seconds)
        context = {"games": GAMES, "events": events, "runs": RUNS, "cores": 1,
                   "spread": [round(s, 2) for s in sorted(seconds)],
                   "database": connection.vendor}  # fmt: skip
        emit("verify.games_per_second", GAMES / median, "games/s", **context)
        emit("verify.events_per_second", events / median, "events/s", **context)
        projected = TARGET_GAMES * EVENTS / (events / median)
        emit("verify.projected_seconds_10000_games", projected, "s", target=TARGET_SECONDS,
             met=projected < TARGET_SECONDS, events_per_game=EVENTS, **context)  # fmt: skip
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(cores))
        for jobs in range(2, len(cores) + 1):
            timed = [_seconds(lambda jobs=jobs: list(sweep.checked(jobs=jobs)))
                     for _ in range(RUNS)]  # fmt: skip
            emit(f"verify.speedup_{jobs}_jobs", median / statistics.median(timed), "x",
                 cores=jobs, per_core=round(median / statistics.median(timed) / jobs, 2),
                 spread=[round(s, 2) for s in sorted(timed)], games=GAMES)  # fmt: skip
        _incremental(rng)


def _seconds(run) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def _incremental(rng: random.Random) -> None:
    """A first incremental run remembers every head; then a tenth of the
    games take a move each, and the next incremental run checks only them."""
    clean = [c for c in sweep.checked(incremental=True) if not c.problems]
    sweep.remember(clean)
    moved = list(Game.objects.order_by("pk")[: max(1, GAMES // 10)])
    for game in moved:
        build(game, rng, until=game.seq + 1)  # a finished game takes none
    changed = sum(Game.objects.get(pk=g.pk).seq > g.seq for g in moved)
    seconds = []
    for _ in range(RUNS):
        started = time.perf_counter()
        found = list(sweep.checked(incremental=True))
        seconds.append(time.perf_counter() - started)
    emit(
        "verify.incremental_seconds",
        statistics.median(seconds),
        "s",
        games=GAMES,
        changed=changed,
        checked=len(found),
        spread=[round(s, 2) for s in sorted(seconds)],
    )


if __name__ == "__main__":
    main()
