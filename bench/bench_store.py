"""Event-store benchmarks on a real title: load time by stream length, and
concurrent appends.

The streams are Havana games played through the service (`do_submit_action`,
`do_undo`), undo-heavy as long games under moderation are: play a game to
near its end, undo back to its start, play again, so a 10 000-event stream
holds many undone branches and a short live one.  A load is a cold one (a
process holding nothing of the game: the undo map, the newest live
snapshot, the events after it), timed LOADS times at each length; the bench
prints the median with the 10th and 90th percentiles.  Runs against
DATABASE_URL (PostgreSQL for meaningful figures) in a throwaway database.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time

from support import django_setup, emit, throwaway_database

django_setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.models import User  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Event, Game  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.services.moves import check_submit_action, do_submit_action  # noqa: E402
from games.services.undo import do_undo  # noqa: E402
from games.stream import store  # noqa: E402

HAVANA = base.get("havana")
LENGTHS = (10, 1_000, 10_000)
LOADS = int(os.environ.get("BENCH_STORE_LOADS", "30"))
CYCLE = 120  # moves played before each undo back to the start


def play_one(game: Game, rng: random.Random) -> bool:
    """One random legal move through the service; False when the game is over."""
    game.refresh_from_db()
    state = store.load(game, HAVANA).state
    if HAVANA.result(state) is not None:
        return False
    seat = min(HAVANA.to_act(state))
    action = rng.choice(HAVANA.legal_actions(state, seat))
    do_submit_action(game, seat, actor=None, action=action, text=None, expected_seq=game.seq,
                     source=Event.Source.SYSTEM, kind=Event.Kind.ACTION)  # fmt: skip
    return True


def extend(game: Game, length: int, rng: random.Random, moderator) -> None:
    """Grow the stream to `length` events: moves, and every CYCLE live moves
    (or at the game's end) an undo back to seq 2."""
    live = 0
    while game.seq < length:
        if live >= CYCLE or not play_one(game, rng):
            game.refresh_from_db()
            do_undo(game, actor=moderator, to_seq=2, reason="bench: replay",
                    source=Event.Source.MODERATOR)  # fmt: skip
            live = 0
        else:
            live += 1


def bench_load(users, moderator) -> None:
    game = do_create_game(title="havana", players=users, seed=1)
    rng = random.Random(1)
    for length in LENGTHS:
        extend(game, length, rng, moderator)
        game.refresh_from_db()
        times = []
        for _ in range(LOADS):
            started = time.perf_counter()
            store.load(game, HAVANA, memo=False)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        undos = Event.objects.filter(game=game, kind="undo").count()
        emit("store.load_median", statistics.median(times), "ms", title="havana",
             events=game.seq, undos=undos, p10=round(times[len(times) // 10], 3),
             p90=round(times[len(times) * 9 // 10], 3), loads=LOADS,
             snapshot_every=settings.CORREO_SNAPSHOT_EVERY,
             database=connection.vendor)  # fmt: skip


def bench_appends(users, writers: int = 4, seconds: float = 5.0) -> None:
    """Writers each playing their own Havana game (a new one when it ends)."""
    counts = [0] * writers
    deadline = time.perf_counter() + seconds

    def writer(i: int) -> None:
        rng = random.Random(i)
        game = do_create_game(title="havana", players=users, seed=100 + i)
        try:
            while time.perf_counter() < deadline:
                state = store.load(game, HAVANA).state
                if HAVANA.result(state) is not None:
                    game = do_create_game(title="havana", players=users, seed=rng.randrange(10**6))
                    continue
                seat = min(HAVANA.to_act(state))
                action = rng.choice(HAVANA.legal_actions(state, seat))
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
         title="havana", database=connection.vendor)  # fmt: skip


def main() -> None:
    with throwaway_database():
        users = [User.objects.create(username=f"bench{i}") for i in range(2)]
        moderator = User.objects.create(username="bench-mod", is_staff=True)
        bench_load(users, moderator)
        bench_appends(users)


if __name__ == "__main__":
    main()
