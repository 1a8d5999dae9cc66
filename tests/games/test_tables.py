"""Tables: a game gathered with its players' consent, started exactly once.

The service is called as the doors call it (check_*); the race at the last
seat runs on the real PostgreSQL with two threads."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from games.engines.base import IllegalAction
from games.errors import Conflict, Forbidden, InvalidRequest, NotFound, TooManyTables
from games.jobs import tables as table_jobs
from games.models import Event, Game, Invitation, Table
from games.services.tables import (
    check_create_table,
    check_join_table,
    check_leave_table,
    check_remove_from_table,
    check_seat_bot,
    check_start_table,
)
from notifications.models import Notification
from tests.conftest import make_user
from tests.support.threads import run_together


def open_table(host, **options) -> Table:
    options.setdefault("title", "duel")
    return check_create_table(host, **options)


def players_of(game: Game) -> list[str]:
    return [seat.user.username for seat in game.seats.order_by("index")]


def test_the_host_sits_at_the_table_they_open(alice):
    table = open_table(alice, seats={"min": 2, "max": 3}, options={"rounds": 2})
    assert table.status == Table.Status.WAITING
    assert [seat.user for seat in table.seats.all()] == [alice]
    assert (table.min_seats, table.max_seats, table.seated) == (2, 3, 1)
    assert table.options == {"rounds": 2}
    assert table.links.count() == 1
    assert table.expires_at > timezone.now() + datetime.timedelta(days=13)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("title", "no-such-title"),
        ("seats", 9),
        ("seats", {"min": 3, "max": 2}),
        ("seats", {"min": 1}),
        ("seats", "two"),
        ("seats", {"least": 2}),
        ("seat_order", "alphabetical"),
        ("spectator_delay", -1),
        ("public", "yes"),
        ("open", 1),
        ("clock", {"per_move": "forever"}),
    ],
)
def test_a_table_asked_for_badly_is_refused_and_nothing_is_made(alice, field, value):
    with pytest.raises(InvalidRequest):
        open_table(alice, **{field: value})
    assert not Table.objects.exists()


def test_options_the_title_refuses_are_refused(alice):
    with pytest.raises(IllegalAction):
        open_table(alice, options={"rounds": 0})
    assert not Table.objects.exists()


def test_anyone_may_join_an_open_table_and_a_full_table_starts(alice, bob, carol):
    table = open_table(alice, seats=3, seat_order="joined")
    check_join_table(table.pk, bob)
    table.refresh_from_db()
    assert (table.status, table.seated, table.game) == ("waiting", 2, None)
    check_join_table(table.pk, carol)
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    game = table.game
    assert players_of(game) == ["alice", "bob", "carol"]
    # Today's creation: the created event carries the commitment, and the
    # host is the game's creator.
    created = game.events.get(seq=1)
    assert created.kind == Event.Kind.CREATED and created.payload["commitment"]
    assert game.created_by == alice


def test_an_unlisted_table_is_not_found_without_its_link(alice, bob):
    from games.selectors import invite_tokens, tables

    table = open_table(alice, seats=2, open=False)
    with pytest.raises(NotFound):
        check_join_table(table.pk, bob)
    token = invite_tokens.link_token(tables.current_link(table))
    check_join_table(table.pk, bob, token=token)
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED


def test_a_seat_is_taken_once_and_a_started_table_takes_nobody(alice, bob, carol):
    table = open_table(alice, seats=2)
    with pytest.raises(Conflict, match="already have a seat"):
        check_join_table(table.pk, alice)
    check_join_table(table.pk, bob)
    with pytest.raises(Conflict, match="no longer waiting"):
        check_join_table(table.pk, carol)
    assert Game.objects.count() == 1


def test_a_missing_table_is_not_found(alice):
    with pytest.raises(NotFound):
        check_join_table(10**9, alice)


def test_players_leave_before_the_start_and_the_host_role_passes_on(alice, bob, carol):
    table = open_table(alice, seats={"min": 2, "max": 4})
    check_join_table(table.pk, bob)
    check_join_table(table.pk, carol)
    check_leave_table(table.pk, alice)
    table.refresh_from_db()
    assert (table.host, table.seated, table.status) == (bob, 2, "waiting")
    with pytest.raises(Conflict, match="no seat"):
        check_leave_table(table.pk, alice)
    check_leave_table(table.pk, carol)
    check_leave_table(table.pk, bob)
    table.refresh_from_db()
    assert (table.status, table.seated) == ("closed", 0)


def test_only_the_host_removes_a_player(alice, bob, carol):
    table = open_table(alice, seats={"min": 2, "max": 4})
    check_join_table(table.pk, bob)
    check_join_table(table.pk, carol)
    with pytest.raises(Forbidden):
        check_remove_from_table(table.pk, bob, "carol")
    with pytest.raises(Conflict):
        check_remove_from_table(table.pk, alice, "alice")
    with pytest.raises(Conflict):
        check_remove_from_table(table.pk, alice, "nobody")
    check_remove_from_table(table.pk, alice, "carol")
    table.refresh_from_db()
    assert [seat.user.username for seat in table.seats.all()] == ["alice", "bob"]
    assert table.seated == 2


def test_the_host_starts_once_the_minimum_is_seated(alice, bob):
    table = open_table(alice, seats={"min": 2, "max": 4})
    with pytest.raises(Conflict, match="at least 2"):
        check_start_table(table.pk, alice)
    check_join_table(table.pk, bob)
    with pytest.raises(Forbidden):
        check_start_table(table.pk, bob)
    check_start_table(table.pk, alice)
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    assert sorted(players_of(table.game)) == ["alice", "bob"]
    with pytest.raises(Conflict):
        check_start_table(table.pk, alice)
    assert Game.objects.count() == 1


def test_the_host_orders_the_seats_when_the_table_says_so(alice, bob, carol):
    table = open_table(alice, seats={"min": 2, "max": 4}, seat_order="host")
    check_join_table(table.pk, bob)
    check_join_table(table.pk, carol)
    with pytest.raises(InvalidRequest):
        check_start_table(table.pk, alice, order=["carol", "alice"])
    check_start_table(table.pk, alice, order=["carol", "alice", "bob"])
    table.refresh_from_db()
    assert players_of(table.game) == ["carol", "alice", "bob"]


def test_an_order_is_refused_where_the_host_does_not_order(alice, bob):
    table = open_table(alice, seats={"min": 2, "max": 3}, seat_order="joined")
    check_join_table(table.pk, bob)
    with pytest.raises(InvalidRequest):
        check_start_table(table.pk, alice, order=["bob", "alice"])


def test_a_random_order_seats_everyone_once(alice, bob, carol):
    table = open_table(alice, seats=3, seat_order="random")
    check_join_table(table.pk, bob)
    check_join_table(table.pk, carol)
    table.refresh_from_db()
    assert sorted(players_of(table.game)) == ["alice", "bob", "carol"]


def test_bots_fill_seats_at_the_hosts_word(alice):
    table = open_table(alice, title="havana", seats=2, seat_order="joined")
    with pytest.raises(InvalidRequest):
        check_seat_bot(table.pk, alice, "clever")
    check_seat_bot(table.pk, alice, "greedy")
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    assert players_of(table.game) == ["alice", "bot:greedy:1"]


def test_only_the_host_seats_a_bot(alice, bob):
    table = open_table(alice, title="havana", seats=3)
    with pytest.raises(Forbidden):
        check_seat_bot(table.pk, bob, "greedy")


def test_an_account_sits_at_a_limited_number_of_waiting_tables(alice, bob, settings):
    settings.CORREO_MAX_WAITING_TABLES = 2
    first = open_table(alice, seats=3)
    open_table(alice, seats=3)
    with pytest.raises(TooManyTables):
        open_table(alice, seats=3)
    assert Table.objects.filter(host=alice).count() == 2
    open_table(bob, seats=3)
    open_table(bob, seats=3)
    with pytest.raises(TooManyTables):
        check_join_table(first.pk, bob)
    # A table that starts frees its place.
    check_leave_table(Table.objects.filter(host=bob).first().pk, bob)
    check_join_table(first.pk, bob)


def test_a_table_counts_towards_the_running_games_one_may_start(alice, settings):
    settings.CORREO_MAX_ACTIVE_GAMES = 0
    with pytest.raises(InvalidRequest):
        open_table(alice)


def test_a_solo_table_starts_at_once(alice):
    table = open_table(alice, title="pointcity", seats=1)
    assert table.status == Table.Status.STARTED
    assert players_of(table.game) == ["alice"]


def test_the_players_hear_that_the_game_starts(alice, bob):
    table = open_table(alice, seats=2)
    check_join_table(table.pk, bob)
    told = Notification.objects.filter(kind="table_started")
    assert sorted(n.user.username for n in told) == ["alice", "bob"]
    table.refresh_from_db()
    assert {n.context["game"] for n in told} == {table.game_id}


def test_a_waiting_table_nobody_joins_expires_and_its_players_hear_of_it(alice, bob, carol):
    table = open_table(alice, seats=3)
    check_join_table(table.pk, bob)
    Invitation.objects.create(table=table, invited_by=alice, user=carol)
    fresh = open_table(carol, seats=3)
    later = timezone.now() + datetime.timedelta(days=14, minutes=1)
    assert table_jobs.expire(later) == 2
    table.refresh_from_db()
    fresh.refresh_from_db()
    assert table.status == fresh.status == Table.Status.EXPIRED
    told = Notification.objects.filter(kind="table_expired")
    assert sorted(n.user.username for n in told) == ["alice", "bob", "carol"]
    assert Invitation.objects.get(user=carol).status == Invitation.Status.WITHDRAWN
    assert table_jobs.expire(later) == 0  # once only
    with pytest.raises(Conflict):
        check_join_table(table.pk, carol)


def test_a_seat_taken_moves_the_expiry_on(alice, bob, settings):
    table = open_table(alice, seats=3)
    made = table.expires_at
    check_join_table(table.pk, bob)
    table.refresh_from_db()
    assert table.expires_at >= made
    assert table_jobs.expire(made + datetime.timedelta(seconds=-1)) == 0


def test_beat_runs_the_expiry():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["expire-tables"]
    assert entry["task"] == "games.tasks.expire_tables"
    from games import tasks

    assert tasks.expire_tables.name == "games.tasks.expire_tables"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_seat_at_once_start_one_game():
    """Without the table's row lock both would see one free seat, both would
    sit down and the table would start twice (or hold four at three seats)."""
    alice, bob, carol, dave = (make_user(name) for name in ("alice", "bob", "carol", "dave"))
    table = open_table(alice, seats=3)
    check_join_table(table.pk, bob)
    begin = threading.Barrier(2)
    outcomes: list[str] = []

    def join(user) -> None:
        try:
            begin.wait()
            check_join_table(table.pk, user)
            outcomes.append("seated")
        except Conflict:
            outcomes.append("refused")
        except Exception as exc:  # recorded so the assertion shows it
            outcomes.append(repr(exc))
        finally:
            connection.close()

    run_together(lambda: join(carol), lambda: join(dave))
    assert sorted(outcomes) == ["refused", "seated"]
    table.refresh_from_db()
    assert (table.status, table.seated) == ("started", 3)
    assert Game.objects.count() == 1
    assert table.game.seats.count() == 3
    assert Notification.objects.filter(kind="table_started").count() == 3
