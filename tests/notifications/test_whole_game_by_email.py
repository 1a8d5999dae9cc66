"""A whole game played from a mail client: outbound mail through a real Celery
worker on Redis to a real SMTP sink, replies sent with smtplib to the smtpd
listener, until the game is over.  Nobody touches the API."""

from __future__ import annotations

import smtplib
import threading
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.db import connection

from games.models import Event, Game
from notifications import tasks
from notifications.management.commands.smtpd import make_controller
from tests.notifications.conftest import free_port, new_duel

# slow: a whole game by email through a real worker.
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def beat(settings):
    """What celery beat does in production: the outbox sweep, here every second
    (for rows the direct after-commit path has not delivered within 3 s)."""
    settings.NOTIFICATIONS_SWEEP_GRACE = 3
    stop = threading.Event()

    def sweep_forever():
        while not stop.wait(1.0):
            tasks.sweep_outbox()
        connection.close()

    thread = threading.Thread(target=sweep_forever, daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(timeout=10)


@pytest.fixture
def listener():
    port = free_port()
    controller = make_controller("127.0.0.1", port)
    controller.start()
    yield port
    controller.stop()


def legal_moves(message) -> list[str]:
    body = message.get_body(("plain",)).get_content()
    block = body.split("Your legal moves (reply with one of these lines):\n\n", 1)[1]
    return [line.strip() for line in block.split("\n\n", 1)[0].splitlines() if line.strip()]


def reply_to(message, sender: str, text: str) -> EmailMessage:
    """What a mail client sends when its user answers above the quote."""
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = message["Reply-To"]
    reply["Subject"] = "Re: " + message["Subject"]
    reply["In-Reply-To"] = message["Message-ID"]
    reply["References"] = message["Message-ID"]
    reply["Message-ID"] = make_msgid(domain="client.example")
    quoted = "\n".join(
        "> " + line for line in message.get_body(("plain",)).get_content().split("\n")
    )
    reply.set_content(f"{text}\n\nOn Sunday, Correo wrote:\n{quoted}\n")
    return reply


def test_a_whole_duel_is_played_by_email(worker, beat, sink, listener, alice, bob):
    game = new_duel(alice, bob, rounds=1)
    answered: set[str] = set()
    # commit, commit (simultaneous), then each draws or passes in seat order
    for player in [alice, bob, alice, bob]:
        turn = sink.wait_for(
            lambda m, p=player: (
                p.email in m.envelope_to
                and m["Subject"].endswith(": your turn")
                and m["Message-ID"] not in answered
            )
        )
        answered.add(turn["Message-ID"])
        move = legal_moves(turn)[0]
        reply = reply_to(turn, player.email, move)
        with smtplib.SMTP("127.0.0.1", listener, timeout=10) as client:
            client.send_message(reply)
        confirmation = sink.wait_for(lambda m, r=reply: m["In-Reply-To"] == r["Message-ID"])
        assert confirmation["Subject"].endswith(": done")
        assert f"> {move}\n  OK: applied" in confirmation.get_body(("plain",)).get_content()
    for player in [alice, bob]:
        sink.wait_for(lambda m, p=player: p.email in m.envelope_to and "game over" in m["Subject"])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    moves = Event.objects.filter(game=game, kind="action")
    assert [e.source for e in moves] == ["email"] * 4
    message_ids = [m["Message-ID"] for m in sink.messages]
    assert len(message_ids) == len(set(message_ids))  # each notification went out once
