"""A database that drops the connection gets a clean 503, never a 500."""

from __future__ import annotations

import psycopg
import pytest
from django.db import OperationalError, connection

from games.models import Event
from games.services.creation import do_create_game
from games.stream import sql
from tests.support.play import hand


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], seed=1)


def test_a_database_error_is_a_503_with_retry_after(as_, alice, game, monkeypatch):
    def gone(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(sql, "game", gone)
    move = {"seq": 1, "text": f"commit {hand(game, 0)[0]}"}
    answer = as_(alice).post(f"/api/games/{game.pk}/actions/", move, format="json")
    assert answer.status_code == 503
    assert answer.json() == {
        "error": "unavailable",
        "detail": "the database is unavailable; try again",
    }
    assert answer["Retry-After"] == "5"
    assert Event.objects.filter(game=game).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_connection_killed_by_the_database_costs_one_503_then_play_goes_on(as_, alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], seed=1)
    client = as_(alice)
    assert client.get(f"/api/games/{game.pk}/").status_code == 200
    move = {"seq": 1, "text": f"commit {hand(game, 0)[0]}"}
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])
    assert client.post(f"/api/games/{game.pk}/actions/", move, format="json").status_code == 503
    connection.close()  # what Django does with a broken connection when the request ends
    answer = client.post(f"/api/games/{game.pk}/actions/", move, format="json")
    assert answer.status_code == 201, answer.json()
