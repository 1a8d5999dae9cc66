"""The last two games of a round ending at the same instant (PostgreSQL,
two threads): the next round is seated once."""

from __future__ import annotations

from functools import partial

import pytest

from games.models import Game
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.ratings.conftest import play_out
from tests.support.threads import failures_at_once
from tournaments.models import Seating, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_games_ending_at_once_seat_the_next_round_once(duel_tournament, players, olga):
    tournament = duel_tournament(options={"rounds": 1})
    url = f"/api/tournaments/{tournament.pk}"
    for player in players[:4]:
        assert client_for(player).post(f"{url}/signup/").status_code == 201
    assert client_for(olga).post(f"{url}/start/").status_code == 200
    games = list(
        Game.objects.filter(pk__in=Seating.objects.filter(round__number=1).values("game"))
    )
    assert len(games) == 2
    for game in games:
        play_out(game, turns=3)  # one pass to go: the second seat's

    def last_move(game) -> None:
        play_out(Game.objects.get(pk=game.pk))

    assert failures_at_once(*(partial(last_move, game) for game in games)) == []
    assert {g.status for g in Game.objects.filter(pk__in=[g.pk for g in games])} == {
        Game.Status.FINISHED
    }
    tournament.refresh_from_db()
    assert tournament.round_set.count() == 2
    assert Seating.objects.filter(round__tournament=tournament, round__number=2).count() == 4
    assert Notification.objects.filter(kind=Notification.Kind.ROUND_READY).count() == 8
    assert tournament.status == Tournament.Status.RUNNING
