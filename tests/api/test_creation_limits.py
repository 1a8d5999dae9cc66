"""Starting games is limited per account: a rate of its own ("create", the
API and the web form on one counter) and a cap on the running games one
account has started (moderators, who set up games for others, have none).
Past either, nothing is written and the refusal says why, in the same words
on the API and on the page."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from django.db import connection
from django.test import Client

from games.errors import TooManyGames
from games.models import Game, Table
from games.services.abort import check_abort
from games.services.creation import check_create_game, do_create_game
from ops.throttling import FixedWindowRateThrottle
from tests.conftest import make_user
from tests.support.consent import consenting
from tests.support.threads import run_together

GENEROUS = {"anon": "10000/min", "user": "100000/min", "auth": "10000/min"}
REFUSED = "too many games started: wait 30 s and try again"
CAPPED = (
    "you have started 2 games that are still running, the most one account may have at once: "
    "wait until one of them ends"
)


@pytest.fixture
def clock(monkeypatch):
    """The throttles' time, set by the test (seconds)."""
    now = [600.0]
    monkeypatch.setattr(FixedWindowRateThrottle, "timer", lambda self: now[0])
    return now


def start(client, *players: str, **extra):
    body = {"title": "duel", "players": list(players), **extra}
    return client.post("/api/games/", body, format="json")


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_starting_games_past_the_rate_is_a_429_that_writes_nothing(
    as_, alice, bob, throttle_rates, clock
):
    throttle_rates(**GENEROUS, create="2/min")
    consenting(alice, bob)
    consenting(bob, alice)
    client = as_(alice)
    clock[0] = 630.0
    assert [start(client, "alice", "bob").status_code for _ in range(2)] == [201, 201]
    refused = start(client, "alice", "bob")
    assert refused.status_code == 429
    assert refused.json() == {"error": "throttled", "detail": REFUSED}
    assert refused["Retry-After"] == "30"  # the window runs 600 to 660
    assert Game.objects.count() == 2
    assert client.get("/api/games/").status_code == 200  # reading is not starting
    assert start(as_(bob), "bob", "alice").status_code == 201  # his own budget
    clock[0] = 660.0
    assert start(client, "alice", "bob").status_code == 201


def test_the_web_form_shares_the_apis_budget_and_says_the_same(
    as_, alice, bob, throttle_rates, clock
):
    throttle_rates(**GENEROUS, create="2/min")
    consenting(alice, bob)
    clock[0] = 630.0
    assert start(as_(alice), "alice", "bob").status_code == 201
    page = browser(alice)
    # A table opened from the form is a start as the API's are.
    assert page.post("/tables/new/", {"title": "duel"}).status_code == 302
    refused = page.post("/tables/new/", {"title": "duel"})
    assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert "Too many games started: wait 30 s and try again." in refused.content.decode()
    assert start(as_(alice), "alice", "bob").status_code == 429
    opened = as_(alice).post("/api/tables/", {"title": "duel"}, format="json")
    assert opened.status_code == 429
    assert Game.objects.count() == 1 and Table.objects.filter(status="waiting").count() == 1


def test_an_account_may_run_only_so_many_games_it_started(as_, alice, bob, carol, mo, settings):
    settings.CORREO_MAX_ACTIVE_GAMES = 2
    consenting(alice, bob, carol)
    consenting(bob, alice)
    client = as_(alice)
    assert [start(client, "alice", "bob").status_code for _ in range(2)] == [201, 201]
    refused = start(client, "alice", "carol", spectator_delay=1)
    assert refused.status_code == 400
    assert refused.json() == {"error": "too_many_games", "detail": CAPPED}
    assert Game.objects.count() == 2
    # a game someone else started does not count against her, nor do hers against them
    assert start(as_(bob), "bob", "alice").status_code == 201
    # a moderator sets up as many as needed, for others too
    for _ in range(3):
        assert start(as_(mo), "alice", "carol").status_code == 201
    # once one of hers is over, she may start another
    first = Game.objects.filter(created_by=alice).order_by("pk").first()
    check_abort(first, mo, reason="abandoned")
    assert start(client, "alice", "carol").status_code == 201
    assert start(client, "alice", "carol").status_code == 400


def test_the_web_form_says_why_it_started_no_game(alice, bob, settings):
    settings.CORREO_MAX_ACTIVE_GAMES = 1
    consenting(alice, bob)
    page = browser(alice)
    form = page.get("/").content.decode()
    assert "have at most 1 games you started running at once" in form
    assert "start 10000 games a minute" in form
    do_create_game(title="duel", players=[alice, bob], creator=alice)
    again = page.post("/tables/new/", {"title": "duel", "invite": "bob"})
    assert again.status_code == 400
    assert CAPPED.replace("2 games", "1 games") in again.content.decode()
    assert 'value="bob"' in again.content.decode()  # what she typed is still there
    assert Game.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_creations_at_the_same_moment_count_each_other(settings):
    """Without the lock on the account, each of these would count the games
    there were before any of them, and all would pass."""
    settings.CORREO_MAX_ACTIVE_GAMES = 3
    alice, bob = make_user("alice"), make_user("bob")
    consenting(alice, bob)
    do_create_game(title="duel", players=[alice, bob], creator=alice)
    begin = threading.Barrier(6)
    outcomes: list[str] = []

    def creator() -> None:
        try:
            begin.wait()
            check_create_game(alice, title="duel", players=[alice, bob], options=None,
                              public=True, spectator_delay=0, clock=None)  # fmt: skip
            outcomes.append("ok")
        except TooManyGames:
            outcomes.append("capped")
        except Exception as exc:  # recorded so the assertion shows it
            outcomes.append(repr(exc))
        finally:
            connection.close()

    run_together(*(partial(creator) for _ in range(6)))
    assert sorted(outcomes) == ["capped"] * 4 + ["ok"] * 2
    assert Game.objects.filter(created_by=alice, status="active").count() == 3
