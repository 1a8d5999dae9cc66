"""`manage.py verify_games` speed: the release gate replays every game.

BENCH_VERIFY_GAMES (default 1 000) three-player Havana games of 200 events
each (random legal moves; written in bulk exactly as the service chains and
snapshots them), then `games.audit.verification.all_problems()` over all of them,
as the command runs it, in this process pinned to one core.  Prints games
and events per second, and what 10 000 games of 200 events would take at
that rate (target: under a minute), with the spread over BENCH_VERIFY_RUNS
runs.  Needs PostgreSQL (the deployed database).
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
from games.audit.verification import all_problems  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Event, Game, Snapshot  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.stream import chain, store  # noqa: E402
from games.stream.derived import derived_fields  # noqa: E402

GAMES = int(os.environ.get("BENCH_VERIFY_GAMES", "1000"))
EVENTS = 200
RUNS = int(os.environ.get("BENCH_VERIFY_RUNS", "3"))
TARGET_GAMES, TARGET_SECONDS = 10_000, 60
HAVANA = base.get("havana")


def build(game: Game, rng: random.Random) -> None:
    """Random legal moves up to EVENTS (or the game's end), chained and
    snapshotted as the service writes them, in bulk."""
    state = store.load(game, HAVANA).state
    head_hash, seq = game.head_hash, game.seq
    rows, snapshots = [], []
    while seq < EVENTS and HAVANA.result(state) is None:
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
    Game.objects.filter(pk=game.pk).update(seq=seq, head_hash=head_hash,
                                           **derived_fields(HAVANA, state))  # fmt: skip
    flags = derived_fields(HAVANA, state)["to_act"]
    game.seats.update(to_act=False)
    game.seats.filter(index__in=flags).update(to_act=True)


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    with throwaway_database(needs_postgresql=True):
        users = [User.objects.create(username=f"bench{i}") for i in range(3)]
        rng = random.Random(7)
        for i in range(GAMES):
            build(do_create_game(title="havana", players=users, seed=i), rng)
        events = Event.objects.count()
        seconds = []
        for _ in range(RUNS):
            started = time.perf_counter()
            problems = list(all_problems())
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


if __name__ == "__main__":
    main()
