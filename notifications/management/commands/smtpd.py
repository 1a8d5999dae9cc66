"""A small SMTP listener for inbound replies (after healthchecks' smtpd command):
`manage.py smtpd --host 127.0.0.1 --port 2525`.

It accepts mail for REPLY_DOMAIN only and answers DATA once the message has
been processed by the same function as the other doors: 250 when it was
dealt with (applied, answered, rejected with an answer by mail, a duplicate),
451 4.3.0 when the database is unavailable (nothing was recorded: the sending
MTA tries again, and the Message-ID keeps the retry to one processing), and
554 5.6.0 for a mail that can never be processed.  A crash before the answer
also makes the sending MTA try again.
"""

from __future__ import annotations

import asyncio

from aiosmtpd.controller import Controller
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connection

from notifications import inbound


def _process(raw: bytes, recipients: list[str], mail_from: str) -> inbound.Outcome:
    close_old_connections()
    try:
        return inbound.receive(raw, door="smtpd", recipients=recipients, mail_from=mail_from)
    finally:
        # A pool thread may never run again: leave no connection behind it.
        connection.close()


class InboundHandler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        domain = address.rpartition("@")[2].lower()
        if domain != settings.REPLY_DOMAIN.lower():
            return "550 5.1.1 not a mailbox here"
        if len(envelope.rcpt_tos) >= 20:
            return "452 4.5.3 too many recipients"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="replace")
        outcome = await sync_to_async(_process, thread_sensitive=False)(
            raw, list(envelope.rcpt_tos), envelope.mail_from or ""
        )
        return smtp_reply(outcome)


def smtp_reply(outcome: inbound.Outcome) -> str:
    if outcome.retry:
        return "451 4.3.0 the mail cannot be processed now; try again later"
    if outcome.permanent:
        detail = " ".join(outcome.detail.encode("ascii", "replace").decode().split())[:200]
        return f"554 5.6.0 {detail}"
    return f"250 OK {outcome.status}"


def make_controller(host: str, port: int) -> Controller:
    # The SMTP size limit is well above ours: larger mails are read and answered.
    limit = settings.NOTIFICATIONS_INBOUND_MAX_BYTES * 8
    return Controller(InboundHandler(), hostname=host, port=port, data_size_limit=limit,
                      decode_data=False)  # fmt: skip


class Command(BaseCommand):
    help = "Listen for inbound replies over SMTP."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=2525)

    def handle(self, *args, **options):
        controller = make_controller(options["host"], options["port"])
        controller.start()
        self.stdout.write(f"smtpd listening on {options['host']}:{options['port']}")
        try:
            asyncio.run(_forever())
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()


async def _forever() -> None:
    while True:
        await asyncio.sleep(3600)
