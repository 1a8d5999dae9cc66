"""Play-by-email benchmarks, for `make bench` (through bench/bench_notifications.py):

- notifications.delivered_per_second: one Celery worker (solo pool, on Redis
  when REDIS_URL is set, else the eager in-process path) sending rendered
  notifications through Django's SMTP backend to a local aiosmtpd sink;
- notifications.inbound_applied_per_second: reply mails parsed, authenticated
  and applied through `notifications.inbound.receive`.

`main(emit, throwaway_database)` takes bench/support.py's helpers, so this
module stays importable without the bench folder.
"""

from __future__ import annotations

import logging
import socket
import time
import uuid

from aiosmtpd.controller import Controller
from django.conf import settings
from django.test.utils import override_settings

from accounts.models import User
from games.engines import base
from games.services.creation import do_create_game
from games.stream import store
from notifications import inbound
from notifications.addresses import reply_address
from notifications.models import Notification


class _CountingSink:
    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _games(users, count: int):
    return [
        do_create_game(title="duel", players=users, options={"rounds": 5}, seed=i)
        for i in range(count)
    ]


def bench_delivery(emit) -> None:
    from config.celery import app
    from notifications import tasks
    from notifications.tasks import enqueue

    sink, port = _CountingSink(), _free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    smtp = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": port,
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "NOTIFICATIONS_QUEUE": f"correo-bench-{uuid.uuid4().hex[:8]}",
    }
    # Rows as the outbox wrote them, made pending again (they were delivered to
    # locmem, eagerly, when the games were created).
    ids = list(Notification.objects.filter(kind="your_turn").values_list("id", flat=True))
    Notification.objects.filter(pk__in=ids).update(status="pending", attempts=0)
    try:
        with override_settings(**smtp):
            eager = not settings.REDIS_URL
            started = time.perf_counter()
            if eager:
                for notification_id in ids:
                    tasks.deliver(notification_id)
            else:
                from celery.contrib.testing.worker import start_worker

                app.conf.task_always_eager = False
                with start_worker(
                    app, pool="solo", perform_ping_check=False,
                    queues=[settings.NOTIFICATIONS_QUEUE], loglevel="WARNING",
                ):  # fmt: skip
                    started = time.perf_counter()
                    for notification_id in ids:
                        enqueue(tasks.deliver, notification_id)
                    deadline = time.monotonic() + 120
                    while sink.count < len(ids) and time.monotonic() < deadline:
                        time.sleep(0.01)
                app.conf.task_always_eager = True
            elapsed = time.perf_counter() - started
    finally:
        controller.stop()
    emit("notifications.delivered_per_second", sink.count / elapsed, "messages/s",
         messages=sink.count, worker="eager" if eager else "celery-solo-redis")  # fmt: skip


def bench_inbound(emit, users, mails: int = 200) -> None:
    games = _games(users, mails // 2)
    engine = base.get("duel")
    raws = []
    for game in games:
        state = store.load(game, engine).state
        for seat, user in enumerate(users):
            card = state["hands"][seat][0]
            raws.append(
                (
                    f"From: {user.email}\r\nTo: {reply_address(game.pk, seat, user.pk)}\r\n"
                    f"Subject: Re: your turn\r\nMessage-ID: <{uuid.uuid4().hex}@bench>\r\n"
                    "Content-Type: text/plain; charset=utf-8\r\n\r\n"
                    f"commit {card}\r\n\r\nOn Sunday, Correo wrote:\r\n> commit 1\r\n"
                ).encode()
            )
    started = time.perf_counter()
    applied = sum(inbound.receive(raw, door="bench").status == "applied" for raw in raws)
    elapsed = time.perf_counter() - started
    emit("notifications.inbound_applied_per_second", applied / elapsed, "messages/s",
         messages=len(raws), applied=applied)  # fmt: skip


def main(emit, throwaway_database) -> None:
    from config.celery import app
    from tests.support.duel import DUEL

    base.register(DUEL)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    logging.getLogger("celery").setLevel(logging.WARNING)
    locmem = "django.core.mail.backends.locmem.EmailBackend"
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with throwaway_database(), override_settings(EMAIL_BACKEND=locmem):
            users = [
                User.objects.create(username=f"mailbench{i}", email=f"mailbench{i}@example.org")
                for i in range(2)
            ]
            _games(users, 150)
            bench_delivery(emit)
            bench_inbound(emit, users)
    finally:
        app.conf.task_always_eager = eager
