"""The three doors share one parser: the MTA pipe command, the HTTP endpoint
(raw MIME, and django-anymail's normalised inbound), and the SMTP listener."""

from __future__ import annotations

import base64
import io
import json
import smtplib
import sys

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import RequestFactory

from games.models import Event
from games.stream import store
from games.stream.derived import engine_for
from notifications.models import InboundMessage
from tests.notifications.conftest import new_duel, reply_mail


def first_card(game, seat):
    game.refresh_from_db()
    return store.load(game, engine_for(game)).state["hands"][seat][0]


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], options={"rounds": 1}, seed=7)  # as new_duel makes it


@pytest.mark.django_db
def test_receive_email_reads_a_message_on_stdin(game, alice, monkeypatch, capsys):
    raw = reply_mail(alice, game, 0, f"commit {first_card(game, 0)}")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    call_command("receive_email")
    assert capsys.readouterr().out.startswith("applied")
    assert Event.objects.get(game=game, seq=2).source == "email"


@pytest.mark.django_db
def test_receive_email_takes_the_envelope_recipient(game, alice, monkeypatch, capsys):
    from notifications.addresses import reply_address

    raw = reply_mail(alice, game, 0, "state", to="list@elsewhere.example")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    call_command("receive_email", recipient=[reply_address(game.pk, 0, alice.pk)])
    assert capsys.readouterr().out.startswith("answered")


@pytest.fixture
def secret(settings):
    settings.INBOUND_EMAIL_SECRET = "s3cret-for-tests"
    return settings.INBOUND_EMAIL_SECRET


def post_raw(client, raw: bytes, **headers):
    return client.post("/api/inbound/email/", data=raw, content_type="message/rfc822", **headers)


@pytest.mark.django_db
def test_the_http_door_applies_a_move_with_the_secret(client, game, alice, secret):
    raw = reply_mail(alice, game, 0, f"commit {first_card(game, 0)}")
    response = post_raw(client, raw, HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200
    assert response.json()["status"] == "applied"


@pytest.mark.django_db
def test_the_http_door_takes_basic_auth(client, game, alice, secret):
    token = base64.b64encode(f"inbound:{secret}".encode()).decode()
    response = post_raw(client, reply_mail(alice, game, 0, "help"),
                        HTTP_AUTHORIZATION=f"Basic {token}")  # fmt: skip
    assert response.json()["status"] == "answered"


@pytest.mark.django_db
@pytest.mark.parametrize("auth", ["", "Bearer wrong", "Basic !!!", "Basic d3Jvbmc6d3Jvbmc="])
def test_the_http_door_refuses_a_wrong_secret(client, game, alice, secret, auth):
    response = post_raw(client, reply_mail(alice, game, 0, "commit 1"), HTTP_AUTHORIZATION=auth)
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    assert InboundMessage.objects.count() == 0


@pytest.mark.django_db
def test_the_http_door_is_closed_without_a_secret(client, game, alice, settings):
    settings.INBOUND_EMAIL_SECRET = ""
    response = post_raw(client, reply_mail(alice, game, 0, "commit 1"),
                        HTTP_AUTHORIZATION="Bearer ")  # fmt: skip
    assert response.status_code == 404


@pytest.mark.django_db
def test_the_http_door_answers_a_huge_mail_cleanly(client, game, alice, secret):
    attachment = base64.b64encode(b"\0" * 10_000_000).decode()
    raw = reply_mail(alice, game, 0, "commit 1\n\n" + attachment)
    response = post_raw(client, raw, HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200
    assert response.json()["reason"] == "too_large"
    game.refresh_from_db()
    assert game.seq == 1


@pytest.mark.django_db
def test_anymail_inbound_webhooks_reach_the_same_parser(game, alice, settings):
    from anymail.webhooks.postmark import PostmarkInboundWebhookView

    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    raw = reply_mail(alice, game, 0, f"commit {first_card(game, 0)}").decode()
    request = RequestFactory().post(
        "/anymail/postmark/inbound/",
        data=json.dumps({"RawEmail": raw, "Headers": []}),
        content_type="application/json",
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"hook:secret").decode(),
    )
    response = PostmarkInboundWebhookView.as_view()(request)
    assert response.status_code == 200
    record = InboundMessage.objects.get()
    assert (record.door, record.status) == ("anymail:postmark", "applied")


def test_the_smtp_listener_applies_a_reply(smtpd, alice, bob):
    game = new_duel(alice, bob)
    raw = reply_mail(alice, game, 0, f"commit {first_card(game, 0)}")
    with smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as client:
        refused = client.sendmail("alice@example.org", [f"play+x@{'play.correo.test'}"], raw)
    assert refused == {}
    assert Event.objects.get(game=game, seq=2).source == "email"
    # the answer went out when the move committed (eager Celery, locmem backend here)
    assert any("done" in m.subject for m in mail.outbox if m.to == ["alice@example.org"])


def test_the_smtp_listener_refuses_other_domains(smtpd):
    with (
        smtplib.SMTP("127.0.0.1", smtpd, timeout=10) as client,
        pytest.raises(smtplib.SMTPRecipientsRefused),
    ):
        client.sendmail("a@example.org", ["someone@example.org"], b"Subject: x\r\n\r\nx")
