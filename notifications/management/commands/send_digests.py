"""Send the daily digests now (what celery beat runs once a day)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from notifications import tasks


class Command(BaseCommand):
    help = "Fold held notifications into one digest per player and send them."

    def handle(self, *args, **options):
        self.stdout.write(f"{tasks.send_digests()} digest(s)")
