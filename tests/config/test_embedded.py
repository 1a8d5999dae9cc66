"""Without a broker the development server runs the beat schedule itself."""

from __future__ import annotations

import datetime

import pytest

from config.celery import app
from games.models import SweepState
from ops import embedded


@pytest.mark.django_db
def test_a_due_entry_of_the_beat_schedule_runs_and_a_later_one_waits():
    entries = {
        "deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
        "outbox": {"task": "notifications.sweep_outbox", "schedule": 3600.0},
    }
    an_hour_ago = app.now() - datetime.timedelta(minutes=61)
    last_run = {"deadlines": an_hour_ago, "outbox": app.now()}
    assert embedded.run_due(app, entries, last_run) == ["deadlines"]
    assert SweepState.objects.filter(name="deadlines").exists()
    assert embedded.run_due(app, entries, last_run) == []


def test_only_the_serving_runserver_process_runs_it(monkeypatch, settings):
    settings.CORREO_EMBEDDED_SWEEP = True
    monkeypatch.setattr("sys.argv", ["manage.py", "runserver"])
    monkeypatch.delenv("RUN_MAIN", raising=False)
    assert embedded.serving_embedded() is False  # the autoreloader's parent
    monkeypatch.setenv("RUN_MAIN", "true")
    assert embedded.serving_embedded() is True
    settings.CORREO_EMBEDDED_SWEEP = False
    assert embedded.serving_embedded() is False
