"""Mirror a Correo server's checkpoint feed and report any contradiction;
non-zero exit when there is one (games.audit.witness)."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.audit import witness


class Command(BaseCommand):
    help = "Mirror a server's checkpoint feed into a file; report what contradicts it."

    def add_arguments(self, parser):
        parser.add_argument("feed", help="the feed's address, e.g. https://host/api/checkpoints/")
        parser.add_argument("--mirror", required=True, help="the mirror file (JSON lines)")
        parser.add_argument("--token", help="an API token of any account on that server")
        parser.add_argument(
            "--key", action="append", default=[], metavar="KEY_ID:PUBLIC_HEX",
            help="pin this public key instead of trusting the keys the feed first announces",
        )  # fmt: skip

    def handle(self, *args, feed, mirror, token=None, key=(), **options):
        pinned = {}
        for value in key:
            match = re.fullmatch(r"([0-9a-f]{16}):([0-9a-f]{64})", value)
            if not match:
                raise CommandError(f"--key {value!r}: expected KEY_ID:PUBLIC_HEX (16 and 64 hex)")
            pinned[match[1]] = match[2]
        try:
            held = witness.Mirror.open(Path(mirror))
            report = witness.witness(feed, held, witness.http_fetch(token), pinned)
        except witness.FeedError as error:
            raise CommandError(f"the feed could not be read: {error}") from error
        for problem in report.problems:
            self.stdout.write(problem)
        self.stdout.write(
            f"{report.mirrored} checkpoint(s) mirrored, {len(report.problems)} contradiction(s)"
        )
        if report.problems:
            raise SystemExit(1)
