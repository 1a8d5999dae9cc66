"""Grant (or with --revoke, take away) the moderator role."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User


class Command(BaseCommand):
    help = "Make a user a moderator (--revoke to undo)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--revoke", action="store_true")

    def handle(self, *args, username: str, revoke: bool, **options):
        updated = User.objects.filter(username=username).update(is_moderator=not revoke)
        if not updated:
            raise CommandError(f"no user named {username!r}")
        role = "no longer a moderator" if revoke else "now a moderator"
        self.stdout.write(f"{username} is {role}")
