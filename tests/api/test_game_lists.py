"""One account's many delayed games cannot slow another user's game list.

The attack: one account starts hundreds of public games whose spectators
see them late.  Every other user may list them, and each listed game's
place follows what its spectators see.  That place is kept on the game row
(games.stream.spectators), so the list and the dashboard sort and page in the
database: the queries a request makes do not grow with the games there are.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.selectors import listing
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.stream import store
from tests.conftest import make_user
from tests.support.play import current_state

ATTACK = 600
MOVED = 3
# Whether she plays a delayed game (her order is then not the index's), the
# count, the page, its seats, their users.
LIST_QUERIES = 5
# The session and its user, two pages, their seats and players, their last
# moves (which, then those events), my invitations, my waiting tables.
DASHBOARD_QUERIES = 10
# A listed game whose spectators' point this process has not seen yet: who
# was to act there is replayed once (its undos, snapshot and events).
REPLAY_QUERIES = 3


@pytest.fixture
def flood(db):
    """flood(n): n public games with a delay of one move, all started by one
    account (with an accomplice), the way the attack made them; the newest
    few have a move, so their spectators see them one move late."""
    mallory, accomplice = make_user("mallory"), make_user("accomplice")

    def make(count: int) -> list[Game]:
        games = [
            do_create_game(
                title="duel", players=[mallory, accomplice], creator=mallory, spectator_delay=1
            )
            for _ in range(count)
        ]
        for game in games[-MOVED:]:
            card = current_state(game)["hands"][0][0]
            check_submit_action(game, mallory, text=f"commit {card}", expected_seq=1)
        return games

    return make


def forget_states() -> None:
    """Measure a process that has seen none of these games."""
    listing._to_act_seen.clear()
    store.forget_all()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("count", [10, ATTACK])
def test_another_users_list_costs_the_same_whatever_one_account_floods(
    as_, eve, flood, count, django_assert_max_num_queries
):
    games = flood(count)
    client = as_(eve)
    client.get("/api/games/")  # her token, looked up once
    forget_states()
    with django_assert_max_num_queries(LIST_QUERIES + MOVED * REPLAY_QUERIES):
        page = client.get("/api/games/").json()
    assert page["count"] == count
    assert len(page["results"]) == min(count, 25)
    # newest first, by what the spectators see: each game as created
    assert [entry["id"] for entry in page["results"]] == [game.pk for game in games[::-1][:25]]
    for entry in page["results"]:
        assert (entry["seq"], entry["to_act"]) == (1, [0, 1])  # one move late
    with django_assert_max_num_queries(LIST_QUERIES):
        assert client.get("/api/games/").json() == page
    with django_assert_max_num_queries(LIST_QUERIES):
        assert client.get("/api/games/?page=2&page_size=5").status_code == 200


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("count", [10, ATTACK])
def test_another_users_dashboard_costs_the_same_whatever_one_account_floods(
    eve, alice, flood, count, django_assert_max_num_queries
):
    do_create_game(title="duel", players=[eve, alice])  # a game of her own
    flood(count)
    browser = Client()
    browser.force_login(eve)
    forget_states()
    with django_assert_max_num_queries(DASHBOARD_QUERIES + MOVED * REPLAY_QUERIES):
        page = browser.get("/")
    assert page.status_code == 200
    assert page.content.count(b"mallory") >= min(count, 20)
    with django_assert_max_num_queries(DASHBOARD_QUERIES):
        assert browser.get("/").status_code == 200
