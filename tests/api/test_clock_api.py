"""Clocks over HTTP: create with a clock, moderators act on it, vacations."""

from __future__ import annotations

import pytest

from games.models import Event, Game
from tests.support.consent import consenting


@pytest.fixture
def clocked_game(as_, alice, bob):
    body = {
        "title": "duel",
        "players": ["alice", "bob"],
        "clock": {"per_move": "72h", "reminders": ["24h", "2h"], "on_timeout": "skip",
                  "max_timeouts": 3},
    }  # fmt: skip
    consenting(alice, bob)
    response = as_(alice).post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return Game.objects.get(pk=response.json()["id"])


def test_a_clocked_game_shows_every_seats_deadline(as_, alice, clocked_game):
    detail = as_(alice).get(f"/api/games/{clocked_game.pk}/").json()
    expected = {"per_move": 259200, "reminders": [86400, 7200], "on_timeout": "skip",
                "max_timeouts": 3, "vacation": True}  # fmt: skip
    assert detail["clock"] == expected
    assert detail["deadline"] and all(p["deadline"] for p in detail["players"])
    assert detail["paused"] is False


def test_a_bad_clock_is_a_clear_400(as_, alice, bob):
    body = {"title": "duel", "players": ["alice", "bob"], "clock": {"per_move": "forever"}}
    consenting(alice, bob)
    response = as_(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400 and "per_move" in response.json()["detail"]
    assert not Game.objects.exists()


def test_moderators_pause_extend_and_resume(as_, mo, clocked_game):
    path = f"/api/games/{clocked_game.pk}/clock/"
    client = as_(mo)
    extend = client.post(
        path, {"action": "extend", "by": "24h", "reason": "holiday"}, format="json"
    )
    assert extend.status_code == 201
    assert (
        client.post(path, {"action": "pause", "reason": "dispute"}, format="json").status_code
        == 201
    )
    assert client.get(f"/api/games/{clocked_game.pk}/").json()["paused"] is True
    assert (
        client.post(path, {"action": "resume", "reason": "settled"}, format="json").status_code
        == 201
    )
    clocks = Event.objects.filter(game=clocked_game, kind="clock").values_list(
        "payload", flat=True
    )
    assert [c["clock"] for c in clocks] == ["extend", "pause", "resume"]


def test_players_cannot_touch_the_clock(as_, alice, clocked_game):
    response = as_(alice).post(
        f"/api/games/{clocked_game.pk}/clock/", {"action": "pause", "reason": "x"}, format="json"
    )
    assert response.status_code == 403
    assert not Event.objects.filter(game=clocked_game, kind="clock").exists()


@pytest.mark.parametrize(
    "body", [{"action": "extend", "reason": "x"}, {"action": "stop", "reason": "x"}, {}]
)
def test_bad_clock_requests_are_refused(as_, mo, clocked_game, body):
    response = as_(mo).post(f"/api/games/{clocked_game.pk}/clock/", body, format="json")
    assert response.status_code == 400


def test_a_player_spends_vacation_and_sees_the_budget(as_, alice, clocked_game):
    before = as_(alice).get("/api/vacation/").json()
    assert before["used"] == 0 and before["away_until"] is None
    response = as_(alice).post("/api/vacation/", {"days": 2}, format="json")
    assert response.status_code == 201
    assert response.json()["used"] == 2 and response.json()["away_until"]
    assert Event.objects.get(game=clocked_game, kind="clock").payload["clock"] == "vacation"
    again = as_(alice).post("/api/vacation/", {"days": 2}, format="json")
    assert again.status_code == 400 and "already on vacation" in again.json()["detail"]
