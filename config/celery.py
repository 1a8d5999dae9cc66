"""The Celery app; tasks are discovered in the Django apps."""

from __future__ import annotations

import os

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("correo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class HandOff(bootsteps.StartStopStep):
    """Every worker drains the hand-off (notifications.handoff): the web
    processes push the rows they wrote, and the worker makes the Celery
    publish that would have cost each move half a millisecond of CPU."""

    def __init__(self, parent, **options) -> None:
        super().__init__(parent, **options)
        self.drain = None

    def start(self, parent) -> None:
        from notifications.tasks import drain_handoff  # Django is set up by now

        self.drain = drain_handoff()

    def stop(self, parent) -> None:
        if self.drain is not None:
            self.drain.stop()
            self.drain = None

    terminate = stop


app.steps["worker"].add(HandOff)
