"""On PostgreSQL, make event rows immutable in the database itself.

The model already refuses update and delete; the trigger also stops raw SQL,
a shell session or another program.  Disable it only knowingly:
ALTER TABLE games_event DISABLE TRIGGER games_event_immutable.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_event_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_event rows are immutable (% refused); append an event instead', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_event_immutable
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS games_event_immutable ON games_event;
DROP FUNCTION IF EXISTS games_event_refuse_change();
"""


def _run_on_postgresql(schema_editor, sql: str) -> None:
    if schema_editor.connection.vendor == "postgresql":
        # A plain cursor: the PL/pgSQL body contains '%' placeholders of its own.
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)


def install(apps, schema_editor):
    _run_on_postgresql(schema_editor, CREATE)


def remove(apps, schema_editor):
    _run_on_postgresql(schema_editor, DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
