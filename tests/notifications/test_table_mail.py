"""Mail about tables, through the outbox: the table full and its game
started, the table expired, an invitation; each in the reader's language."""

from __future__ import annotations

import datetime

from django.utils import timezone

from games.jobs import tables as table_jobs
from games.services.tables import check_create_table, check_join_table
from notifications import render
from notifications.models import Notification


def test_the_players_are_mailed_that_the_game_starts(alice, bob):
    table = check_create_table(alice, title="duel", seats=2)
    check_join_table(table.pk, bob)
    row = Notification.objects.get(kind="table_started", user=bob)
    message = render.build_message(row)
    table.refresh_from_db()
    assert message.to == ["bob@example.org"]
    assert f"#{table.game_id}: the table is full, the game starts" in message.subject
    assert f"https://correo.test/games/{table.game_id}/" in message.body
    assert "Players: alice, bob" in message.body or "Players: bob, alice" in message.body


def test_the_players_are_mailed_that_the_table_expired(alice):
    check_create_table(alice, title="duel", seats=2)
    table_jobs.expire(timezone.now() + datetime.timedelta(days=15))
    row = Notification.objects.get(kind="table_expired", user=alice)
    message = render.build_message(row)
    assert "table expired" in message.subject
    assert "for 14 days" in message.body
    assert "https://correo.test/tables/" in message.body


def test_a_player_who_wants_no_mail_is_not_mailed(alice, bob):
    bob.notify_mode = "off"
    bob.save()
    table = check_create_table(alice, title="duel", seats=2)
    check_join_table(table.pk, bob)
    assert not Notification.objects.filter(kind="table_started", user=bob).exists()
    assert Notification.objects.filter(kind="table_started", user=alice).exists()
