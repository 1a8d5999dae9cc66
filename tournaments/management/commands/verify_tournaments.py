"""Recompute every tournament's rounds from its seed and results.

manage.py verify_tournaments        every tournament
manage.py verify_tournaments 7 9    these tournaments

Each round's tables, seats and byes are paired again from the rounds
before it (tournaments.selectors.plan_round) and compared with what was
recorded; one line per difference, exit 1 if any.  The standings need no
check: they are computed from the games' results whenever they are read.

A round is paired from the players still in at its start; a player dropped
later is still counted in the rounds before, since the drops are applied
in order (Entry.dropped_in).
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from games.audit import release_gate
from tournaments import selectors
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Pair every tournament's rounds again and report each difference (exit 1)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="tournaments (default: all)")

    def handle(self, *args, ids: list[int], **options) -> None:
        with release_gate.read_only():
            found = Tournament.objects.exclude(status=Tournament.Status.SIGNUP)
            if ids:
                found = found.filter(pk__in=ids)
            problems = [line for t in found.order_by("pk") for line in selectors.differences(t)]
        for line in problems:
            self.stdout.write(line)
        if problems:
            self.stderr.write(f"verify_tournaments: {len(problems)} difference(s)")
            sys.exit(1)
        self.stdout.write("verify_tournaments: every round pairs again as recorded")
