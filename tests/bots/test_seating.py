"""Seating bots: from the API and the new-game form, and a moderator handing
a vanished player's seat to a bot.  Every refusal changes nothing."""

from __future__ import annotations

import random

import pytest

from accounts import bots as accounts
from accounts.models import User
from games.audit.verification import game_problems
from games.engines import base
from games.models import Event, Game, Seat
from games.services.bots import do_hand_to_bot
from games.services.creation import do_create_game
from tests.api.conftest import client_for
from tests.bots.play import person_moves
from tests.support.duel import Duel

pytestmark = pytest.mark.django_db(transaction=True)


def post(user, path: str, body: dict):
    return client_for(user).post(path, body, format="json")


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).values_list("index", "user_id", "status"))
    return game.seq, Event.objects.filter(game=game).count(), seats, game.bot_seats


# --- from the API -----------------------------------------------------------------


def test_a_player_starts_a_game_against_bots_from_the_api(alice):
    players = ["alice", "bot:greedy", "bot:random"]
    response = post(alice, "/api/games/", {"title": "havana", "players": players})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [p["username"] for p in body["players"]] == ["alice", "bot:greedy:1", "bot:random:2"]
    game = Game.objects.get(pk=body["id"])
    assert game.bot_seats == [1, 2]
    # the bots chose their cards at once; alice is the one left to choose
    assert game.to_act == [0]
    assert Event.objects.filter(game=game, source=Event.Source.BOT).count() == 2


def test_two_bots_of_one_kind_sit_under_two_accounts(alice):
    players = ["bot:random", "alice", "bot:random"]
    response = post(alice, "/api/games/", {"title": "estates", "players": players})
    assert response.status_code == 201
    names = [p["username"] for p in response.json()["players"]]
    assert names == ["bot:random:0", "alice", "bot:random:2"]


class Botless(Duel):
    """The test engine without a bot: its package (tests.bots) has no bot
    module, as a title has none until it plays end to end."""

    NAME = "botless"
    TITLE = "Botless (test engine)"


@pytest.fixture(autouse=True)
def botless_engine():
    base.register(Botless())
    yield
    base.unregister(Botless.NAME)


@pytest.mark.parametrize(
    ("players", "title", "words"),
    [
        (["alice", "bot:clever"], "havana", "no such bot: bot:clever"),
        (["alice", "bot:"], "havana", "no such bot"),
        (["alice", "bot:greedy"], "botless", "has no greedy bot"),
    ],
)
def test_an_unknown_bot_or_a_title_without_bots_is_a_clear_400(alice, players, title, words):
    before = (Game.objects.count(), User.objects.count())
    response = post(alice, "/api/games/", {"title": title, "players": players})
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert words in response.json()["detail"]
    assert Game.objects.count() == before[0]


def test_the_titles_list_says_which_bots_play_each_title(client):
    titles = {t["name"]: t["bots"] for t in client.get("/api/titles/").json()["titles"]}
    for title in ("havana", "estates", "pointcity", "18cuba"):
        assert titles[title] == ["random", "greedy"], title
    assert titles["botless"] == []


def test_nobody_can_register_a_bots_name(client):
    response = client.post(
        "/api/auth/register/",
        {"username": "bot:greedy:1", "email": "x@example.org", "password": "correct horse 42"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert not User.objects.filter(username="bot:greedy:1").exists()


def test_a_bot_account_gets_no_token(client):
    accounts.account("greedy", 1)
    response = client.post(
        "/api/auth/token/", {"username": "bot:greedy:1", "password": ""},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400


def test_the_schema_documents_bot_seats_and_handing_a_seat_to_a_bot(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/games/{id}/hand-to-bot/" in schema["paths"]
    create = schema["components"]["schemas"]["CreateGameIn"]["properties"]["players"]
    assert "bot:greedy" in create["description"]


# --- from the web page -------------------------------------------------------------


def test_the_new_table_form_seats_a_bot(alice, client):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert "bot:greedy" in page  # the form says how
    form = {"title": "pointcity", "min_seats": "2", "max_seats": "2", "seat_order": "joined",
            "invite": "bot:greedy"}  # fmt: skip
    response = client.post("/tables/new/", form)
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert [s.user.username for s in game.seats.order_by("index")] == ["alice", "bot:greedy:1"]


def test_the_new_table_form_with_an_unknown_bot_says_so_and_starts_nothing(alice, client):
    client.force_login(alice)
    form = {"title": "pointcity", "min_seats": "2", "max_seats": "2", "invite": "bot:smart"}
    response = client.post("/tables/new/", form)
    assert "no such bot" in response.content.decode()
    assert not Game.objects.exists()


# --- a moderator hands a seat to a bot ----------------------------------------------


@pytest.fixture
def table(alice, bob):
    """Havana, alice and bob; bob has chosen his cards, alice has vanished."""
    game = do_create_game(title="havana", players=[alice, bob], seed=2)
    person_moves(game, bob, random.Random(3))
    game.refresh_from_db()
    assert game.to_act == [0]
    return game


def test_a_moderator_hands_a_vanished_players_seat_to_a_bot_which_moves_at_once(table, mo, alice):
    response = post(mo, f"/api/games/{table.pk}/hand-to-bot/",
                    {"seat": 0, "kind": "greedy", "reason": "alice vanished"})  # fmt: skip
    assert response.status_code == 201
    replaced = Event.objects.get(game=table, seq=response.json()["seq"])
    bot = User.objects.get(username="bot:greedy:0")
    assert replaced.kind == Event.Kind.SEAT_REPLACED
    assert replaced.source == Event.Source.MODERATOR and replaced.actor == mo
    assert replaced.payload == {"seat": 0, "user": bot.pk, "username": "bot:greedy:0",
                                "previous": alice.pk, "previous_username": "alice",
                                "reason": "alice vanished", "bot": "greedy"}  # fmt: skip
    assert Seat.objects.get(game=table, index=0).user == bot
    table.refresh_from_db()
    assert table.bot_seats == [0]
    following = Event.objects.get(game=table, seq=replaced.seq + 1)
    assert following.source == Event.Source.BOT and following.seat == 0
    assert following.actor == bot
    assert list(game_problems(table)) == []


def test_a_person_given_a_bots_seat_takes_it_from_the_bot(table, mo, alice, charlie):
    post(mo, f"/api/games/{table.pk}/hand-to-bot/",
         {"seat": 0, "kind": "greedy", "reason": "alice vanished"})  # fmt: skip
    table.refresh_from_db()
    response = post(mo, f"/api/games/{table.pk}/replace-seat/",
                    {"seat": 0, "username": "charlie", "reason": "she is back"})  # fmt: skip
    assert response.status_code == 201
    table.refresh_from_db()
    assert table.bot_seats == []
    assert Seat.objects.get(game=table, index=0).user == charlie
    assert list(game_problems(table)) == []


def test_a_bots_account_cannot_be_given_a_seat_as_a_person(table, mo):
    bot = accounts.account("greedy", 1)
    before = table.seq
    response = post(mo, f"/api/games/{table.pk}/replace-seat/",
                    {"seat": 0, "username": bot.username, "reason": "why not"})  # fmt: skip
    assert response.status_code == 400
    assert "is a bot" in response.json()["detail"]
    table.refresh_from_db()
    assert table.seq == before


@pytest.mark.parametrize(
    ("who", "body", "status"),
    [
        ("alice", {"seat": 0, "kind": "greedy", "reason": "x"}, 403),
        ("mo", {"seat": 0, "kind": "greedy", "reason": ""}, 400),
        ("mo", {"seat": 0, "kind": "clever", "reason": "x"}, 400),
        ("mo", {"seat": 5, "kind": "greedy", "reason": "x"}, 400),
        ("mo", {"seat": "zero", "kind": "greedy", "reason": "x"}, 400),
        ("mo", {"kind": "greedy", "reason": "x"}, 400),
    ],
)
def test_handing_a_seat_to_a_bot_is_refused_and_changes_nothing(table, who, body, status, request):
    before = snapshot(table)
    user = request.getfixturevalue(who)
    response = post(user, f"/api/games/{table.pk}/hand-to-bot/", body)
    assert response.status_code == status
    assert {"error", "detail"} <= set(response.json())
    assert snapshot(table) == before


def test_a_seat_cannot_go_to_the_bot_already_playing_it(table, mo):
    do_hand_to_bot(table, 0, "random", actor=mo, reason="vanished")
    before = snapshot(table)
    response = post(mo, f"/api/games/{table.pk}/hand-to-bot/",
                    {"seat": 0, "kind": "random", "reason": "again"})  # fmt: skip
    assert response.status_code == 400 and "already plays" in response.json()["detail"]
    assert snapshot(table) == before


def test_a_finished_game_hands_no_seat_to_a_bot(mo):
    game = do_create_game(title="havana", players=[accounts.Wanted("random"),
                                                   accounts.Wanted("random")], seed=1)  # fmt: skip
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    before = snapshot(game)
    response = post(mo, f"/api/games/{game.pk}/hand-to-bot/",
                    {"seat": 0, "kind": "greedy", "reason": "x"})  # fmt: skip
    assert response.status_code == 409
    assert response.json()["error"] == "game_not_active"
    assert snapshot(game) == before


def test_the_events_a_player_reads_hide_how_a_bot_chose_face_down(alice):
    response = post(alice, "/api/games/", {"title": "havana", "players": ["alice", "bot:greedy"]})
    game_id = response.json()["id"]
    events = client_for(alice).get(f"/api/games/{game_id}/events/").json()["events"]
    bots_choice = next(e for e in events if e["source"] == "bot")
    assert bots_choice["payload"] == {"action": {"type": "choose"}, "bot": {"kind": "greedy"}}


def test_a_moderator_hands_a_seat_to_a_bot_from_the_moderation_page(table, mo, client):
    client.force_login(mo)
    page = client.get(f"/games/{table.pk}/moderate/").content.decode()
    assert 'data-action="hand-to-bot"' in page
    client.post(f"/games/{table.pk}/hand-to-bot/",
                {"seat": "0", "kind": "random", "reason": "alice vanished"})  # fmt: skip
    replaced = Event.objects.get(game=table, kind=Event.Kind.SEAT_REPLACED)
    assert replaced.payload["reason"] == "alice vanished" and replaced.actor == mo
    assert Seat.objects.get(game=table, index=0).user.username == "bot:random:0"


def test_the_moderation_page_refuses_a_player_and_a_missing_reason_changing_nothing(
    table, alice, mo, client
):
    before = snapshot(table)
    client.force_login(alice)
    client.post(f"/games/{table.pk}/hand-to-bot/", {"seat": "0", "kind": "random", "reason": "x"})
    client.force_login(mo)
    answer = client.post(f"/games/{table.pk}/hand-to-bot/",
                         {"seat": "0", "kind": "random", "reason": " "}, follow=True)  # fmt: skip
    assert "needs a reason" in answer.content.decode()
    assert snapshot(table) == before


def test_the_moderation_page_offers_no_bot_for_a_title_without_bots(mo, alice, bob, carol, client):
    game = do_create_game(title="botless", players=[alice, bob, carol], seed=1)
    client.force_login(mo)
    page = client.get(f"/games/{game.pk}/moderate/").content.decode()
    assert 'data-action="hand-to-bot"' not in page
