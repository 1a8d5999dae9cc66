"""Replay every game and check every hash chain; non-zero exit on any problem."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.verification import all_problems


class Command(BaseCommand):
    help = "Replay every game with the current engines and check every hash chain."

    def handle(self, *args, **options):
        problems = 0
        for game, problem in all_problems():
            problems += 1
            self.stdout.write(f"game {game.pk} ({game.title}): {problem}")
        if problems:
            self.stderr.write(f"{problems} problem(s) found")
            raise SystemExit(1)
        self.stdout.write("all games verified")
