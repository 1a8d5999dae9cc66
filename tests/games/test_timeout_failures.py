"""A timeout that fails is contained: a title whose `timeout_action` raises
(or gives what its own rules refuse) holds back that seat, is logged with
its traceback, counted and flagged for a moderator, and the sweep does not
hand the game out again every minute."""

from __future__ import annotations

import datetime
import logging

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from config.celery import app as celery_app
from games.audit import verification
from games.engines import base
from games.models import Event, Game, Seat
from games.services.creation import do_create_game
from tests.support.duel import Duel

HOUR = datetime.timedelta(hours=1)
MINUTE = datetime.timedelta(minutes=1)


class BrokenDuel(Duel):
    """Duel whose timeout fails for the seats in `broken`: a missing key, as
    a bug in a title's timeout_action would raise."""

    NAME = "brokenduel"
    TITLE = "Duel with a broken timeout (test engine)"

    def __init__(self, broken: set[int]) -> None:
        self.broken = broken

    def timeout_action(self, state, seat):
        if seat in self.broken:
            return state["no such key"][seat]
        return super().timeout_action(state, seat)


class IllegalTimeoutDuel(Duel):
    """Duel whose timeout_action gives a move its own rules refuse."""

    NAME = "illegalduel"
    TITLE = "Duel with an illegal timeout (test engine)"

    def timeout_action(self, state, seat):
        return {"type": "commit", "card": 999}


@pytest.fixture(autouse=True)
def eager_tasks(settings):
    settings.CORREO_OUTAGE_AFTER_SECONDS = 10**9  # time jumps here are no outages
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = eager


@pytest.fixture
def playing():
    """Start a clocked game of a broken title, registered for this test only."""
    registered = []

    def start(engine, players) -> Game:
        registered.append(base.register(engine).NAME)
        return do_create_game(
            title=engine.NAME, players=players, options={"rounds": 2}, seed=3,
            clock={"per_move": "1h", "on_timeout": "auto"},
        )  # fmt: skip

    yield start
    for name in registered:
        base.unregister(name)


def failures(title: str) -> float:
    value = REGISTRY.get_sample_value("correo_timeout_failures_total", {"title": title})
    return value or 0.0


def deadline_of(game: Game, seat: int) -> datetime.datetime:
    return Seat.objects.get(game=game, index=seat).deadline


def test_a_timeout_that_raises_is_held_back_an_hour_logged_counted_and_flagged(
    alice, bob, playing, run_sweep, caplog, settings
):
    game = playing(BrokenDuel({0, 1}), [alice, bob])
    before = failures("brokenduel")
    now = timezone.now() + 2 * HOUR
    with caplog.at_level(logging.ERROR, logger="games.jobs.timeouts"):
        report = run_sweep(now)

    assert report["due"] == 1
    game.refresh_from_db()
    assert game.flagged and not game.paused and game.status == "active"
    assert deadline_of(game, 0) == deadline_of(game, 1) == now + HOUR
    assert game.deadline == now + HOUR
    notes = list(Event.objects.filter(game=game, kind="note").order_by("seq"))
    assert [(n.seat, n.payload["note"], n.source) for n in notes] == [
        (0, "timeout_failed", "timer"),
        (1, "timeout_failed", "timer"),
    ]
    assert not Event.objects.filter(game=game, kind="timeout").exists()
    assert failures("brokenduel") - before == 2
    logged = [r for r in caplog.records if "timeout of seat" in r.getMessage()]
    assert len(logged) == 2
    assert all(r.exc_info and r.exc_info[0] is KeyError for r in logged)
    assert settings.CORREO_TIMEOUT_RETRY_SECONDS == 3600
    assert list(verification.game_problems(game)) == []


def test_a_held_back_game_is_not_handed_out_again_until_its_hour_is_over(
    alice, bob, playing, run_sweep
):
    game = playing(BrokenDuel({0, 1}), [alice, bob])
    now = timezone.now() + 2 * HOUR
    assert run_sweep(now)["due"] == 1
    for minute in range(1, 4):
        assert run_sweep(now + minute * MINUTE)["due"] == 0
    seq = Game.objects.get(pk=game.pk).seq
    assert run_sweep(now + HOUR + MINUTE)["due"] == 1  # tried again after the hour
    assert deadline_of(game, 0) == now + HOUR + MINUTE + HOUR
    # The table already has its notes: a second failure in the same position adds none.
    assert Game.objects.get(pk=game.pk).seq == seq


def test_the_seat_held_back_is_the_one_whose_timeout_failed(alice, bob, playing, run_sweep):
    game = playing(BrokenDuel({1}), [alice, bob])
    created = Event.objects.get(game=game, seq=1).created_at
    # Seat 0 ran out first: it is the first due seat, and its timeout works.
    Seat.objects.filter(game=game, index=0).update(deadline=created + HOUR - 2 * MINUTE)
    Seat.objects.filter(game=game, index=1).update(deadline=created + HOUR - MINUTE)
    Game.objects.filter(pk=game.pk).update(deadline=created + HOUR - 2 * MINUTE)
    now = created + 2 * HOUR
    run_sweep(now)

    kinds = list(Event.objects.filter(game=game).order_by("seq").values_list("kind", "seat"))
    # Seat 0's timeout stands; seat 1's failure undid only its own part.
    assert kinds == [("created", None), ("timeout", 0), ("note", 1)]
    assert deadline_of(game, 1) == now + HOUR
    assert Event.objects.get(game=game, kind="note").payload["seat"] == 1


def test_a_timeout_its_own_rules_refuse_is_contained_the_same_way(alice, bob, playing, run_sweep):
    game = playing(IllegalTimeoutDuel(), [alice, bob])
    before = failures("illegalduel")
    now = timezone.now() + 2 * HOUR
    run_sweep(now)
    game.refresh_from_db()
    assert game.flagged and not game.paused
    assert failures("illegalduel") - before == 2
    assert deadline_of(game, 0) == now + HOUR
