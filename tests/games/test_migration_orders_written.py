"""Migration games/0028 gives the game row its `orders_written` flag: a game
where a standing order was written before the flag existed must still fire
its orders after the deploy, so the migration sets the flag from the
order entries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Game

BEFORE = [("games", "0027_listed_order")]
AFTER = [("games", "0028_orders_written")]

# slow: migrates the test database back and forth.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_games_with_order_entries_are_flagged_and_the_others_are_not():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        apps = executor.loader.project_state(BEFORE).apps
        games = apps.get_model("games", "Game")
        entries = apps.get_model("games", "OrderEvent")
        fields = {"title": "pointcity", "options": {}, "engine_version": 1, "seed": 1,
                  "salt": "s", "seq": 1}  # fmt: skip
        with_orders, without = (games.objects.create(**fields) for _ in range(2))
        entries.objects.create(game=with_orders, seat=0, kind="written", order=1, at=1,
                               payload={}, created_at=timezone.now(), key="w:1")  # fmt: skip
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(AFTER)
        flags = dict(Game.objects.values_list("pk", "orders_written"))
        assert flags == {with_orders.pk: True, without.pk: False}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
