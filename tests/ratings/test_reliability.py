"""Reliability from the log: time on vacation, in a recorded outage and
granted by a moderator's extension is not time the player took to move.
Worked by hand on a game whose clock this test sets."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import Outage, Vacation
from games.selectors import profile
from games.services.clocks import do_extend
from tests.ratings.conftest import play_out

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 3, 2, 8, 0, tzinfo=datetime.UTC)


def at(hours: float) -> datetime.datetime:
    return T0 + datetime.timedelta(hours=hours)


@pytest.fixture
def clock(monkeypatch):
    """The server's time, as the test sets it (every event takes it)."""
    now = [T0]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    return now


def test_vacation_outage_and_extension_are_left_out_of_the_time_to_move(
    make_game, clock, alice, bob, mo
):
    game = make_game(players=[alice, bob], options={"rounds": 1}, clock={"per_move": "30d"})
    clock[0] = at(1)
    play_out(game, turns=1)  # alice commits: 1 h after the game began
    clock[0] = at(3)
    do_extend(game, actor=mo, by_seconds=3600, reason="asked", seat=1)  # bob is given 1 h
    clock[0] = at(13)
    game.refresh_from_db()
    play_out(game, turns=1)  # bob commits: 12 h after alice
    clock[0] = at(23)
    play_out(game, turns=1)  # alice passes: 10 h after bob
    clock[0] = at(33)
    play_out(game, turns=1)  # bob passes: 10 h after alice

    # alice: 1 h and 10 h, less a 4-h vacation in the second wait: 1 h and 6 h
    Vacation.objects.create(user=alice, starts_at=at(15), ends_at=at(19))
    # bob: 12 h less the 1 h granted = 11 h (the extension does not restart
    # his wait); his pass 10 h, less a 3-h outage = 7 h
    Outage.objects.create(started_at=at(25), ended_at=at(28))

    mine = profile.reliability(alice)
    assert mine["moves"] == 2
    assert mine["median_seconds_to_move"] == (1 + 6) / 2 * 3600
    theirs = profile.reliability(bob)
    assert theirs["median_seconds_to_move"] == (11 + 7) / 2 * 3600


def test_an_extension_for_another_seat_is_the_players_own_time(make_game, clock, alice, bob, mo):
    game = make_game(players=[alice, bob], options={"rounds": 1}, clock={"per_move": "30d"})
    clock[0] = at(2)
    do_extend(game, actor=mo, by_seconds=7200, reason="asked", seat=1)  # for bob, not alice
    clock[0] = at(5)
    game.refresh_from_db()
    play_out(game, turns=1)  # alice commits 5 h after the game began
    assert profile.reliability(alice)["median_seconds_to_move"] == 5 * 3600
