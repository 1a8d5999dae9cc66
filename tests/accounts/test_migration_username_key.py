"""Migration accounts/0009 adds the username key columns to accounts that
exist: twins made before the rules (a letter case apart, look-alikes) do not
stop it, are reported, and every account still logs in."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts import usernames
from accounts.models import User

BEFORE = [("accounts", "0006_api_tokens")]
AFTER = [("accounts", "0007_username_key")]
PASSWORD = "correct horse 42"

# Names an account could have before the rules: Django's own validator (the
# admin) allowed @ + and case twins; a script, anything.
OLD_NAMES = ["Alice", "alice", "ALICE", "bill", "biII", "a b", "x@y.org", "bot:greedy:0", "dora"]

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def old_schema():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        yield executor.loader.project_state(BEFORE).apps
    finally:
        migrate_to_the_end()


def migrate_to(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def migrate_to_the_end() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_existing_twins_are_kept_reported_and_each_logs_in(old_schema, capsys):
    OldUser = old_schema.get_model("accounts", "User")
    from games.models import Game, Seat  # their tables are the same before and after

    ids = {}
    for name in OLD_NAMES:
        ids[name] = OldUser.objects.create(username=name, password=make_password(PASSWORD)).pk
    # rows that refer to the accounts, as a live database has
    game = Game.objects.create(title="duel", engine_version=1, seed=1, salt="s")
    Seat.objects.create(game=game, index=0, user_id=ids["alice"])

    migrate_to(AFTER)
    report = capsys.readouterr().out
    migrate_to_the_end()  # the account model of today has the later columns too
    for twin, first in [("alice", "Alice"), ("ALICE", "Alice"), ("biII", "bill")]:
        assert f"{twin!r} (id {ids[twin]}) passes for {first!r}" in report
        assert User.objects.get(pk=ids[twin]).username_key.endswith(f"#{ids[twin]}") or (
            User.objects.get(pk=ids[twin]).username_look_key.endswith(f"#{ids[twin]}")
        )
    assert "'dora'" not in report
    dora = User.objects.get(username="dora")
    assert (dora.username_key, dora.username_look_key) == (
        usernames.key("dora"), usernames.look_key("dora"),
    )  # fmt: skip
    for name in OLD_NAMES:
        assert authenticate(username=name, password=PASSWORD).pk == ids[name], name
    # a name typed in another case finds the first of the twins
    assert authenticate(username="aLiCe", password=PASSWORD).pk == ids["Alice"]
    assert authenticate(username="X@Y.ORG", password=PASSWORD).pk == ids["x@y.org"]


def test_the_columns_refuse_new_twins_after_the_migration(old_schema):
    OldUser = old_schema.get_model("accounts", "User")
    OldUser.objects.create(username="alice")
    migrate_to(AFTER)
    migrate_to_the_end()
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        User.objects.create(username="ALICE")
