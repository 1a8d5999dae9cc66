"""Mail about tables, through the outbox: the table full and its game
started, the table expired, an invitation; each in the reader's language."""

from __future__ import annotations

import datetime

from django.utils import timezone

from games.jobs import tables as table_jobs
from games.selectors.invite_tokens import invitation_token
from games.services.invitations import check_invite
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


def test_an_invitation_goes_out_through_smtp_in_the_invitees_language(
    alice, bob, sink, django_capture_on_commit_callbacks
):
    bob.language = "de"
    bob.save()
    table = check_create_table(alice, title="duel", seats=3)
    with django_capture_on_commit_callbacks(execute=True):
        check_invite(table.pk, alice, usernames=["bob"])
    [message] = sink.to("bob@example.org")
    assert str(message["Subject"]).strip().startswith("[Correo] alice lädt dich zu Duel")
    body = message.get_body(("plain",)).get_content()
    assert "lädt dich zu einer Partie Duel (test engine) (3-3 Spieler)" in body
    assert f"https://correo.test/tables/{table.pk}/" in body
    assert message["List-Unsubscribe"]


def test_the_table_mails_in_german(alice, bob):
    alice.language = "de"
    alice.save()
    table = check_create_table(alice, title="duel", seats=2)
    check_join_table(table.pk, bob)
    started = render.build_message(Notification.objects.get(kind="table_started", user=alice))
    assert "der Tisch ist voll, die Partie beginnt" in started.subject
    assert "die Partie beginnt jetzt" in started.body
    check_create_table(alice, title="duel", seats=2)
    table_jobs.expire(timezone.now() + datetime.timedelta(days=15))
    expired = render.build_message(Notification.objects.get(kind="table_expired", user=alice))
    assert "Tisch ist abgelaufen" in expired.subject
    assert "14 Tage lang niemand" in expired.body


def test_an_address_invitation_names_no_account_and_offers_no_unsubscribe(
    alice, sink, django_capture_on_commit_callbacks
):
    table = check_create_table(alice, title="duel", seats=2, open=False)
    with django_capture_on_commit_callbacks(execute=True):
        [invitation] = check_invite(table.pk, alice, emails=["dora@example.net"])
    [message] = sink.to("dora@example.net")
    body = message.get_body(("plain",)).get_content()
    assert f"https://correo.test/invitations/{invitation_token(invitation)}/" in body
    assert "nothing happens unless you follow the link" in body
    assert message["List-Unsubscribe"] is None
