"""Outage repairs and vacations touch every game of many: one short
transaction per game, retried when a move lands first, and never applied
twice to a game, even when a sweep or a request stops midway.  The races run
real moves in other threads (their own connections) on PostgreSQL."""

from __future__ import annotations

import contextlib
import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from games import tasks
from games.errors import StaleSeq
from games.models import Event, Game, Outage, Seat, SweepState, Vacation
from games.services import clocks
from games.services.common import STALE_RETRIES
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.vacation import check_start_vacation
from games.stream import store
from tests.conftest import make_user
from tests.support.play import hand
from tests.support.threads import run_together

HOUR = datetime.timedelta(hours=1)
GAP = 3 * HOUR


def clocked(players, seed: int) -> Game:
    return do_create_game(
        title="duel", players=players, options={"rounds": 2}, seed=seed,
        clock={"per_move": "1h"},
    )  # fmt: skip


def deadlines(game: Game) -> dict[int, datetime.datetime | None]:
    return dict(Seat.objects.filter(game=game).values_list("index", "deadline"))


def clock_events(game: Game, clock: str) -> list[Event]:
    events = Event.objects.filter(game=game, kind=Event.Kind.CLOCK).order_by("seq")
    return [event for event in events if event.payload["clock"] == clock]


def commit_in_thread(game_id: int, user, seat: int) -> None:
    """A player's move from another connection, committed before this returns."""

    def move():
        try:
            game = Game.objects.get(pk=game_id)
            card = hand(game, seat)[0]
            check_submit_action(
                game, user, action={"type": "commit", "card": card}, expected_seq=game.seq
            )
        finally:
            connection.close()

    thread = threading.Thread(target=move)
    thread.start()
    thread.join()


def a_move_lands_before(monkeypatch, clock: str, game: Game, user, seat: int) -> list[int]:
    """Make a real move land in `game` just before the first `clock` event
    meant for it is appended; returns the list of such appends tried."""
    tries: list[int] = []
    honest = store.append

    def append(target, **kwargs):
        if kwargs["payload"].get("clock") == clock and target.pk == game.pk:
            tries.append(kwargs["expected_seq"])
            if len(tries) == 1:
                commit_in_thread(game.pk, user, seat)
        return honest(target, **kwargs)

    monkeypatch.setattr(store, "append", append)
    return tries


def silent_since(start: datetime.datetime) -> None:
    SweepState.objects.update_or_create(name="deadlines", defaults={"last_run": start})


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_during_the_outage_repair_costs_its_game_one_retry_not_the_repair(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    games = [clocked([alice, bob], seed) for seed in range(4)]
    raced, overdue = games[1], games[3]
    start = timezone.now()
    # Overdue before the outage began: due again once moved by the outage.
    Seat.objects.filter(game=overdue).update(deadline=start - HOUR / 2)
    Game.objects.filter(pk=overdue.pk).update(deadline=start - HOUR / 2)
    before = {game.pk: deadlines(game) for game in games}
    silent_since(start)
    tries = a_move_lands_before(monkeypatch, "outage", raced, alice, 0)

    report = tasks.sweep_and_queue(start + GAP)

    assert report["outage_seconds"] == GAP.total_seconds()
    assert report["unrepaired"] == 0 and report["due"] == 1  # the sweep reached its timeouts
    assert len(tries) == 2 and tries[1] == tries[0] + 1  # one retry, after the move
    for game in games:
        assert len(clock_events(game, "outage")) == 1, game.pk
        assert store.chain_problems(game, list(game.events.order_by("seq"))) == []
    assert [e.kind for e in raced.events.order_by("seq")] == ["created", "action", "clock"]
    assert deadlines(raced)[1] == before[raced.pk][1] + GAP
    for game in (games[0], games[2]):
        assert deadlines(game) == {seat: d + GAP for seat, d in before[game.pk].items()}
    assert Event.objects.filter(game=overdue, kind="timeout").exists()
    assert Outage.objects.get().repaired_at is not None
    assert SweepState.objects.get(name="deadlines").last_run == start + GAP


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_during_a_vacation_costs_its_game_one_retry_not_the_vacation(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    games = [clocked([alice, bob], seed) for seed in range(3)]
    raced = games[1]
    before = {game.pk: deadlines(game) for game in games}
    tries = a_move_lands_before(monkeypatch, "vacation", raced, bob, 1)

    vacation = check_start_vacation(alice, days=2)  # before: a 409 for alice

    away = datetime.timedelta(days=2)
    assert len(tries) == 2
    for game in games:
        assert len(clock_events(game, "vacation")) == 1, game.pk
        assert deadlines(game)[0] == before[game.pk][0] + away
    assert [e.kind for e in raced.events.order_by("seq")] == ["created", "action", "clock"]
    assert Vacation.objects.get(pk=vacation.pk).announced_at is not None


def race_moves_against_a_repair(games: list[Game], players, at: datetime.datetime) -> None:
    """Both seats of every game move while a sweep repairs an outage."""
    go = threading.Barrier(2)

    def mover():
        go.wait()
        try:
            for game in games:
                for seat, user in enumerate(players):
                    game.refresh_from_db()
                    action = {"type": "commit", "card": hand(game, seat)[0]}
                    # A 409 here is the player's to reload and move again.
                    with contextlib.suppress(StaleSeq):
                        check_submit_action(game, user, action=action, expected_seq=game.seq)
        finally:
            connection.close()

    def sweeper():
        go.wait()
        try:
            tasks.sweep_and_queue(at)
        finally:
            connection.close()

    run_together(mover, sweeper)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_moves_racing_outage_repairs_never_leave_a_game_repaired_twice_or_not_at_all():
    alice, bob = make_user("alice"), make_user("bob")
    for attempt in range(8):
        games = [clocked([alice, bob], 10 * attempt + i) for i in range(4)]
        start = timezone.now()
        silent_since(start)
        race_moves_against_a_repair(games, [alice, bob], start + GAP)
        for game in games:
            assert len(clock_events(game, "outage")) == 1, (attempt, game.pk)
            assert store.chain_problems(game, list(game.events.order_by("seq"))) == []
        assert not Outage.objects.filter(repaired_at__isnull=True).exists()


def test_a_repair_that_stopped_midway_is_finished_by_the_next_sweep_once_per_game(
    alice, bob, monkeypatch
):
    games = [clocked([alice, bob], seed) for seed in range(4)]
    before = {game.pk: deadlines(game) for game in games}
    start = timezone.now()
    silent_since(start)
    honest = clocks.do_repair_outage
    done: list[int] = []

    def dies_after_two(game_id, outage):
        if len(done) == 2:
            raise SystemExit("the worker is killed")
        done.append(game_id)
        return honest(game_id, outage)

    monkeypatch.setattr(clocks, "do_repair_outage", dies_after_two)
    with pytest.raises(SystemExit):
        tasks.sweep_and_queue(start + GAP)
    outage = Outage.objects.get()
    # last_run moved with the outage's record: the next sweep sees no new silence.
    assert outage.repaired_at is None
    assert SweepState.objects.get(name="deadlines").last_run == start + GAP
    # A killed process never released its hold: the next sweep waits it out.
    Outage.objects.update(held_until=timezone.now() + HOUR)
    monkeypatch.setattr(clocks, "do_repair_outage", honest)
    waited = tasks.sweep_and_queue(start + GAP + datetime.timedelta(minutes=1))
    assert waited["waited"] == 1 and waited["due"] == 0
    Outage.objects.update(held_until=timezone.now() - datetime.timedelta(seconds=1))

    report = tasks.sweep_and_queue(start + GAP + datetime.timedelta(minutes=2))

    assert report["outage_seconds"] == 0 and report["waited"] == 0
    for game in games:
        assert len(clock_events(game, "outage")) == 1
        assert deadlines(game) == {seat: d + GAP for seat, d in before[game.pk].items()}
    assert Outage.objects.get().repaired_at is not None


def test_a_game_that_keeps_moving_is_left_for_the_next_sweep_and_not_timed_out(
    alice, bob, monkeypatch
):
    games = [clocked([alice, bob], seed) for seed in range(2)]
    busy = games[0]
    start = timezone.now()
    silent_since(start)
    honest = store.append
    tries = []

    def always_stale(target, **kwargs):
        if target.pk == busy.pk and kwargs["payload"].get("clock") == "outage":
            tries.append(1)
            raise StaleSeq(kwargs["expected_seq"], kwargs["expected_seq"] + 1)
        return honest(target, **kwargs)

    monkeypatch.setattr(store, "append", always_stale)
    # Every deadline ran out in the outage: the busy game, left unrepaired,
    # would be due now; the repaired one is not.
    late = start + GAP
    report = tasks.sweep_and_queue(late)
    assert len(tries) == STALE_RETRIES
    assert report["unrepaired"] == 1 and report["due"] == 0
    assert not Event.objects.filter(game=busy, kind="timeout").exists()
    assert Outage.objects.get().repaired_at is None

    monkeypatch.setattr(store, "append", honest)
    report = tasks.sweep_and_queue(late + datetime.timedelta(minutes=1))
    assert report["unrepaired"] == 0
    assert len(clock_events(busy, "outage")) == 1
    assert len(clock_events(games[1], "outage")) == 1
    assert Outage.objects.get().repaired_at is not None


def test_a_vacation_request_that_stopped_midway_is_finished_by_the_sweep(
    alice, bob, monkeypatch, settings
):
    settings.CORREO_VACATION_DAYS_PER_YEAR = 10
    games = [clocked([alice, bob], seed) for seed in range(3)]
    before = {game.pk: deadlines(game) for game in games}
    honest = clocks.do_vacation_notice
    told: list[int] = []

    def dies_after_one(game_id, seat, vacation):
        if told:
            raise SystemExit("the web worker is killed")
        told.append(game_id)
        return honest(game_id, seat, vacation)

    monkeypatch.setattr(clocks, "do_vacation_notice", dies_after_one)
    with pytest.raises(SystemExit):
        check_start_vacation(alice, days=2)
    assert Vacation.objects.get().announced_at is None
    monkeypatch.setattr(clocks, "do_vacation_notice", honest)

    tasks.sweep_and_queue(timezone.now())

    for game in games:
        assert len(clock_events(game, "vacation")) == 1
        assert deadlines(game)[0] == before[game.pk][0] + datetime.timedelta(days=2)
    assert Vacation.objects.get().announced_at is not None


def test_a_vacation_over_before_its_games_were_told_is_let_go(alice, bob):
    game = clocked([alice, bob], 1)
    before = deadlines(game)
    now = timezone.now()
    Vacation.objects.create(user=alice, starts_at=now - 3 * HOUR, ends_at=now - HOUR)

    tasks.sweep_and_queue(now)

    assert clock_events(game, "vacation") == []
    assert deadlines(game) == before
    assert Vacation.objects.get().announced_at is not None
