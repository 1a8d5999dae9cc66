"""The real SMTP sink of the notification tests, for tests here that read mail."""

from tests.notifications.conftest import sink  # noqa: F401
