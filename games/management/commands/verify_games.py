"""Replay every game and check every hash chain; non-zero exit on any problem."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.services.queue import check_flag_broken
from games.verification import all_problems


class Command(BaseCommand):
    help = "Replay every game with the current engines and check every hash chain."

    def add_arguments(self, parser):
        parser.add_argument(
            "--flag",
            action="store_true",
            help="file a moderator queue item for each failing game (without it the command "
            "only reads: the release gate relies on that)",
        )

    def handle(self, *args, **options):
        problems = 0
        failing: dict[int, tuple] = {}
        for game, problem in all_problems():
            problems += 1
            self.stdout.write(f"game {game.pk} ({game.title}): {problem}")
            failing.setdefault(game.pk, (game, []))[1].append(problem)
        if options["flag"]:
            filed = sum(
                check_flag_broken(game, found) is not None for game, found in failing.values()
            )
            self.stdout.write(f"{filed} queue item(s) filed")
        if problems:
            self.stderr.write(f"{problems} problem(s) found")
            raise SystemExit(1)
        self.stdout.write("all games verified")
