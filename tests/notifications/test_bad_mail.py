"""Bad input at every inbound door: a mail that cannot be read gets a clear
permanent answer from the door, is recorded as refused, changes nothing in
the game, and is bounced by mail only to an address of one of our accounts.

Every sample carries a legal move from the seat's player, so that a door that
read past the damage would apply it."""

from __future__ import annotations

import base64
import io
import json
import random
import smtplib
import sys

import pytest
from django.core.management import call_command
from django.test import RequestFactory

from games.models import Event
from notifications import anymail_urls
from notifications.addresses import reply_address
from notifications.inbound import PERMANENT
from notifications.management.commands.smtpd import make_controller
from notifications.models import InboundMessage, Notification
from tests.notifications.conftest import free_port, new_duel
from tests.support.play import hand

SECRET = "s3cret-for-tests"
HOOK = "hook:secret"


def mail(game, user, body: bytes, *, headers: bytes = b"", content: bytes = b"") -> bytes:
    """alice's reply to her seat's address, with `body` as given (raw bytes)."""
    lines = [
        b"From: " + user.email.encode(),
        b"To: " + reply_address(game.pk, 0, user.pk).encode(),
        b"Subject: Re: [Correo] your turn",
        b"Message-ID: <" + random.randbytes(8).hex().encode() + b"@client.example>",
        b"MIME-Version: 1.0",
        content or b"Content-Type: text/plain; charset=utf-8",
    ]
    if headers:
        lines.append(headers)
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def nested(depth: int, inner: bytes) -> bytes:
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(1, depth)
    )
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(1, depth)))
    return opening + b"Content-Type: text/plain\r\n\r\n" + inner + closing


def folded(name: bytes, size: int) -> bytes:
    return name + b": " + b"\r\n ".join([b"x" * 900] * (size // 900))


def garbage(seed: int) -> bytes:
    """Random bytes in lines short enough for SMTP (a longer line is refused by
    the listener before any parsing: see the test at the end)."""
    data = random.Random(seed).randbytes(5000)
    return b"\r\n".join(data[i : i + 76] for i in range(0, len(data), 76))


def b64(data: bytes) -> bytes:
    return base64.encodebytes(data).replace(b"\n", b"\r\n")


# name -> (raw of alice's mail given her legal move, whether it names her as sender)
SAMPLES = {
    "a NUL byte in the body": lambda m: (m.base(m.move.encode() + b"\x00\r\n"), True),
    "a NUL byte in a header": lambda m: (
        m.base(m.move.encode(), headers=b"X-Mailer: Mutt\x00 1.0"), True),
    "a NUL encoded in the text": lambda m: (m.base(
        b64(m.move.encode() + b"\x00\r\n"),
        content=b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64",
    ), True),
    "invalid UTF-8 in the text": lambda m: (m.base(m.move.encode() + b"\r\nbye \xff\xfe"), True),
    "a lone surrogate as UTF-8 bytes": lambda m: (m.base(m.move.encode() + b" \xed\xa0\x80"),
                                                  True),
    "a lone surrogate in UTF-7": lambda m: (m.base(
        m.move.encode() + b"\r\n+2AA-",
        content=b"Content-Type: text/plain; charset=utf-7"), True),
    "a lone surrogate in UTF-16": lambda m: (m.base(
        b64(m.move.encode("utf-16-le") + b"\x00\xd8"),
        content=b"Content-Type: text/plain; charset=utf-16-le\r\n"
                b"Content-Transfer-Encoding: base64"), True),
    "invalid Shift JIS": lambda m: (m.base(
        m.move.encode() + b"\r\n\x81\x7f\xa0",
        content=b"Content-Type: text/plain; charset=shift_jis"), True),
    "a lone surrogate in an encoded Subject": lambda m: (m.base(
        m.move.encode(), headers=b"Subject: =?utf-8?b?" + base64.b64encode(b"\xed\xa0\x80")
        + b"?="), True),
    "invalid UTF-8 in the From header": lambda m: (m.base(m.move.encode()).replace(
        b"From: ", b"From: Al\xff\xfe <", 1).replace(b"example.org\r\n", b"example.org>\r\n", 1),
        True),
    # 3000 levels break the standard library's parser, 900 only its writer
    "3000 nested multiparts": lambda m: (m.nested(3000), True),
    "900 nested multiparts": lambda m: (m.nested(900), True),
    "a 100 kB header": lambda m: (m.base(m.move.encode(), headers=folded(b"X-Long", 100_000)),
                                  True),
    "a 100 kB To header": lambda m: (m.base(m.move.encode(), headers=b"Cc: " + b",\r\n ".join(
        [b"someone@example.org"] * 5000)), True),
    "binary garbage": lambda m: (garbage(7), False),
    "binary garbage without NUL bytes": lambda m: (garbage(8).replace(b"\x00", b"\x01"), False),
}  # fmt: skip


class Mails:
    def __init__(self, game, alice) -> None:
        self.game, self.alice = game, alice
        self.move = f"commit {hand(game, 0)[0]}"

    def base(self, body: bytes, **kwargs) -> bytes:
        return mail(self.game, self.alice, body, **kwargs)

    def nested(self, depth: int) -> bytes:
        body = b"--b0\r\n" + nested(depth, self.move.encode()) + b"\r\n--b0--\r\n"
        return self.base(body, content=b'Content-Type: multipart/mixed; boundary="b0"')


# Each door: how it is handed a raw mail, and the permanent answer it gives.
def through_pipe(raw: bytes, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    call_command("receive_email")  # exit 0: the MTA must not bounce it (backscatter)
    status, reason = capsys.readouterr().out.split()[:2]
    assert status == "rejected" and reason in PERMANENT


def through_http(raw: bytes, client) -> None:
    response = client.post("/api/inbound/email/", data=raw, content_type="message/rfc822",
                           HTTP_AUTHORIZATION=f"Bearer {SECRET}")  # fmt: skip
    assert response.status_code == 200  # a provider retries anything else
    assert response.json()["status"] == "rejected"
    assert response.json()["reason"] in PERMANENT


def through_anymail(raw: bytes) -> None:
    [view] = [p.callback for p in anymail_urls.urlpatterns if p.name == "postmark_inbound_webhook"]
    text = raw.decode("utf-8", "surrogateescape")  # JSON carries what the provider got
    request = RequestFactory().post(
        "/anymail/postmark/inbound/", content_type="application/json",
        data=json.dumps({"RawEmail": text, "Headers": []}),
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(HOOK.encode()).decode(),
    )  # fmt: skip
    response = view(request)
    assert response.status_code == 200


def through_smtp(raw: bytes, port: int, to: str) -> None:
    with (
        smtplib.SMTP("127.0.0.1", port, timeout=30) as client,
        pytest.raises(smtplib.SMTPDataError) as refused,
    ):
        client.sendmail("alice@example.org", [to], raw)
    assert refused.value.smtp_code == 554
    assert refused.value.smtp_error.startswith(b"5.6.0 ")


@pytest.fixture
def doors(settings):
    settings.INBOUND_EMAIL_SECRET = SECRET
    settings.ANYMAIL = {"WEBHOOK_SECRET": HOOK}


def check_refused(game, alice, bounced: bool, maybe: bool = False) -> None:
    game.refresh_from_db()
    assert game.seq == 1
    assert not Event.objects.filter(game=game, source="email").exists()
    [record] = InboundMessage.objects.all()
    assert record.status == "rejected" and record.reason in PERMANENT
    assert not Notification.objects.filter(kind="reply").exists()
    bounces = [b.to_email for b in Notification.objects.filter(kind="rejection")]
    expected = ["alice@example.org"] if bounced else []
    assert bounces == expected or (maybe and bounces == [])


@pytest.mark.django_db
@pytest.mark.parametrize("door", ["pipe", "http", "anymail"])
@pytest.mark.parametrize("sample", SAMPLES)
def test_unreadable_mail_is_refused_for_good_and_changes_nothing(
    door, sample, alice, bob, doors, client, monkeypatch, capsys
):
    game = new_duel(alice, bob)
    raw, from_alice = SAMPLES[sample](Mails(game, alice))
    if door == "pipe":
        through_pipe(raw, monkeypatch, capsys)
    elif door == "http":
        through_http(raw, client)
    else:
        through_anymail(raw)
    # anymail hands over nothing of a mail its own parser breaks on: no sender to tell
    check_refused(game, alice, bounced=from_alice, maybe=door == "anymail")


@pytest.fixture
def smtpd(transactional_db):
    port = free_port()
    controller = make_controller("127.0.0.1", port)
    controller.start()
    yield port
    controller.stop()


@pytest.mark.parametrize("sample", SAMPLES)
def test_unreadable_mail_is_refused_at_smtp_data_with_554(sample, smtpd, alice, bob):
    game = new_duel(alice, bob)
    raw, from_alice = SAMPLES[sample](Mails(game, alice))
    through_smtp(raw, smtpd, reply_address(game.pk, 0, alice.pk))
    check_refused(game, alice, bounced=from_alice)


def test_a_single_header_line_past_the_smtp_limit_is_refused_by_the_listener(smtpd, alice, bob):
    game = new_duel(alice, bob)
    raw = Mails(game, alice).base(b"commit 1", headers=b"X-Long: " + b"x" * 100_000)
    with (
        smtplib.SMTP("127.0.0.1", smtpd, timeout=30) as client,
        pytest.raises(smtplib.SMTPDataError) as refused,
    ):
        client.sendmail("alice@example.org", [reply_address(game.pk, 0, alice.pk)], raw)
    assert refused.value.smtp_code == 500  # RFC 5321 line limit, before any parsing
    assert InboundMessage.objects.count() == 0
    game.refresh_from_db()
    assert game.seq == 1


@pytest.mark.django_db
def test_a_mail_without_a_body_is_answered_with_help_and_changes_nothing(alice, bob, client,
                                                                          doors):  # fmt: skip
    game = new_duel(alice, bob)
    raw = Mails(game, alice).base(b"").rstrip(b"\r\n")  # headers only, not even an empty line
    response = client.post("/api/inbound/email/", data=raw, content_type="message/rfc822",
                           HTTP_AUTHORIZATION=f"Bearer {SECRET}")  # fmt: skip
    assert response.json()["status"] == "answered"
    game.refresh_from_db()
    assert game.seq == 1
    [answer] = Notification.objects.filter(kind="reply")
    assert answer.context["show_help"] is True
