"""The ratings' doors: the leaderboard (API and page), a player's ratings
(API and profile page), ratings in the lobby, and a table's requirements
(API, table form, refusal on joining)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from games.errors import RequirementsNotMet
from games.models import Table
from games.services.tables import check_create_table, check_join_table, check_seat_bot
from ratings import ledger, updates
from ratings import selectors as ratings
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 3, 2, tzinfo=datetime.UTC)


def rate(make_game, places_by_game: list[list[tuple[object, int]]], public=True) -> list:
    """Rate games as if they had finished with these (player, place) seats:
    the rating path from facts on (the streams' reading is tested apart)."""
    games, facts = [], []
    for n, seats in enumerate(places_by_game):
        game = make_game(players=[user for user, _ in seats], seed=n + 1, public=public)
        games.append(game)
        facts.append(
            ledger.Facts(
                game.pk,
                "duel",
                rated=True,
                finish_seq=1,
                finished_at=T0 + datetime.timedelta(hours=n),
                places=[place for _, place in seats],
                holders=[[[user.pk, 1.0]] for user, _ in seats],
            )
        )
    updates.do_rebuild(facts)
    return games


@pytest.fixture
def rated(make_game, alice, bob, carol):
    rate(make_game, [[(alice, 1), (bob, 2), (carol, 3)], [(alice, 1), (carol, 2)]])


def test_the_leaderboard_api_lists_the_best_first(rated):
    body = client_for(None).get("/api/titles/duel/ratings/").json()
    assert [r["username"] for r in body["ratings"]] == ["alice", "bob", "carol"]
    assert [r["rank"] for r in body["ratings"]] == [1, 2, 3]
    assert body["count"] == 3 and body["ratings"][0]["games"] == 2
    assert body["ratings"][0]["rating"] > body["ratings"][1]["rating"]
    second = client_for(None).get("/api/titles/duel/ratings/?page=2&page_size=2").json()
    assert [r["username"] for r in second["ratings"]] == ["carol"]
    assert second["ratings"][0]["rank"] == 3


def test_the_leaderboard_api_refuses_bad_input_clearly(db):
    unknown = client_for(None).get("/api/titles/nope/ratings/")
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"
    for query in ("page=0", "page=x", "page_size=1000"):
        answer = client_for(None).get(f"/api/titles/duel/ratings/?{query}")
        assert answer.status_code == 400 and answer.json()["error"] == "invalid", query


def test_a_players_ratings_hide_a_private_games_id_and_time(make_game, alice, bob):
    [public] = rate(make_game, [[(alice, 1), (bob, 2)]])
    body = client_for(None).get("/api/users/alice/ratings/").json()
    [duel] = body["ratings"]
    assert duel["history"][0]["game"] == public.pk
    rate(make_game, [[(alice, 2), (bob, 1)]], public=False)  # a rebuild: this game alone
    [duel] = client_for(None).get("/api/users/alice/ratings/").json()["ratings"]
    assert duel["history"][0]["game"] is None and duel["history"][0]["finished_at"] is None
    assert duel["history"][0]["place"] == 2
    assert client_for(None).get("/api/users/nobody/ratings/").status_code == 404


def test_the_leaderboard_page_and_the_profiles_history(rated, alice):
    page = Client().get("/ratings/?title=duel")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index('data-player="alice"') < html.index('data-player="bob"')
    assert 'aria-label="Duel (test engine) ratings, best first"' in html
    assert Client().get("/ratings/?title=nope").status_code == 200  # the first title instead
    profile = Client().get("/players/alice/").content.decode()
    assert 'id="ratings-heading"' in profile and "rated games" in profile


def test_the_lobby_shows_each_seated_players_rating(rated, alice, bob):
    table = check_create_table(alice, title="duel", seats=3)
    html = Client().get("/tables/").content.decode()
    row = html[html.index(f'data-table="{table.pk}"') :]
    assert 'alice <span class="rating"' in row[: row.index("</tr>")]


def test_the_lobby_api_gives_each_seated_players_rating_beside_their_name(rated, alice, eve):
    table = check_create_table(alice, title="duel", seats=4)
    check_join_table(table.pk, eve)
    check_seat_bot(table.pk, alice, "random")
    body = client_for(None).get("/api/tables/").json()
    row = next(r for r in body["results"] if r["id"] == table.pk)
    assert row["players"] == ["alice", "eve", "bot:random"]
    assert row["ratings"] == [
        ratings.shown(ratings.rating_of(alice, "duel")),
        ratings.shown(ratings.rating_of(eve, "duel")),  # a new player's
        None,  # a bot is not rated
    ]
    assert row["ratings"][0] != row["ratings"][1]


def test_a_table_refuses_a_player_below_its_minimum_rating(rated, alice, carol, eve):
    answer = client_for(alice).post(
        "/api/tables/", {"title": "duel", "seats": 3, "requirements": {"min_rating": -1.5}},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 201, answer.json()
    assert answer.json()["requirements"] == {"min_rating": -1.5}
    pk = answer.json()["id"]
    refused = client_for(carol).post(f"/api/tables/{pk}/join/", {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"] == "requirements_not_met"
    assert "at least -1.5" in refused.json()["detail"]
    assert Table.objects.get(pk=pk).seated == 1  # nothing changed
    joined = client_for(eve).post(f"/api/tables/{pk}/join/", {}, format="json")
    assert joined.status_code == 200  # a new player's 0 is enough


def test_a_table_refuses_a_player_with_too_many_timeouts(alice, bob, monkeypatch):
    from games.selectors import profile

    table = check_create_table(
        alice, title="duel", seats=3, requirements={"max_timeouts_per_100": 5}
    )
    monkeypatch.setattr(
        profile, "reliability", lambda user: {"timeouts_per_100_moves": 12.5}
    )  # the count itself is tested with the profile (tests/api/test_players.py)
    with pytest.raises(
        RequirementsNotMet, match=r"at most 5\.0 timeouts per 100 moves; yours are 12\.5"
    ):
        check_join_table(table.pk, bob)


@pytest.mark.parametrize(
    "requirements",
    [{"min_rating": "high"}, {"min_rating": 1000}, {"speed": 1}, ["min_rating"],
     {"max_timeouts_per_100": -1}, {"min_rating": True}],
)  # fmt: skip
def test_bad_requirements_are_refused_and_open_no_table(alice, requirements):
    answer = client_for(alice).post(
        "/api/tables/", {"title": "duel", "requirements": requirements}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["error"] == "invalid"
    assert not Table.objects.exists()


def test_the_table_form_sets_rated_and_requirements_and_keeps_them_after_a_refusal(alice):
    client = Client()
    client.force_login(alice)
    form = {"title": "duel", "min_seats": "2", "max_seats": "2", "open": "on",
            "public": "on", "min_rating": "2.5", "max_timeouts_per_100": "oops"}  # fmt: skip
    refused = client.post("/tables/new/", form)
    assert refused.status_code == 400
    assert 'value="oops"' in refused.content.decode() and not Table.objects.exists()
    form["max_timeouts_per_100"] = "10"
    client.post("/tables/new/", form)
    table = Table.objects.get()
    assert table.rated is False  # the box left unticked
    assert table.requirements == {"min_rating": 2.5, "max_timeouts_per_100": 10.0}
