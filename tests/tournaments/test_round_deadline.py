"""The round's deadline is enforced through the games' own clocks: no seat
of a round's game has a deadline later than the round's, and once it has
passed every seat to act is due at once, so the deadline sweep applies the
title's timeout policy move by move until the game ends."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import Event, Game, Seat
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from tests.support.play import hand
from tournaments.models import Round, Seating
from tournaments.services import check_start_tournament

MINUTE = datetime.timedelta(minutes=1)


@pytest.fixture(autouse=True)
def no_outages(settings):
    """The tests jump through time: the sweep must not take the jumps for
    outages (which would move every deadline later)."""
    settings.CORREO_OUTAGE_AFTER_SECONDS = 10**9


def started(make, olga, players, **fields):
    tournament = make(**fields)
    for player in players[:2]:
        tournament.entries.create(user=player)
    check_start_tournament(tournament.pk, olga)
    current = Round.objects.get(tournament=tournament, number=1)
    game = Game.objects.get(pk=Seating.objects.filter(round=current).first().game_id)
    return current, game


def deadlines_of(game):
    return dict(Seat.objects.filter(game=game, to_act=True).values_list("index", "deadline"))


def commit(game, seat):
    game.refresh_from_db()
    user = Seat.objects.get(game=game, index=seat).user
    return check_submit_action(
        game, user, action={"type": "commit", "card": hand(game, seat)[0]}, expected_seq=game.seq
    )


def test_a_seat_whose_move_would_run_past_the_round_gets_the_rounds_deadline_and_times_out_by_the_titles_policy(  # noqa: E501
    duel_tournament, olga, players, run_sweep
):
    clock = {"per_move": "72h", "on_timeout": "auto", "max_timeouts": 0}
    current, game = started(duel_tournament, olga, players, round_days=1, clock=clock)
    assert deadlines_of(game) == {0: current.deadline, 1: current.deadline}
    assert game.deadline == current.deadline

    assert run_sweep(current.deadline - MINUTE)["due"] == 0
    assert run_sweep(current.deadline + MINUTE)["due"] == 1
    first = list(Event.objects.filter(game=game, kind="timeout").order_by("seq"))
    assert [(e.seat, e.source) for e in first] == [(0, "timer"), (1, "timer")]

    # The sweep keeps applying the policy (`auto`) until the game ends.
    for minutes in range(2, 200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.deadline <= current.deadline
        run_sweep(current.deadline + minutes * MINUTE)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not Event.objects.filter(game=game, kind="action").exists()


def test_the_forfeit_policy_resigns_a_seat_out_at_the_rounds_deadline(
    duel_tournament, olga, players, run_sweep
):
    clock = {"per_move": "72h", "on_timeout": "forfeit"}
    current, game = started(duel_tournament, olga, players, round_days=1, clock=clock)
    run_sweep(current.deadline + MINUTE)
    game.refresh_from_db()
    assert game.status != Game.Status.ACTIVE
    resign = Event.objects.filter(game=game, kind="resign").first()
    assert resign.source == "timer" and "ran out of time" in resign.payload["reason"]


def test_a_deadline_before_the_rounds_deadline_is_left_alone(duel_tournament, olga, players):
    current, game = started(duel_tournament, olga, players, clock={"per_move": "1h"})
    start = Event.objects.filter(game=game).order_by("-seq").first().created_at
    assert deadlines_of(game) == {0: start + 60 * MINUTE, 1: start + 60 * MINUTE}
    assert start + 60 * MINUTE < current.deadline


def test_a_move_after_the_rounds_deadline_gives_the_next_seat_an_immediate_deadline(
    duel_tournament, olga, players
):
    current, game = started(duel_tournament, olga, players, clock={"per_move": "72h"})
    Round.objects.filter(pk=current.pk).update(deadline=timezone.now() - MINUTE)

    moved = commit(game, 0)
    assert deadlines_of(game) == {1: moved.created_at}
    moved = commit(game, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.to_act
    assert set(deadlines_of(game).values()) == {moved.created_at}
    assert game.deadline == moved.created_at


def test_a_tournament_without_a_clock_gives_its_games_the_rounds_length_as_their_clock(
    duel_tournament, olga, players
):
    current, game = started(duel_tournament, olga, players, round_days=3)
    assert game.clock["per_move"] == 3 * 86400 and game.clock["on_timeout"] == "auto"
    assert deadlines_of(game) == {0: current.deadline, 1: current.deadline}


def test_a_game_outside_tournaments_is_unaffected_by_a_rounds_deadline(
    duel_tournament, olga, players
):
    current, _ = started(duel_tournament, olga, players, clock={"per_move": "72h"})
    Round.objects.filter(pk=current.pk).update(deadline=timezone.now() - MINUTE)
    # Made by the server as a round's games are, but in no round.
    game = do_create_game(
        title="duel", players=players[2:4], options={"rounds": 2}, clock={"per_move": "72h"}
    )
    start = Event.objects.filter(game=game).order_by("-seq").first().created_at
    assert deadlines_of(game) == {0: start + 72 * 60 * MINUTE, 1: start + 72 * 60 * MINUTE}
