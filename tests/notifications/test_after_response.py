"""A request's outbox rows are published once its response is written
(notifications.after_response): the player who moved does not wait for the
broker, and a process that dies between the commit and the publish loses
nothing, because the outbox sweep sends what was never published, once."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.test.client import RequestFactory
from django.utils import timezone

from accounts import tokens
from notifications import tasks
from notifications.models import Notification
from tests.notifications.conftest import new_duel
from tests.support.play import hand

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def move_without_closing(game, user, seat: int):
    """The WSGI server's side of a move up to the moment it has written the
    answer, and not further: `close()`, which a server calls next, is left
    to the test (a process killed there never calls it)."""
    _, key = tokens.issue(user, "test")
    body = {"seq": game.seq, "action": {"type": "commit", "card": hand(game, seat)[0]}}
    request = RequestFactory().post(
        f"/api/games/{game.pk}/actions/", json.dumps(body),
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}",
    )  # fmt: skip
    statuses: list[str] = []
    response = WSGIHandler()(request.environ, lambda status, headers: statuses.append(status))
    assert statuses == ["201 Created"], b"".join(response)
    return response


def sent_to(sink, user) -> int:
    return len(sink.to(user.email))


def the_move_leaves_mail_pending(game, alice, bob, sink):
    """Both commit: the second commit opens the next phase and mails who acts."""
    move_without_closing(game, alice, 0).close()
    before = {u.pk: sent_to(sink, u) for u in (alice, bob)}
    response = move_without_closing(game, bob, 1)
    pending = Notification.objects.filter(game=game, seq=3, status=Notification.Status.PENDING)
    assert pending.exists()  # written with the event, durable, not yet handed on
    assert {u.pk: sent_to(sink, u) for u in (alice, bob)} == before
    return response, list(pending), before


def test_the_mail_is_published_when_the_answer_has_been_written(alice, bob, sink):
    game = new_duel(alice, bob)
    response, pending, before = the_move_leaves_mail_pending(game, alice, bob, sink)
    response.close()  # the server wrote the answer
    for row in pending:
        row.refresh_from_db()
        assert row.status == Notification.Status.SENT
    assert sum(sent_to(sink, u) for u in (alice, bob)) == sum(before.values()) + len(pending)


def test_a_process_that_dies_before_publishing_loses_no_mail_and_sends_none_twice(
    alice, bob, sink, settings
):
    settings.NOTIFICATIONS_SWEEP_GRACE = 30
    game = new_duel(alice, bob)
    _dead, pending, before = the_move_leaves_mail_pending(game, alice, bob, sink)
    assert tasks.sweep_outbox() == 0  # fresh rows are left to their own publish
    a_minute_ago = timezone.now() - datetime.timedelta(minutes=1)
    Notification.objects.filter(pk__in=[row.pk for row in pending]).update(created_at=a_minute_ago)
    assert tasks.sweep_outbox() == len(pending)
    assert tasks.sweep_outbox() == 0
    assert sum(sent_to(sink, u) for u in (alice, bob)) == sum(before.values()) + len(pending)
