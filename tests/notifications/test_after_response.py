"""A request's outbox rows are published once its response is written
(ops.after_response), and so is the push to open pages: the player who
moved does not wait for the broker, and a process that dies between the
commit and the publish loses nothing, because the outbox sweep sends what
was never published, once.

The first two tests drive Django's WSGI handler in this process, with Celery
eager; the others run the deployed stack: gunicorn in a process of its own,
a real Celery worker on the real Redis, and, in one, a web process killed
between writing a move's answer and publishing its mail."""

from __future__ import annotations

import datetime
import json
import time

import pytest
import redis
from django.core.handlers.wsgi import WSGIHandler
from django.test.client import RequestFactory
from django.utils import timezone

from accounts import tokens
from notifications import tasks
from notifications.models import Notification
from tests.notifications.conftest import new_duel
from tests.support.play import hand
from tests.support.server import web_server
from tests.support.waiting import wait_until
from web import push

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


@pytest.mark.redis
def test_the_push_to_open_pages_waits_for_the_answer_too(alice, bob, sink, settings):
    """web.push tells open pages of a move through Redis; in a request that
    publish waits, like the mail's, until the server has written the answer."""
    from django.conf import settings as live

    settings.REDIS_URL = live.CACHES["default"]["LOCATION"]
    game = new_duel(alice, bob)
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(push.channel())
    try:
        listener.get_message(timeout=1)  # the subscription's confirmation
        response = move_without_closing(game, alice, 0)
        assert listener.get_message(timeout=0.3) is None
        response.close()
        heard = listener.get_message(timeout=2)
        assert heard is not None and heard["data"] == f"{game.pk} 2".encode()
    finally:
        listener.close()


def statuses(game, seq: int) -> list[str]:
    rows = Notification.objects.filter(game=game, seq=seq)
    return sorted(rows.values_list("status", flat=True))


def second_commit_over_http(web, game, alice, bob) -> int:
    """Alice commits, then Bob, through the web process; Bob's move opens
    the next phase and writes a "your turn" row (seq 3) for who acts next.
    Returns how many rows that move wrote."""
    for user, seat in ((alice, 0), (bob, 1)):
        body = {"seq": game.seq, "action": {"type": "commit", "card": hand(game, seat)[0]}}
        answer = web.call("POST", f"/api/games/{game.pk}/actions/", tokens.issue(user)[1], body)
        assert answer.status == 201, answer.body
        game.refresh_from_db()
    written = Notification.objects.filter(game=game, seq=3).count()
    assert written > 0
    return written


# slow, as the next: a gunicorn process and a real worker, seconds a test.
@pytest.mark.redis
@pytest.mark.slow
def test_a_real_worker_sends_the_mail_published_after_the_answer_once(
    worker, sink, alice, bob, tmp_path, settings
):
    game = new_duel(alice, bob)
    wait_until(lambda: statuses(game, 1) == ["sent", "sent"])  # the game's opening mail
    with web_server(
        tmp_path, REDIS_URL=settings.REDIS_URL, NOTIFICATIONS_QUEUE=settings.NOTIFICATIONS_QUEUE,
        CORREO_EMBEDDED_SWEEP="0",
    ) as web:  # fmt: skip
        written = second_commit_over_http(web, game, alice, bob)
        wait_until(lambda: statuses(game, 3) == ["sent"] * written)
    time.sleep(0.5)  # a second send would land here
    assert tasks.sweep_outbox() == 0
    assert len(sink.messages) == 2 + written
    assert statuses(game, 3) == ["sent"] * written


def killed_workers(web) -> int:
    return sum("was sent SIGKILL" in line.get("message", "") for line in web.log_lines())


@pytest.mark.redis
@pytest.mark.slow
def test_a_web_process_killed_between_the_commit_and_the_publish_loses_no_mail(
    worker, sink, alice, bob, tmp_path, settings
):
    """The web process is killed after writing the move's answer, before
    the response's close() publishes; gunicorn starts another.  The row is
    durable and pending, no worker ever heard of it, and the outbox sweep
    (once NOTIFICATIONS_SWEEP_GRACE has passed) has it sent once."""
    game = new_duel(alice, bob)
    wait_until(lambda: statuses(game, 1) == ["sent", "sent"])
    with web_server(
        tmp_path, wsgi="tests.support.dying_wsgi", REDIS_URL=settings.REDIS_URL,
        NOTIFICATIONS_QUEUE=settings.NOTIFICATIONS_QUEUE, CORREO_EMBEDDED_SWEEP="0",
    ) as web:  # fmt: skip
        written = second_commit_over_http(web, game, alice, bob)
        # one death after each move's answer: neither move published anything
        wait_until(lambda: killed_workers(web) == 2)
    time.sleep(1)  # what a publish would have given the worker time to send
    assert statuses(game, 3) == ["pending"] * written
    assert len(sink.messages) == 2
    settings.NOTIFICATIONS_SWEEP_GRACE = 30
    assert tasks.sweep_outbox() == 0  # a fresh row is left to its own publish
    a_minute_ago = timezone.now() - datetime.timedelta(minutes=1)
    Notification.objects.filter(game=game, seq=3).update(created_at=a_minute_ago)
    assert tasks.sweep_outbox() == written
    wait_until(lambda: statuses(game, 3) == ["sent"] * written)
    assert tasks.sweep_outbox() == 0
    time.sleep(0.5)
    assert len(sink.messages) == 2 + written
