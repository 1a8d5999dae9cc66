"""A refused mail is answered to its From only if that is one of our players,
and the answer carries none of the mail's words: a From is anyone's to
write, so an attacker could otherwise have Correo deliver their text (a
subject, a charset's name, a Message-ID) to any player's inbox.

Through real SMTP both ways: the mail goes to our listener (manage.py
smtpd), the answer comes out through Django's SMTP backend to a sink."""

from __future__ import annotations

import smtplib

import pytest

from notifications.addresses import reply_address
from notifications.models import InboundMessage
from tests.notifications.conftest import new_duel

SPAM = "WIN-A-PRIZE"
SPAM_SITE = "prize.spam.example"


def forged(to: str, *, headers: str = "", body: bytes = b"commit 1\r\n") -> bytes:
    """A mail that says it is from alice, with the attacker's words wherever
    a header lets them stand."""
    lines = [
        "From: alice@example.org",
        f"To: {to}",
        f"Subject: {SPAM} now at https://{SPAM_SITE}/claim",
        f"Message-ID: <{SPAM}@{SPAM_SITE}>",
        "Date: Sun, 22 Nov 2026 10:00:00 +0000",
        "MIME-Version: 1.0",
    ]
    if headers:
        lines.append(headers)
    else:
        lines.append("Content-Type: text/plain; charset=utf-8")
    return "\r\n".join(lines).encode() + b"\r\n\r\n" + body


def send(port: int, raw: bytes, to: str) -> None:
    code = 250
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        try:
            client.sendmail("alice@example.org", [to], raw)
        except smtplib.SMTPDataError as refused:  # a mail no one can read: refused for good
            code = refused.smtp_code
    assert code in (250, 554)


def check_no_echo(sink) -> None:
    answer = sink.wait_for(lambda m: "alice@example.org" in m.envelope_to)
    assert answer["Subject"] == "[Correo] your mail was not accepted"
    whole = answer.as_string()
    assert SPAM not in whole and SPAM_SITE not in whole, whole
    assert "did not act on it" in whole


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        ("signature", "bad_signature"),  # a reply address whose signature fails
        ("seat", "wrong_sender"),  # a real reply address of bob's seat
        ("charset", "malformed"),  # a charset whose name is the attacker's words
    ],
)
def test_a_rejection_to_a_forged_sender_repeats_none_of_their_words(
    smtpd, sink, alice, bob, spoil, reason
):
    game = new_duel(alice, bob)
    good = reply_address(game.pk, 0, alice.pk)
    to, headers, body = good, "", b"commit 1\r\n"
    if spoil == "signature":
        to = good.replace(f"+{game.pk}-0-", f"+{game.pk}-1-")
    elif spoil == "seat":
        to = reply_address(game.pk, 1, bob.pk)
    else:
        headers = f'Content-Type: text/plain; charset="{SPAM}.{SPAM_SITE}"'
        body = b"commit \xff\xfe\r\n"
    send(smtpd, forged(to, headers=headers, body=body), to)
    check_no_echo(sink)
    [record] = InboundMessage.objects.all()
    assert record.reason == reason
    # the ledger, which only moderators read, keeps what came in
    assert SPAM in record.subject
