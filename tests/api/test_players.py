"""Players: the public profile (member since, games per title, wins, current
public games, reliability from the event log with vacations and outages left
out), the games list's filters and the archive page."""

from __future__ import annotations

import datetime
import random

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Event, Game, Outage, Vacation
from games.selectors import profile
from games.services.abort import check_abort
from games.services.creation import do_create_game
from tests.support.play import random_move


def finish(*players, title="duel", **options):
    game = do_create_game(title=title, players=list(players), options={"rounds": 1}, **options)
    rng = random.Random(7)
    while game.status == "active":
        random_move(game, rng)
        game.refresh_from_db()
    return game


def test_the_profile_counts_games_per_title_and_wins(as_, alice, bob, carol, mo):
    first = finish(alice, bob)
    finish(bob, alice)
    running = do_create_game(title="duel", players=[alice, carol])
    hidden = do_create_game(title="duel", players=[alice, carol], public=False)
    aborted = do_create_game(title="duel", players=[alice, bob])
    check_abort(aborted, mo, reason="x")
    body = as_(None).get("/api/users/alice/").json()
    assert body["username"] == "alice" and body["member_since"]
    [duel] = body["titles"]
    wins = sum(1 for g in Game.objects.filter(status="finished")
               for s in g.seats.filter(user=alice) if s.index in g.result["winners"])  # fmt: skip
    assert (duel["played"], duel["finished"], duel["won"]) == (5, 2, wins)
    assert [g["id"] for g in body["current_games"]] == [running.pk]  # not the private one
    assert hidden.pk not in [g["id"] for g in body["current_games"]]
    assert first.status == "finished"


def test_reliability_counts_moves_and_timeouts(as_, alice, bob):
    game = finish(alice, bob)
    moves = Event.objects.filter(game=game, actor=alice, kind="action").count()
    body = as_(alice).get("/api/users/alice/").json()["reliability"]
    assert body["moves"] == moves > 0 and body["timeouts"] == 0
    assert body["timeouts_per_100_moves"] == 0.0
    assert body["median_seconds_to_move"] is not None


def test_a_kept_profile_follows_every_move_and_every_new_seat(as_, alice, bob, carol):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 2})
    first = as_(None).get("/api/users/alice/").json()
    assert first["reliability"]["moves"] == 0 and len(first["current_games"]) == 1
    assert as_(None).get("/api/users/alice/").json() == first  # kept, and the same
    rng = random.Random(7)
    while not Event.objects.filter(game=game, actor=alice, kind="action").exists():
        random_move(game, rng)
        game.refresh_from_db()
    assert as_(None).get("/api/users/alice/").json()["reliability"]["moves"] == 1
    do_create_game(title="duel", players=[carol, alice])
    assert len(as_(None).get("/api/users/alice/").json()["current_games"]) == 2


def test_no_such_player_is_a_404(as_, alice):
    assert as_(alice).get("/api/users/nobody/").status_code == 404
    assert as_(alice).get("/api/users/bot:random:0/").status_code == 404


def test_time_on_vacation_or_in_an_outage_is_not_time_to_move():
    at = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    hours = [(at + datetime.timedelta(hours=h)) for h in range(30)]
    stood_still = [(hours[2], hours[6]), (hours[5], hours[8]), (hours[20], hours[29])]
    assert profile._counted(hours[0], hours[10], stood_still) == 4 * 3600  # 10 h less 6 h
    assert profile._counted(hours[0], hours[1], stood_still) == 3600
    assert profile._counted(hours[21], hours[22], stood_still) == 0


@pytest.mark.django_db
def test_the_median_leaves_out_a_vacation_and_an_outage(alice, bob):
    game = finish(alice, bob)
    first = game.events.order_by("seq").first().created_at
    Vacation.objects.create(user=alice, starts_at=first - datetime.timedelta(days=9),
                            ends_at=timezone.now() + datetime.timedelta(days=1))  # fmt: skip
    assert profile.reliability(alice)["median_seconds_to_move"] == 0.0
    Outage.objects.create(started_at=first - datetime.timedelta(days=9),
                          ended_at=timezone.now() + datetime.timedelta(days=1))  # fmt: skip
    assert profile.reliability(bob)["median_seconds_to_move"] == 0.0


def test_the_list_filters_by_player_title_and_status(as_, alice, bob, carol, mo):
    done = finish(alice, bob)
    running = do_create_game(title="duel", players=[bob, carol])
    havana = do_create_game(title="havana", players=[alice, carol])
    check_abort(havana, mo, reason="x")

    def ids(query: str) -> list[int]:
        response = as_(carol).get(f"/api/games/?{query}")
        assert response.status_code == 200, response.json()
        return sorted(g["id"] for g in response.json()["results"])

    assert ids("player=alice&status=finished") == [done.pk]
    assert ids("player=bob") == sorted([done.pk, running.pk])
    assert ids("title=havana") == [havana.pk]
    assert ids("status=aborted&player=carol") == [havana.pk]
    assert as_(carol).get("/api/games/?status=lost").status_code == 400


def test_the_profile_and_archive_pages(alice, bob):
    done = finish(alice, bob)
    page = Client().get("/players/alice/").content.decode()
    assert "Member since" in page and "Median time to move" in page and "Duel" in page
    assert Client().get("/players/nobody/").status_code == 404
    archive = Client().get("/games/archive/?player=alice").content.decode()
    assert f'data-game="{done.pk}"' in archive and 'id="archive-player"' in archive
    assert 'for="archive-player"' in archive
    other = Client().get("/games/archive/?player=bob&title=havana").content.decode()
    assert f'data-game="{done.pk}"' not in other
