"""On PostgreSQL, refuse TRUNCATE of the event table too.

Row triggers (0002) do not fire on TRUNCATE, which empties the table at once.
The statement trigger reuses the function that refuses UPDATE and DELETE.
Whoever owns the table can still disable it (ALTER TABLE games_event DISABLE
TRIGGER games_event_no_truncate); the chain's seals (games.chain) are what
detects a rewrite by such a user.
"""

from django.db import migrations

CREATE = """
CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_change();
"""

DROP = "DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;"


def _run_on_postgresql(schema_editor, sql: str) -> None:
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)


def install(apps, schema_editor):
    _run_on_postgresql(schema_editor, CREATE)


def remove(apps, schema_editor):
    _run_on_postgresql(schema_editor, DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_chain_commitments_and_seals")]

    operations = [migrations.RunPython(install, remove)]
