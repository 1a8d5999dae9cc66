"""Queue undelivered notifications again (what celery beat runs every minute)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from notifications import tasks


class Command(BaseCommand):
    help = "Re-queue pending notifications that are due and those whose worker died."

    def handle(self, *args, **options):
        self.stdout.write(f"{tasks.sweep_outbox()} notification(s) queued")
