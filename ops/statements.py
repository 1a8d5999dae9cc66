"""The hot paths' own statements: a cursor that prepares them.

Building a query with the ORM costs this server about a third of a
millisecond of CPU, more than PostgreSQL takes to run it, and planning a
statement took PostgreSQL three times as long as running it.  The few
statements that every move or every API request makes are written out
(games.stream.sql, accounts.tokens) and run here, prepared once per
connection; what they read becomes model instances through ops.rows.
Their table and column names come from the models' _meta (the helpers
below), so the statements follow the models.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, models
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper


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
        return _LoggedCursor(prepared, db)
    return db.make_cursor(prepared)


class _LoggedCursor(CursorDebugWrapper):
    """Django's query log (DEBUG, the tests' CaptureQueriesContext) takes a
    statement's text from what psycopg kept of it, and psycopg keeps none
    of a statement it binds on the server: the log said "sql": None.  Here
    each statement is logged by its own text, its parameters filled in."""

    def execute(self, sql, params=None):
        with self.debug_sql(_as_logged(self.db, sql, params), params):
            return CursorWrapper.execute(self, sql, params)


def _as_logged(db, sql: str, params) -> str:
    try:
        return db.ops.compose_sql(sql, params)
    except (DatabaseError, psycopg.Error):
        return sql  # parameters the statement would refuse too: its text alone


def rows(sql: str, params: list[Any]) -> list[tuple]:
    """Every row `sql` gives for `params`."""
    with cursor() as prepared:
        prepared.execute(sql, params)
        return prepared.fetchall()


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[models.Model]) -> str:
    return quote(model._meta.db_table)


def column(model: type[models.Model], field: str) -> str:
    return quote(model._meta.get_field(field).column)


@cache
def select(model: type[models.Model], alias: str | None = None) -> str:
    """A model's concrete columns as a select list, in the order that
    `ops.rows.from_row` reads them, qualified by its table or `alias`."""
    source = alias or table(model)
    return ", ".join(f"{source}.{quote(f.column)}" for f in model._meta.concrete_fields)
