"""A whole random game of every registered title, through the HTTP API only."""

from __future__ import annotations

import random

import jsonschema
import pytest

from games.api import schema
from games.engines import base
from tests.conftest import make_user

# slow: whole random games through the API.
pytestmark = pytest.mark.slow

TITLES = [*sorted(base.available()), "duel"]


def play_through_the_api(as_, title: str, seed: int) -> dict:
    engine = base.get(title)
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    count = max(engine.MIN_PLAYERS, min(3, engine.MAX_PLAYERS))
    seated = players[:count]
    clients = [as_(user) for user in seated]
    # Gathered at a table, as players meet: the host opens it, the others
    # join, and the seat that fills it starts the game.
    body = {"title": title, "seats": count, "seat_order": "joined"}
    opened = clients[0].post("/api/tables/", body, format="json")
    assert opened.status_code == 201, opened.json()
    table = opened.json()
    for client in clients[1:]:
        joined = client.post(f"/api/tables/{table['id']}/join/", {}, format="json")
        assert joined.status_code == 200, joined.json()
    game_id = (joined if count > 1 else opened).json()["game"]
    assert game_id is not None
    rng = random.Random(seed)
    for _ in range(5000):
        detail = clients[0].get(f"/api/games/{game_id}/").json()
        if detail["status"] != "active":
            return detail
        seat = rng.choice(detail["to_act"])
        listed = clients[seat].get(f"/api/games/{game_id}/actions/").json()
        choice = rng.choice(listed["actions"])
        body = {"seq": listed["seq"]}
        if rng.random() < 0.3:
            body["text"] = choice["text"]
        else:
            body["action"] = choice["action"]
        posted = clients[seat].post(f"/api/games/{game_id}/actions/", body, format="json")
        assert posted.status_code == 201, (body, posted.json())
    pytest.fail(f"{title} did not end within 5000 moves")


@pytest.mark.parametrize("title", TITLES)
def test_a_whole_random_game_through_the_api_ends_with_a_result(as_, db, title):
    final = play_through_the_api(as_, title, seed=len(title))
    assert final["status"] == "finished"
    # The one result shape of every title, as the OpenAPI schema describes it.
    jsonschema.validate(final["result"], schema.RESULT)
    assert final["result"]["winners"]
    assert final["to_act"] == []
