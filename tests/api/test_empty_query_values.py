"""An empty number or choice in a query (`?limit=`) is a 400 that names the
field, not the default: DRF reads it as absent, and a client that meant
something by it would never learn it was ignored."""

from __future__ import annotations

import pytest

from games.services.creation import do_create_game


@pytest.fixture
def game(alice, bob):
    return do_create_game(title="duel", players=[alice, bob], options={"rounds": 2}, seed=1)


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/games/?status=", "status"),
        ("/api/games/?page=", "page"),
        ("/api/games/?page_size=", "page_size"),
        ("/api/games/{id}/events/?limit=", "limit"),
        ("/api/games/{id}/events/?after=", "after"),
        ("/api/games/{id}/messages/?limit=", "limit"),
        ("/api/games/{id}/messages/?after=", "after"),
        ("/api/checkpoints/?limit=", "limit"),
        ("/api/tables/?page=", "page"),
        ("/api/tournaments/?status=", "status"),
    ],
)
def test_an_empty_value_is_refused_by_name(as_, alice, game, path, field):
    response = as_(alice).get(path.format(id=game.pk))
    assert response.status_code == 400, response.content
    assert field in response.json()["fields"]


def test_the_same_fields_left_out_take_their_defaults(as_, alice, game):
    for path in ["/api/games/", f"/api/games/{game.pk}/events/",
                 f"/api/games/{game.pk}/messages/", "/api/checkpoints/", "/api/tables/",
                 "/api/tournaments/"]:  # fmt: skip
        assert as_(alice).get(path).status_code == 200, path
