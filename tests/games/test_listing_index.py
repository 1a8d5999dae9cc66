"""Lists of games are read off an index, newest first, however many games
there are: the order's expression and the index's are one
(games.models.listed_at), and this holds them together.  The planner is
told not to sort nor scan the table, so a plan that still sorts means the
index cannot serve the order (at a million games, a second a dashboard)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.selectors import listing
from games.services.creation import do_create_game

pytestmark = pytest.mark.postgres


def plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.fixture
def games(alice, bob, carol):
    for n in range(3):
        do_create_game(title="duel", players=[alice, bob], seed=n, spectator_delay=n % 2)
    do_create_game(title="duel", players=[carol, bob], seed=9)


def test_the_games_to_watch_are_read_off_the_listed_index(games, carol):
    watch = listing.games_for(carol).exclude(seats__user=carol)
    found = plan(listing.newest_first(watch, carol)[:20])
    assert "game_listed_idx" in found and "Sort" not in found


def test_the_archive_of_one_status_is_read_off_the_index_that_leads_with_it(games, carol):
    """Not the plain one: the finished games would come after every newer
    running one, all read and passed over."""
    archive = listing.games_for(carol, title="duel", status="finished")
    found = plan(listing.newest_first(archive, carol)[:26])
    assert "game_status_listed_idx" in found and "Sort" not in found


def test_a_moderators_list_is_read_off_the_index_of_last_changes(games, mo):
    found = plan(listing.newest_first(listing.games_for(mo), mo)[:26])
    assert "game_updated_idx" in found and "Sort" not in found


def test_a_player_of_a_delayed_game_has_the_list_in_their_own_order(games, alice):
    """Their own delayed game sorts by its last change, which the index of
    strangers' times cannot give: the database sorts (the order itself is
    tests/api/test_spectator_delay.py's)."""
    found = plan(listing.newest_first(listing.games_for(alice), alice)[:26])
    assert "game_listed_idx" not in found
