"""Play-by-email benchmark: mails delivered per second, replies applied per second."""

from __future__ import annotations

from support import django_setup, emit, throwaway_database

django_setup()

from notifications.benchmark import main  # noqa: E402

if __name__ == "__main__":
    main(emit, throwaway_database)
