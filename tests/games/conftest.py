"""Fixtures of the game-service tests: the real SMTP sink of the notification
tests (for tests here that read mail) and one deadline sweep as beat runs it."""

import pytest

from games import tasks
from tests.notifications.conftest import sink  # noqa: F401


@pytest.fixture
def run_sweep(django_capture_on_commit_callbacks):
    """One sweep at `at`, its claims queued and run as on commit."""

    def run(at):
        with django_capture_on_commit_callbacks(execute=True):
            return tasks.sweep_and_queue(at)

    return run
