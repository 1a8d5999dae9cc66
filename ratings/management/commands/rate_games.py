"""Ratings from the finished games' streams (docs/ratings.md).

manage.py rate_games            every rating again from nothing
manage.py rate_games --pending  rate the finished games not rated yet
manage.py rate_games --verify   recompute and compare; exit 1 on any difference
"""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand

from games.audit import release_gate
from ratings import updates, verification


class Command(BaseCommand):
    help = "Rebuild the ratings from the finished games' streams, or check them (--verify)."

    def add_arguments(self, parser) -> None:
        group = parser.add_mutually_exclusive_group()
        group.add_argument(
            "--verify",
            action="store_true",
            help="recompute every rating and report each difference (exit 1)",
        )
        group.add_argument("--pending", action="store_true",
                           help="rate the finished games that are not rated yet")  # fmt: skip

    def handle(self, *args, verify: bool = False, pending: bool = False, **options) -> None:
        started = time.monotonic()
        if verify:
            # One read-only snapshot (games.audit.release_gate): the check
            # writes nothing, and ratings changing meanwhile are not taken
            # for differences.
            with release_gate.read_only():
                found = verification.problems()
            for line in found:
                self.stdout.write(line)
            if found:
                self.stderr.write(f"rate_games --verify: {len(found)} difference(s)")
                sys.exit(1)
            self.stdout.write("rate_games --verify: every rating recomputes")
            return
        if pending:
            count = updates.do_rate_pending()
            self.stdout.write(f"rated {count} game(s)")
            return
        count = updates.do_rebuild()
        seconds = time.monotonic() - started
        self.stdout.write(f"rebuilt from {count} rated game(s) in {seconds:.1f} s")
