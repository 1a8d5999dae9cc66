"""Replay every game and check every hash chain; non-zero exit on any problem.

Games imported with seals nothing here could check are listed too, without
failing the run: a moderator accepted them, and a release must not wait on
them, but whoever reads the verification should know which events nobody
here vouches for."""

from __future__ import annotations

import contextlib
import os

from django.core.management.base import BaseCommand, CommandError

from games.audit import checkpoints as published
from games.audit import release_gate as gate
from games.audit import sweep
from games.audit.verification import unverified_imports
from games.models import Game
from games.services.queue import check_flag_broken
from games.stream import chain


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
        parser.add_argument(
            "--checkpoints", metavar="SOURCE", action="append", default=[],
            help="a checkpoint log (CHECKPOINT_LOG) or a witness's mirror: report every game "
            "whose stream is shorter than, or differs from, a checkpoint signed there "
            "(may be given more than once)",
        )  # fmt: skip
        parser.add_argument(
            "--incremental", action="store_true",
            help="check only the games changed since they were last found clean by an "
            "incremental run, and remember the heads of those found clean now (the nightly "
            "check; a whole run, as the release gate's, also finds an event rewritten under "
            "an unchanged head)",
        )  # fmt: skip
        parser.add_argument(
            "--jobs", type=int, default=1, metavar="N",
            help="check in N processes (the games dealt out by id); 1 unless given",
        )  # fmt: skip
        parser.add_argument(
            "--flag", action="store_true",
            help="file a moderator queue item for each failing game (without it the command "
            "only reads: the release gate relies on that)",
        )  # fmt: skip

    def handle(
        self, *args, status=None, read_only=False, flag=False, checkpoints=(),
        incremental=False, jobs=1, **options,
    ):  # fmt: skip
        if read_only and flag:
            raise CommandError("--flag writes queue items; it cannot run --read-only")
        if read_only and incremental:
            raise CommandError("--incremental remembers what it found clean; it cannot run "
                               "--read-only")  # fmt: skip
        if not 1 <= jobs <= 64:
            raise CommandError("--jobs takes a number of processes from 1 to 64")
        for source in checkpoints:
            if not os.path.isfile(source):
                raise CommandError(f"--checkpoints {source}: no such file")
        failing: dict[int, tuple[Game, list[str]]] = {}
        unplaced = 0
        with gate.read_only() if read_only else contextlib.nullcontext():
            clean, games = [], 0
            for found in sweep.checked(status=status, incremental=incremental, jobs=jobs):
                games += 1
                if not found.problems:
                    clean.append(found)
                for problem in found.problems:
                    self.stdout.write(f"game {found.game_id} ({found.title}): {problem}")
                    failing.setdefault(found.game_id, (found.game_id, []))[1].append(problem)
            if incremental:
                sweep.remember(clean)
                self.stdout.write(f"{games} game(s) changed since they were last found clean")
            for source in checkpoints:
                for finding in published.problems_against(published.read_source(source)):
                    problem = f"checkpoints in {source}: {finding.problem}"
                    game = Game.objects.filter(pk=finding.game).first()
                    if game is None:
                        unplaced += 1
                        self.stdout.write(problem)
                        continue
                    self.stdout.write(f"game {game.pk} ({game.title}): {problem}")
                    failing.setdefault(game.pk, (game.pk, []))[1].append(problem)
            unverified = 0
            for game, seqs in unverified_imports(status=status):
                unverified += 1
                self.stdout.write(
                    f"game {game.pk} ({game.title}): imported unverified: the seals of events "
                    f"{chain.runs_text(seqs) or 'none'} could not be checked when it was "
                    "imported; nothing here vouches for them"
                )
        if flag:
            filed = [
                check_flag_broken(Game.objects.get(pk=pk), found) for pk, found in failing.values()
            ]
            self.stdout.write(f"{sum(item is not None for item in filed)} queue item(s) filed")
        problems = unplaced + sum(len(found) for _, found in failing.values())
        if problems:
            self.stderr.write(f"{problems} problem(s) found")
            raise SystemExit(1)
        if unverified:
            self.stdout.write(
                f"all games verified, {unverified} of them imported unverified (listed above)"
            )
        else:
            self.stdout.write("all games verified")
