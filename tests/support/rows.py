"""What "changes nothing" compares: every row of some tables, cheaply.

On PostgreSQL the database digests each table's rows itself (their text, in
primary-key order), so a check costs one round trip whatever the tables
hold; the suite makes it after each of some thousands of refused requests.
SQLite has no such aggregate, and there the rows themselves are compared.
Either way a change to any column of any row shows, and the assertion names
the table it happened in.
"""

from __future__ import annotations

from django.db import connection


def rows_of(*models) -> dict[str, object]:
    """A table name -> a fingerprint of all its rows, for each model."""
    if connection.vendor != "postgresql":
        return {m._meta.db_table: list(m.objects.order_by("pk").values_list()) for m in models}
    parts = []
    for model in models:
        table = connection.ops.quote_name(model._meta.db_table)
        pk = connection.ops.quote_name(model._meta.pk.column)
        parts.append(
            f"SELECT %s, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.{pk}), ''))"
            f" FROM {table} t"
        )
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), [m._meta.db_table for m in models])
        return dict(cursor.fetchall())
