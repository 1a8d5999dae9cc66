"""What a forger with the table owner's rights does to the event table."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connection


@contextmanager
def triggers_disabled():
    """The event table's triggers off (PostgreSQL; SQLite has none), as an
    attacker who owns the table would turn them off first."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        # The test's own inserts leave deferred FK checks pending; ALTER TABLE
        # refuses to run until they have fired.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE games_event DISABLE TRIGGER USER")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE games_event ENABLE TRIGGER USER")
