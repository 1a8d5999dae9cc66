"""Replay every game and check every hash chain; non-zero exit on any problem."""

from __future__ import annotations

import contextlib

from django.core.management.base import BaseCommand

from games import gate
from games.models import Game
from games.verification import all_problems


class Command(BaseCommand):
    help = "Replay every game with the current engines and check every hash chain."

    def add_arguments(self, parser):
        parser.add_argument(
            "--status", choices=Game.Status.values,
            help="check only the games of this status (the release gate checks active ones)",
        )  # fmt: skip
        parser.add_argument(
            "--read-only", action="store_true",
            help="open the database session read-only (the release gate: nothing is written)",
        )  # fmt: skip

    def handle(self, *args, status: str | None = None, read_only: bool = False, **options):
        problems = 0
        with gate.read_only() if read_only else contextlib.nullcontext():
            found = gate.problems_with_status(status) if status else all_problems()
            for game, problem in found:
                problems += 1
                self.stdout.write(f"game {game.pk} ({game.title}): {problem}")
        if problems:
            self.stderr.write(f"{problems} problem(s) found")
            raise SystemExit(1)
        self.stdout.write("all games verified")
