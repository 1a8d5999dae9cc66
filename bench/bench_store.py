"""Event-store benchmarks: load time by stream length, concurrent appends.

Runs against DATABASE_URL (PostgreSQL for meaningful figures) in a throwaway
test database.  Prints one JSON object per line.
"""

from __future__ import annotations

import statistics
import threading
import time

from support import django_setup, emit, throwaway_database

django_setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.models import User  # noqa: E402
from games import chain, store  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Event, Game, Snapshot  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.services.moves import check_submit_action  # noqa: E402
from tests.support.duel import DUEL  # noqa: E402


def build_stream(game: Game, events: int) -> None:
    """Append `events` moves quickly: engine in memory, rows in bulk, chained
    and snapshotted exactly as the service would."""
    state = store.load(game, DUEL).state
    head_hash, seq = game.head_hash, game.seq
    rows, snapshots = [], []
    while seq < events:
        seat = min(DUEL.to_act(state))
        action = DUEL.legal_actions(state, seat)[0]
        state = DUEL.apply(state, seat, action)
        seq += 1
        event = Event(
            game=game, seq=seq, kind="action", seat=seat, source="system",
            payload={"action": action}, created_at=game.created_at,
        )  # fmt: skip
        chain.link(event, head_hash, game.chain_version)
        head_hash = event.hash
        rows.append(event)
        if store.snapshot_due(seq):
            snapshots.append(
                Snapshot(game=game, seq=seq, engine_version=1, event_hash=head_hash, state=state)
            )
    Event.objects.bulk_create(rows, batch_size=1000)
    Snapshot.objects.bulk_create(snapshots)
    Game.objects.filter(pk=game.pk).update(seq=seq, head_hash=head_hash)
    game.refresh_from_db()


def bench_load(users) -> None:
    for length in (10, 1_000, 10_000):
        game = do_create_game(title="duel", players=users, options={"rounds": 10_000}, seed=1)
        build_stream(game, length)
        times = []
        for _ in range(30):
            started = time.perf_counter()
            # A process that holds no state of the game: snapshot + live events.
            store.load(game, DUEL, memo=False)
            times.append(time.perf_counter() - started)
        median_ms = statistics.median(times) * 1000
        every = settings.CORREO_SNAPSHOT_EVERY
        emit("store.load_median", median_ms, "ms", events=length, snapshot_every=every,
             database=connection.vendor)  # fmt: skip


def bench_appends(users, writers: int = 4, seconds: float = 5.0) -> None:
    games = [
        do_create_game(title="duel", players=users, options={"rounds": 10_000}, seed=i)
        for i in range(writers)
    ]
    counts = [0] * writers
    deadline = time.perf_counter() + seconds

    def writer(i: int) -> None:
        game = Game.objects.get(pk=games[i].pk)
        try:
            while time.perf_counter() < deadline:
                state = store.load(game, DUEL).state
                seat = min(DUEL.to_act(state))
                action = DUEL.legal_actions(state, seat)[0]
                check_submit_action(game, users[seat], action=action, expected_seq=game.seq)
                counts[i] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    emit("store.appends_per_second", sum(counts) / elapsed, "appends/s", writers=writers,
         database=connection.vendor)  # fmt: skip


def main() -> None:
    base.register(DUEL)
    with throwaway_database():
        users = [User.objects.create(username=f"bench{i}") for i in range(2)]
        bench_load(users)
        bench_appends(users)


if __name__ == "__main__":
    main()
