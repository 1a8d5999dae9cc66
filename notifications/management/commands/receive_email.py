"""For an MTA pipe: `manage.py receive_email [--recipient ADDR] < message.eml`.

Exit status 0 once the message was dealt with, whatever it held (it was
applied, answered, or refused and recorded): the MTA must not bounce it, since
its bounce would go to any envelope sender (backscatter); refusals are mailed
by Correo itself, to addresses of its accounts only.  75 (EX_TEMPFAIL) when it
could not be read from stdin or the database is unavailable (nothing was
recorded): the MTA keeps the message and tries again.
Postfix: `correo unix - n n - - pipe flags=R user=correo argv=/srv/correo/.venv/bin/python
/srv/correo/manage.py receive_email --recipient ${original_recipient}`.
"""

from __future__ import annotations

import os
import sys

from django.conf import settings
from django.core.management.base import BaseCommand

from notifications import inbound

EX_TEMPFAIL = 75  # sysexits.h: what MTAs retry on


class Command(BaseCommand):
    help = "Read one raw RFC 822 message on stdin and process it as a reply."

    def add_arguments(self, parser):
        parser.add_argument(
            "--recipient",
            action="append",
            default=[],
            help="envelope recipient (repeatable); also $ORIGINAL_RECIPIENT",
        )

    def handle(self, *args, **options):
        recipients = list(options["recipient"])
        if os.environ.get("ORIGINAL_RECIPIENT"):
            recipients.append(os.environ["ORIGINAL_RECIPIENT"])
        try:
            # Read past the limit so that an oversized mail is recognised (and answered).
            raw = sys.stdin.buffer.read(settings.NOTIFICATIONS_INBOUND_MAX_BYTES + 65536)
            sys.stdin.buffer.read()  # drain the rest: the MTA must see a reader to the end
        except OSError as error:
            self.stderr.write(f"could not read the message: {error}")
            sys.exit(EX_TEMPFAIL)
        outcome = inbound.receive(raw, door="pipe", recipients=recipients)
        if outcome.retry:
            self.stderr.write(f"{outcome.detail} (exit 75: the MTA tries again)")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{outcome.status} {outcome.reason} {outcome.detail}".strip())
