"""The release gate: `verify_games --status active --read-only` before a
release goes live (deploy/README.md).

It reads the live database with the new release's engines, so it must not
write to it: the session is made read-only (PostgreSQL refuses any write in
it, SQLite's query_only likewise), which also keeps out any write a later
option of the command might add.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection

_READ_ONLY = {
    "postgresql": ("SET SESSION default_transaction_read_only = on",
                   "SET SESSION default_transaction_read_only = off"),
    "sqlite": ("PRAGMA query_only = ON", "PRAGMA query_only = OFF"),
}  # fmt: skip


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Every statement of this connection's session read-only, until the end."""
    on, off = _READ_ONLY[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(on)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(off)
