"""A failed delivery is either transient (retried with backoff) or a bug
(not retried: logged with its traceback, counted, flagged for an operator)."""

from __future__ import annotations

import copy
import logging

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory
from django.utils import timezone
from prometheus_client import REGISTRY

from notifications import delivery, render
from notifications.admin import NotificationAdmin
from notifications.models import Notification
from tests.notifications.conftest import Sink, new_duel, serving_smtp

pytestmark = pytest.mark.django_db


def turn_of(user) -> Notification:
    return Notification.objects.get(user=user, kind="your_turn")


def failures(cause: str, kind: str = "your_turn") -> float:
    labels = {"cause": cause, "kind": kind}
    return REGISTRY.get_sample_value("correo_notification_failures_total", labels) or 0.0


def delivery_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "notifications.delivery"]


class Busy(Sink):
    """An SMTP server that answers DATA with a temporary refusal (4xx) while
    `busy`, and takes the mail once it is not."""

    busy = True

    async def handle_DATA(self, server, session, envelope):
        if self.busy:
            return "451 4.3.0 Mail server busy, try again later"
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def busy(settings):
    handler = Busy()
    controller = serving_smtp(handler, settings)
    yield handler
    controller.stop()


@pytest.fixture
def broken_template(settings, tmp_path):
    """An override of the turn mail's text body (as an operator would put one
    in a template directory) that does not compile."""
    override = tmp_path / "notifications" / "emails" / "your_turn-body.txt"
    override.parent.mkdir(parents=True)
    override.write_text("Hello {{ username }}\n{% if %}your move{% endif %}\n")
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [str(tmp_path)]
    settings.TEMPLATES = templates
    return override


@pytest.fixture
def raising_render(monkeypatch):
    """A bug in the code that builds the mail's context."""

    def game_facts(game, seat, seq, **_):
        return {"title": "x"}["players"]

    monkeypatch.setattr(render, "game_facts", game_facts)


@pytest.mark.parametrize(
    ("fault", "error"),
    [("broken_template", "TemplateSyntaxError"), ("raising_render", "KeyError")],
)
def test_a_bug_is_not_retried_but_logged_counted_and_flagged(
    alice, bob, sink, caplog, request, fault, error
):
    new_duel(alice, bob)
    request.getfixturevalue(fault)
    n = turn_of(alice)
    counted = failures("bug"), failures("transient")
    with caplog.at_level(logging.WARNING, logger="notifications.delivery"):
        assert delivery.deliver(n.pk) == "bug"
    assert sink.messages == []
    n.refresh_from_db()
    assert (n.status, n.needs_attention, n.attempts) == ("failed", True, 1)
    assert n.next_attempt_at is None
    assert n.last_error.startswith(error) and "Traceback (most recent call last)" in n.last_error
    [record] = delivery_records(caplog)
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert record.exc_info[0].__name__ == error
    assert (failures("bug"), failures("transient")) == (counted[0] + 1, counted[1])
    # Nothing tries it again: not the sweep, not another task for the row.
    assert n.pk not in delivery.sweep()
    assert delivery.deliver(n.pk) == "not-due"
    assert Notification.objects.get(pk=n.pk).attempts == 1


def test_a_temporary_smtp_refusal_is_retried_with_backoff(alice, bob, busy, caplog):
    new_duel(alice, bob)
    n = turn_of(alice)
    counted = failures("bug"), failures("transient")
    with caplog.at_level(logging.WARNING, logger="notifications.delivery"):
        assert delivery.deliver(n.pk) == "retry"
    n.refresh_from_db()
    assert (n.status, n.needs_attention, n.attempts) == ("pending", False, 1)
    assert n.next_attempt_at > timezone.now()
    assert "451" in n.last_error and "SMTPDataError" in n.last_error
    [record] = delivery_records(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert (failures("bug"), failures("transient")) == (counted[0], counted[1] + 1)
    assert busy.messages == []
    # The server takes mail again; once due, the same row goes out.
    busy.busy = False
    assert n.pk not in delivery.sweep()  # not yet due
    Notification.objects.filter(pk=n.pk).update(next_attempt_at=timezone.now())
    assert n.pk in delivery.sweep()
    assert delivery.deliver(n.pk) == "sent"
    [message] = busy.to("alice@example.org")
    assert message["Message-ID"] == n.message_id


def test_the_operator_sees_flagged_rows_and_sends_them_again(alice, bob, sink, raising_render):
    new_duel(alice, bob)
    n = turn_of(alice)
    assert delivery.deliver(n.pk) == "bug"
    admin = NotificationAdmin(Notification, site)
    assert "needs_attention" in admin.list_display and "needs_attention" in admin.list_filter
    flagged = Notification.objects.filter(needs_attention=True)
    assert list(flagged) == [n]

    request = RequestFactory().post("/admin/notifications/notification/")
    request._messages = []  # what message_user needs, without the middleware
    admin.message_user = lambda request, message: request._messages.append(message)
    admin.send_again(request, flagged)
    n.refresh_from_db()
    assert (n.status, n.needs_attention, n.attempts, n.last_error) == ("pending", False, 0, "")
    assert n.pk in delivery.sweep()
