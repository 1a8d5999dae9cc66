"""Write one game as a JSON document (docs/export-format.md) to stdout."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.audit import exchange
from games.errors import ServiceError
from games.selectors import viewers


class Command(BaseCommand):
    help = (
        "Export a game as one JSON document: --full for everything (what a moderator "
        "gets), or --as USERNAME for exactly what that user may see."
    )

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--as", dest="username", help="export what this user may see")
        who.add_argument("--full", action="store_true", help="export everything")

    def handle(self, *args, game_id: int, username: str | None, full: bool, **options):
        from accounts.models import User

        try:
            game = viewers.game(game_id)
            if full:
                viewer = exchange.full_viewer(game)
            else:
                user = User.objects.filter(username=username).first()
                if user is None:
                    raise CommandError(f"no user named {username!r}")
                viewer = viewers.viewer_of(game, user)
            document = exchange.export(game, viewer)
        except ServiceError as error:
            raise CommandError(error.message) from None
        self.stdout.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")))
