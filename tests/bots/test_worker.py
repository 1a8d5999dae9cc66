"""Bots moving through a real Celery worker on the real Redis: whole games,
the pace between a move and the bot's answer, and a person's move while a
bot's task waits."""

from __future__ import annotations

import random

import pytest

from accounts.bots import Wanted
from games.audit.verification import game_problems
from games.models import Event, Game
from games.selectors import bots as bot_seats
from games.services.creation import do_create_game
from tests.bots.play import BOT_TITLES, person_moves, play_to_the_end
from tests.support.waiting import wait_until

# slow: whole games through a real Celery worker.
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.slow]

GAME_SECONDS = 180


def finished(game: Game) -> bool:
    game.refresh_from_db()
    return game.status == Game.Status.FINISHED


@pytest.mark.parametrize("title", BOT_TITLES)
def test_a_person_and_two_bots_finish_a_game_through_the_worker(bot_worker, title, alice):
    game = do_create_game(
        title=title, players=[Wanted("random"), alice, Wanted("greedy")], seed=21
    )
    game = play_to_the_end(game, alice, timeout=GAME_SECONDS)
    assert game.status == Game.Status.FINISHED
    sources = set(
        Event.objects.filter(game=game, seat__in=[0, 2]).values_list("source", flat=True)
    )
    assert sources == {Event.Source.BOT}
    assert list(game_problems(game)) == []


@pytest.mark.parametrize("title", BOT_TITLES)
def test_bots_alone_finish_a_game_through_the_worker(bot_worker, title):
    game = do_create_game(title=title, players=[Wanted("greedy"), Wanted("random")], seed=22)
    wait_until(lambda: finished(game), timeout=GAME_SECONDS)
    assert game.result is not None
    assert list(game_problems(game)) == []


def test_a_bot_answers_no_sooner_than_the_pace(bot_worker, settings, alice):
    settings.CORREO_BOT_PACE_SECONDS = 1.0
    game = do_create_game(title="pointcity", players=[alice, Wanted("random")], seed=4)
    rng = random.Random(1)
    answered = 0
    while answered < 3 and not finished(game):
        if not person_moves(game, alice, rng):
            wait_until(lambda: person_moves(game, alice, rng) or finished(game))
        answered = Event.objects.filter(game=game, source=Event.Source.BOT).count()
    assert answered >= 3
    events = {e.seq: e for e in Event.objects.filter(game=game)}
    for event in events.values():
        if event.source == Event.Source.BOT:
            gap = event.created_at - events[event.seq - 1].created_at
            assert gap.total_seconds() >= 1.0


def test_a_persons_move_while_the_bots_task_waits_leaves_one_bot_move(bot_worker, settings, alice):
    # Havana's first step: both seats choose at once.  The bot's task for
    # seq 1 waits out the pace; alice chooses meanwhile (seq 2).
    settings.CORREO_BOT_PACE_SECONDS = 1.0
    game = do_create_game(title="havana", players=[alice, Wanted("greedy")], seed=6)
    assert person_moves(game, alice, random.Random(2))
    wait_until(lambda: Event.objects.filter(game=game, source=Event.Source.BOT).exists())
    wait_until(lambda: Game.objects.get(pk=game.pk).to_act != [1])
    moves = list(Event.objects.filter(game=game, source=Event.Source.BOT))
    assert len(moves) == 1
    # the task of seq 1 found the game moved on; the one queued after alice's move played
    assert moves[0].seq == 3
    assert moves[0].payload["bot"]["seed"] == bot_seats.seed_for(game, 2, 1)
    game.refresh_from_db()
    assert list(game_problems(game)) == []
