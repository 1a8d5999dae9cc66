"""Notifications fixtures: alice, bob and carol play duel; eve is a stranger.

`sink` is a real SMTP server (aiosmtpd) that Django's SMTP backend delivers
to; `mailbox` reads what it received.  Celery runs eagerly here unless a test
asks for `worker` (a real Celery worker on the real Redis, on a queue of its
own so that nothing else consumes its tasks).
"""

from __future__ import annotations

import socket
import time
import uuid
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from games.services.creation import do_create_game
from notifications.addresses import reply_address
from tests.support.worker import private_queue, real_worker

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items):
    """Every test here is about mail: the outbox is delivered as it is
    written (tests/conftest.py, celery_in_process)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.mail)


class Sink:
    """Collects every message an SMTP client sends to it."""

    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content.replace(b"\r\n", b"\n")
        message = message_from_bytes(raw, policy=default_policy)
        message.envelope_to = list(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list:
        return [m for m in self.messages if address in m.envelope_to]

    def wait_for(self, predicate, timeout: float = 15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [m for m in self.messages if predicate(m)]
            if found:
                return found[-1]
            time.sleep(0.02)
        subjects = [(m["To"], m["Subject"]) for m in self.messages]
        raise AssertionError(f"no such message within {timeout}s; got {subjects}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serving_smtp(handler, settings):
    """An aiosmtpd server on a free port with `handler`, which Django's SMTP
    backend delivers to; stop the returned controller when done."""
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    handler.port = port
    return controller


@pytest.fixture
def sink(settings):
    handler = Sink()
    controller = serving_smtp(handler, settings)
    yield handler
    controller.stop()


@pytest.fixture(autouse=True)
def eager_celery():
    """Tasks run in-process unless the test starts a real worker."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def mail_settings(settings):
    settings.REPLY_DOMAIN = "play.correo.test"
    settings.DEFAULT_FROM_EMAIL = "Correo <correo@correo.test>"
    settings.CORREO_BASE_URL = "https://correo.test"
    settings.NOTIFICATIONS_SWEEP_GRACE = 0


@pytest.fixture
def worker(eager_celery, settings):
    """A real Celery worker (thread, solo pool) on the real Redis."""
    settings.NOTIFICATIONS_QUEUE = private_queue()
    with real_worker(eager_celery, settings.NOTIFICATIONS_QUEUE) as controller:
        yield controller


def new_duel(*players, rounds: int = 1, **settings):
    return do_create_game(title="duel", players=list(players), options={"rounds": rounds},
                          seed=7, **settings)  # fmt: skip


def reply_mail(
    user, game, seat: int, body: str, *, message_id: str | None = None, sender=None,
    to: str | None = None, in_reply_to: str | None = None, extra_headers: str = "",
) -> bytes:  # fmt: skip
    """A plain reply as a mail client would send it."""
    message_id = message_id or f"<{uuid.uuid4().hex}@client.example>"
    to = to or reply_address(game.pk, seat, user.pk)
    lines = [
        f"From: {sender or user.email}",
        f"To: {to}",
        "Subject: Re: [Correo] your turn",
        f"Message-ID: {message_id}",
        "Date: Sun, 22 Nov 2026 10:00:00 +0000",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
    ]
    if in_reply_to:
        lines.append(f"In-Reply-To: {in_reply_to}")
    if extra_headers:
        lines.append(extra_headers.strip())
    return ("\r\n".join(lines) + "\r\n\r\n" + body.replace("\n", "\r\n")).encode()


@pytest.fixture(autouse=True)
def local_webhooks(settings):
    """The webhook tests post to a server on 127.0.0.1."""
    settings.NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE = True


@pytest.fixture
def smtpd(transactional_db):
    """Our own SMTP listener (manage.py smtpd) on a free port: what a mail
    client's reply reaches."""
    from notifications.management.commands.smtpd import make_controller

    port = free_port()
    controller = make_controller("127.0.0.1", port)
    controller.start()
    yield port
    controller.stop()
