"""Run one deadline sweep by hand (what celery beat runs every minute)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from games.tasks import sweep_and_queue


class Command(BaseCommand):
    help = "Repair outages, send due reminders and queue due timeouts, once."

    def handle(self, *args, **options):
        self.stdout.write(json.dumps(sweep_and_queue()))
