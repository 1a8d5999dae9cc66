"""The flush after each transactional test deletes only the rows there are
(tests/conftest.py): it must still leave every table empty, keep the
content types, and leave the event table's guards on."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from tests.conftest import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

KEPT = {"django_content_type", "auth_permission"}


def tables_with_rows() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            table = model._meta.db_table
            if table not in KEPT:
                cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
                counts[table] = cursor.fetchone()[0]
    return {table: n for table, n in counts.items() if n}


@pytest.mark.parametrize("statement", ["DELETE FROM games_event", "TRUNCATE games_event CASCADE"])
@pytest.mark.parametrize("reset_sequences", [False, True])
def test_the_flush_empties_every_table_and_leaves_the_event_guards_on(
    make_game, statement, reset_sequences
):
    make_game(players=[make_user("ann"), make_user("ben")])
    assert {"accounts_user", "games_game", "games_event"} <= set(tables_with_rows())
    kinds, permissions = ContentType.objects.count(), Permission.objects.count()

    # As TransactionTestCase calls it after each test (reset_sequences=True
    # when the test asks for it).
    call_command("flush", interactive=False, verbosity=0, reset_sequences=reset_sequences)

    assert tables_with_rows() == {}
    assert ContentType.objects.count() == kinds > 0
    assert Permission.objects.count() == permissions > 0
    make_game(players=[make_user("cat"), make_user("dan")])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert "games_event" in tables_with_rows()
