"""Clocks against the real services: a move racing a timeout on PostgreSQL,
and a game run to its end by timeouts alone with celery beat and a worker."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from games.errors import StaleSeq
from games.jobs import timeouts
from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for
from tests.conftest import make_user
from tests.support.threads import run_together

# slow: races between threads and a real worker running a game out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def race(player, game_id: int, card: int, later) -> dict[str, bool]:
    """A player's move and the timeout task, released at the same instant."""
    start = threading.Barrier(2)
    results: dict[str, bool] = {}

    def move():
        start.wait()
        try:
            check_submit_action(
                Game.objects.get(pk=game_id), player,
                action={"type": "commit", "card": card}, expected_seq=1,
            )  # fmt: skip
            results["move"] = True
        except StaleSeq:
            results["move"] = False
        finally:
            connection.close()

    def timeout():
        start.wait()
        try:
            results["timeout"] = bool(timeouts.run_out(game_id, 1, later))
        finally:
            connection.close()

    run_together(move, timeout)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_and_a_timeout_racing_for_the_same_seq_give_exactly_one_event():
    alice, bob = make_user("alice"), make_user("bob")
    winners = []
    for attempt in range(50):
        # The timeout runs a minute ahead, where the first deadline is due;
        # the turn after it has half a minute of real time, so that nothing
        # that sweeps at the real time meanwhile (the hooks after a commit,
        # on a machine so busy that a second goes by) finds it due too.
        game = do_create_game(
            title="duel", players=[alice, bob], seed=attempt, clock={"per_move": "30s"}
        )
        card = store.load(game, engine_for(game)).state["hands"][0][0]
        results = race(alice, game.pk, card, timezone.now() + timezone.timedelta(seconds=60))
        events = list(Event.objects.filter(game=game).order_by("seq"))
        assert results["move"] != results["timeout"], (attempt, results)
        winner = "move" if results["move"] else "timeout"
        assert events[1].seq == 2
        assert events[1].kind == ("action" if winner == "move" else "timeout")
        # after a timeout both due seats were played; after a move, nothing else
        assert [e.kind for e in events[2:]] == ([] if winner == "move" else ["timeout"])
        assert store.chain_problems(game, events) == []
        winners.append(winner)
    assert len(winners) == 50


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_beat_and_a_real_worker_run_a_game_to_its_end_by_timeouts_alone(settings):
    alice, bob = make_user("alice"), make_user("bob")
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 1}, seed=4,
                               clock={"per_move": "2s", "reminders": ["1s"]})  # fmt: skip
    env = dict(
        os.environ,
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        CORREO_SWEEP_INTERVAL="1",
        CORREO_EXTRA_ENGINES="tests.support.duel:DUEL",
    )
    celery = str(Path(sys.executable).parent / "celery")
    worker = subprocess.Popen(
        [celery, "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING",
         "--without-gossip", "--without-mingle", "-Q", "celery"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    beat = subprocess.Popen(
        [celery, "-A", "config", "beat", "--loglevel", "WARNING", "-s", "/tmp/correo-beat-test"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            game.refresh_from_db()
            if game.status != "active":
                break
            time.sleep(0.5)
    finally:
        for process in (beat, worker):
            process.terminate()
        for process in (beat, worker):
            process.wait(timeout=20)
    assert game.status == "finished", game.status
    kinds = set(Event.objects.filter(game=game).exclude(seq=1).values_list("kind", flat=True))
    assert kinds == {"timeout"}
    from notifications.models import Notification

    reminders = list(Notification.objects.filter(game=game, kind="reminder"))
    assert reminders, "no reminder was sent before the timeouts"
    # once each: one reminder per seat and deadline (a deadline is a seat at a seq)
    assert len({(n.seat, n.seq) for n in reminders}) == len(reminders)
