"""The release gate: `verify_games --status active --read-only` before a
release goes live (deploy/README.md).

It reads the live database with the new release's engines, so it must not
write to it: everything it reads is read in one read-only transaction
(PostgreSQL refuses any write in it; SQLite's query_only likewise), which
also keeps out any write a later option of the command might add.  On
PostgreSQL that transaction is REPEATABLE READ: the gate runs while the old
release still serves, and in one snapshot a move landing between its read
of a game row and its read of the game's events is not taken for a stream
that disagrees with its row.

A transaction, not the session: behind a pooler in transaction mode
(PgBouncer) a `SET SESSION` lands on whichever server connection the pool
hands out, stays there for the next client (live web processes whose every
write then fails) and does not follow the gate's own next statement.  A
transaction holds one server connection from its start to its end, and
leaves nothing behind it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection, transaction


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Every statement until the end in one transaction that cannot write;
    rolled back at the end, whatever happened in it."""
    sqlite = _sqlite_query_only() if connection.vendor == "sqlite" else contextlib.nullcontext()
    outermost = not connection.in_atomic_block
    with sqlite, transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # The isolation level only as the transaction's first statement;
                # READ ONLY at any point (only the way back is refused).
                cursor.execute(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
                    if outermost
                    else "SET TRANSACTION READ ONLY"
                )
        try:
            yield
        finally:
            transaction.set_rollback(True)


@contextlib.contextmanager
def _sqlite_query_only() -> Iterator[None]:
    """SQLite has no read-only transaction; its connection is never pooled."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA query_only = ON")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = OFF")
