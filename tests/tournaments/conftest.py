"""Tournament fixtures: an organiser, players, and playing a round's duel
games to their end through the move service."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from games.models import Game
from tests.conftest import make_user
from tests.games.conftest import run_sweep  # noqa: F401  (the deadline sweep, as beat runs it)
from tests.ratings.conftest import play_out
from tournaments.models import Seating
from tournaments.services import check_create_tournament


@pytest.fixture
def olga(db):
    """An organiser: the permission to add tournaments, no moderator."""
    user = make_user("olga")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return type(user).objects.get(pk=user.pk)


@pytest.fixture
def players(db):
    return [make_user(f"p{n}") for n in range(1, 9)]


@pytest.fixture
def duel_tournament(olga):
    def make(**fields):
        given = {"name": "Spring duel", "title": "duel", "table_size": 2, "rounds": 2, **fields}
        return check_create_tournament(olga, **given)

    return make


def play_round(tournament, number: int) -> None:
    """Play every running game of round `number` to its end."""
    games = {
        s.game_id
        for s in Seating.objects.filter(round__tournament=tournament, round__number=number)
        if s.game_id
    }
    for game in Game.objects.filter(pk__in=games, status=Game.Status.ACTIVE):
        play_out(game)
