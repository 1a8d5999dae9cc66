"""Import a game from a complete export file (docs/export-format.md).

The import is a moderator's act, recorded in the game's final note under the
account `--by` names, as an import through the API is.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from rest_framework.exceptions import ParseError

from games.audit.exchange import imported_lines
from games.errors import ServiceError
from games.services.importing import check_import_game
from ops.parsers import decode, load_json


class Command(BaseCommand):
    help = (
        "Import a game from a complete export (a moderator's, or one made after the game "
        "ended).  Accounts: --map old=new for existing ones, --placeholders for the rest."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the export (- for stdin)")
        parser.add_argument(
            "--by", required=True, metavar="MODERATOR",
            help="the moderator the import is recorded under",
        )  # fmt: skip
        parser.add_argument(
            "--map", action="append", default=[], metavar="OLD=NEW",
            help="play the export's account OLD as this server's account NEW (repeatable)",
        )  # fmt: skip
        parser.add_argument(
            "--placeholders", action="store_true",
            help="create an inactive account for each account not mapped",
        )  # fmt: skip
        parser.add_argument(
            "--accept-unverified-seals", action="store_true",
            help="import even events whose seals this server cannot check (another server's "
            "key, or none): nothing vouches for them, and the game is marked imported "
            "unverified for good",
        )  # fmt: skip

    def handle(
        self, *args, file: Path, by: str, map: list[str], placeholders: bool,
        accept_unverified_seals: bool, **options,
    ):  # fmt: skip
        from accounts.models import User

        moderator = User.objects.filter(username=by).first()
        if moderator is None:
            raise CommandError(f"no user named {by!r}")
        mapping = {}
        for pair in map:
            old, sep, new = pair.partition("=")
            if not sep or not old or not new:
                raise CommandError(f"--map takes OLD=NEW, not {pair!r}")
            mapping[old] = new
        try:
            raw = file.read_bytes() if str(file) != "-" else self.stdin_bytes()
            document = load_json(decode(raw, "utf-8"))
            game = check_import_game(
                moderator, document, mapping=mapping, placeholders=placeholders,
                accept_unverified_seals=accept_unverified_seals,
            )  # fmt: skip
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        except ParseError as error:
            raise CommandError(str(error.detail)) from None
        except ServiceError as error:
            raise CommandError(error.message) from None
        for line in imported_lines(game):
            self.stdout.write(line)

    def stdin_bytes(self) -> bytes:
        import sys

        return sys.stdin.buffer.read()
