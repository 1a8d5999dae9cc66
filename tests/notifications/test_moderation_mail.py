"""Mail around a moderator's acts: the new player's "you joined", the old
player's replies refused and unsent mail withheld, the abort's reason in
every later mail, a lock told to the table."""

from __future__ import annotations

import pytest

from games.services.abort import check_abort
from games.services.clocks import check_lock
from games.services.replacement import check_replace_seat
from notifications import delivery, inbound, render
from notifications.models import Notification
from tests.notifications.conftest import reply_mail
from tests.support.play import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], options={"rounds": 1}, seed=7)  # as new_duel makes it


def test_the_new_player_gets_a_joined_mail_with_the_seats_view(game, bob, charlie, mo):
    bobs_hand = hand(game, 1)
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    joined = Notification.objects.get(user=charlie)
    assert (joined.kind, joined.seat, joined.game) == ("joined", 1, game)
    message = render.build_message(joined)
    assert "a moderator gave you seat 1" in message.body and "bob left" in message.body
    assert message.reply_to == [render.reply_address(game.pk, 1, charlie.pk)]
    assert all(f"commit {card}" in message.body for card in bobs_hand)


def test_the_joined_mail_speaks_german_to_a_german_player(game, charlie, mo):
    type(charlie).objects.filter(pk=charlie.pk).update(language="de")
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    message = render.build_message(Notification.objects.get(user__username="charlie"))
    assert "Ein Moderator hat dir Platz 1" in message.body


def test_a_reply_from_the_old_player_is_refused_and_changes_nothing(game, bob, charlie, mo):
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    outcome = inbound.receive(reply_mail(bob, game, 1, f"commit {hand(game, 1)[0]}"), door="t")
    assert (outcome.status, outcome.reason) == ("rejected", "expired")
    game.refresh_from_db()
    assert game.seq == 2
    outcome = inbound.receive(reply_mail(charlie, game, 1, f"commit {hand(game, 1)[0]}"),
                              door="t")  # fmt: skip
    assert outcome.status == "applied"


def test_mail_not_yet_sent_to_the_old_player_is_not_sent(game, bob, charlie, mo):
    [turn] = Notification.objects.filter(user=bob, kind="your_turn")
    Notification.objects.filter(pk=turn.pk).update(status="pending")
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    assert delivery.deliver(turn.pk) == "skipped"


def test_every_later_mail_about_an_aborted_game_gives_the_reason(game, alice, mo):
    check_abort(game, mo, reason="a broken setup")
    over = Notification.objects.get(user=alice, kind="game_over")
    assert "A moderator's reason: a broken setup" in render.build_message(over).body
    html = render.build_message(over).alternatives[0][0]
    assert "a broken setup" in html
    reply = inbound.receive(reply_mail(alice, game, 0, "state"), door="t")
    answer = Notification.objects.get(pk__gt=over.pk, user=alice, kind="reply")
    assert reply.status == "answered"
    assert "A moderator's reason: a broken setup" in render.build_message(answer).body


def test_a_lock_is_told_to_the_players(game, alice, mo):
    check_lock(game, mo, reason="a dispute about a card")
    told = Notification.objects.get(user=alice, kind="clock")
    body = render.build_message(told).body
    assert "locked this game" in body and "a dispute about a card" in body


def test_the_help_names_the_report_command():
    assert "report <reason>" in str(render.HELP_TEXT)
