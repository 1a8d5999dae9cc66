"""Queue undelivered notifications and webhooks again (what celery beat runs
every minute)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from notifications import tasks


class Command(BaseCommand):
    help = (
        "Re-queue pending notifications that are due and those whose worker died, "
        "and the same for their webhooks."
    )

    def handle(self, *args, **options):
        self.stdout.write(f"{tasks.sweep_outbox()} notification(s) queued")
        self.stdout.write(f"{tasks.sweep_webhooks()} webhook(s) queued")
