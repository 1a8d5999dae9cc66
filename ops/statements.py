"""The hot paths' own statements: a cursor that prepares them.

Building a query with the ORM costs this server about a third of a
millisecond of CPU, more than PostgreSQL takes to run it, and planning a
statement took PostgreSQL three times as long as running it.  The few
statements that every move or every API request makes are written out
(games.stream.sql, accounts.tokens) and run here, prepared once per
connection; what they read becomes model instances through ops.rows.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections


class _PreparingCursor(psycopg.Cursor):
    """A psycopg cursor that binds on the server and prepares each statement
    the first time a connection runs it."""

    def execute(self, query, params=None, *, prepare=True, binary=None):
        return super().execute(query, params, prepare=prepare, binary=binary)


def cursor():
    """A cursor for such statements: on PostgreSQL, unless
    CORREO_PREPARED_STATEMENTS is off, one that prepares them; elsewhere
    Django's own."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql" or not settings.CORREO_PREPARED_STATEMENTS:
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    prepared = _PreparingCursor(db.connection)
    if db.queries_logged:
        return db.make_debug_cursor(prepared)
    return db.make_cursor(prepared)


def rows(sql: str, params: list[Any]) -> list[tuple]:
    """Every row `sql` gives for `params`."""
    with cursor() as prepared:
        prepared.execute(sql, params)
        return prepared.fetchall()
