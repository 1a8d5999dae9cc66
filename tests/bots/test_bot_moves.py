"""Bots at the table, with Celery run eagerly (the embedded default): whole
games, what a bot's event records, replaying its choice, mail, and a stale
move of a bot."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from accounts import bots as accounts
from accounts.bots import Wanted
from games import tasks
from games.audit.verification import game_problems
from games.engines import bots as engine_bots
from games.models import Event, Game
from games.selectors import bots as bot_seats
from games.services import bots
from games.services.creation import do_create_game
from games.stream import store
from games.stream.derived import engine_for
from games.stream.payloads import public_payload
from notifications import outbox
from notifications.models import Notification
from tests.bots.play import BOT_TITLES, person_moves, play_to_the_end
from tests.support.threads import call_off
from tests.support.waiting import wait_until

whole_games = pytest.mark.django_db(transaction=True)


def bot_events(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game, source=Event.Source.BOT).order_by("seq"))


@pytest.mark.slow
@whole_games
@pytest.mark.parametrize("title", BOT_TITLES)
def test_a_person_and_two_bots_play_a_game_to_its_end(title, alice):
    game = do_create_game(
        title=title, players=[Wanted("greedy"), alice, Wanted("random")], seed=11
    )
    game = play_to_the_end(game, alice)
    assert game.status == Game.Status.FINISHED
    assert {e.seat for e in bot_events(game)} == {0, 2}
    assert list(game_problems(game)) == []


@pytest.mark.slow
@whole_games
@pytest.mark.parametrize("title", BOT_TITLES)
def test_a_game_of_bots_alone_plays_itself_to_its_end(title):
    game = do_create_game(title=title, players=[Wanted("greedy"), Wanted("random")], seed=5)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    # every move after the created event is a bot's, by the account holding its seat
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert {e.source for e in events[1:]} == {Event.Source.BOT}
    holders = {0: accounts.account("greedy", 0).pk, 1: accounts.account("random", 1).pk}
    assert all(e.actor_id == holders[e.seat] for e in events[1:])
    assert list(game_problems(game)) == []


@pytest.mark.slow
@whole_games
def test_a_bots_event_records_its_kind_seed_and_the_index_of_its_choice(alice):
    game = do_create_game(title="pointcity", players=[Wanted("greedy"), alice], seed=3)
    play_to_the_end(game, alice)
    event = bot_events(game)[0]
    record = event.payload["bot"]
    assert record["kind"] == "greedy"
    assert record["seed"] == bot_seats.seed_for(game, event.seq - 1, event.seat)
    assert len(record["seed"]) == 16 and int(record["seed"], 16) >= 0
    engine = engine_for(game)
    before = store.load(game, engine, head=event.seq - 1).state
    legal = engine.legal_actions(before, event.seat)
    assert legal[record["choice"]] == event.payload["action"]


@pytest.mark.slow
@whole_games
@pytest.mark.parametrize("title", BOT_TITLES)
def test_replaying_a_bots_seed_on_the_state_before_gives_the_same_choice(title):
    game = do_create_game(title=title, players=[Wanted("greedy"), Wanted("random")], seed=8)
    engine = engine_for(game)
    for event in bot_events(game)[:40]:
        before = store.load(game, engine, head=event.seq - 1).state
        record = event.payload["bot"]
        seed = int(record["seed"], 16)
        assert engine_bots.choose(engine, before, event.seat, record["kind"], seed) == (
            record["choice"],
            event.payload["action"],
        )


def test_the_seed_depends_on_the_game_seq_and_seat_and_not_only_on_the_public_facts(db):
    one = Game(pk=1, seed=99, salt="a" * 32)
    other_secret = Game(pk=1, seed=98, salt="a" * 32)
    assert bot_seats.seed_for(one, 5, 0) == bot_seats.seed_for(one, 5, 0)
    assert (
        len(
            {
                bot_seats.seed_for(one, 5, 0),
                bot_seats.seed_for(one, 6, 0),
                bot_seats.seed_for(one, 5, 1),
            }
        )
        == 3
    )
    assert bot_seats.seed_for(one, 5, 0) != bot_seats.seed_for(other_secret, 5, 0)


@whole_games
def test_a_hidden_choice_shows_others_only_the_bots_kind(alice):
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    choice = bot_events(game)[0]  # the bot's face-down pair of cards
    assert choice.payload["action"]["type"] == "choose"
    assert "public" in choice.payload
    assert public_payload(choice) == {"action": {"type": "choose"}, "bot": {"kind": "random"}}


@pytest.mark.slow
@whole_games
def test_an_open_move_shows_everyone_how_the_bot_chose(alice):
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    person_moves(game, alice, random.Random(1))  # the reveal: open moves follow
    game = play_to_the_end(game, alice)
    opened = next(e for e in bot_events(game) if "public" not in e.payload)
    assert public_payload(opened)["bot"] == opened.payload["bot"]


@pytest.mark.slow
@whole_games
def test_bots_get_no_mail_and_the_person_does(alice):
    game = do_create_game(title="pointcity", players=[Wanted("greedy"), alice], seed=3)
    play_to_the_end(game, alice)
    users = set(Notification.objects.filter(game=game).values_list("user__username", flat=True))
    assert users == {"alice"}


@pytest.mark.django_db
def test_no_notification_is_built_for_a_bot_even_one_given_an_address(alice):
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    bot = accounts.account("random", 1)
    bot.email, bot.notify_mode = "bot@example.org", "every_turn"
    assert outbox.build(bot, game, Notification.Kind.YOUR_TURN, 1, seat=1) is None


@pytest.mark.django_db
def test_a_bot_account_cannot_log_in_and_wants_no_mail():
    bot = accounts.account("greedy", 2)
    assert bot.username == "bot:greedy:2" and bot.bot == "greedy"
    assert not bot.has_usable_password()
    assert bot.email == "" and bot.notify_mode == "off"
    assert accounts.account("greedy", 2).pk == bot.pk


@pytest.mark.django_db
def test_a_stale_bot_move_does_nothing(alice, django_capture_on_commit_callbacks):
    # Havana's first step: both seats choose at once.  The bot's move is
    # queued after the created event (seq 1); the person chooses first.
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    assert game.seq == 1 and set(game.to_act) == {0, 1}
    person_moves(game, alice, random.Random(1))
    assert bots.do_bot_move(game.pk, 1) is None  # the task queued for seq 1
    game.refresh_from_db()
    assert game.seq == 2
    assert bot_events(game) == []
    # the task queued after the person's move (seq 2) plays
    event = bots.do_bot_move(game.pk, 2)
    assert event is not None and event.seat == 1 and event.seq == 3


@pytest.mark.django_db
def test_a_bot_move_when_no_bot_is_to_act_does_nothing(alice, bob):
    game = do_create_game(title="havana", players=[alice, bob], seed=2)
    assert bots.do_bot_move(game.pk, game.seq) is None
    assert Event.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_the_sweep_queues_the_move_of_a_bot_left_waiting(alice, monkeypatch):
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    # the created event's own queueing never ran (no commit in this test)
    assert bot_events(game) == []
    queued = []
    monkeypatch.setattr(tasks, "queue_bot", lambda game_id, seq: queued.append((game_id, seq)))
    now = game.updated_at
    assert tasks.queue_overdue_bots(now) == 0  # not overdue yet
    late = now + timedelta(seconds=bot_seats.OVERDUE_SECONDS + 1)
    assert tasks.queue_overdue_bots(late) == 1
    assert queued == [(game.pk, 1)]


@whole_games
def test_a_paced_bot_move_a_test_leaves_waiting_is_called_off(settings, alice):
    """What tests/conftest.py does when a test ends (bots_left_no_timer)."""
    settings.CORREO_BOT_PACE_SECONDS = 30
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    assert call_off(tasks._play_in_thread) == 1
    wait_until(lambda: call_off(tasks._play_in_thread) == 0, timeout=5)
    assert bot_events(game) == []


@whole_games
def test_without_a_broker_a_bot_waits_out_the_pace_in_a_timer_thread(settings, alice):
    # The embedded default: Celery eager, a pace above 0.
    settings.CORREO_BOT_PACE_SECONDS = 0.3
    game = do_create_game(title="havana", players=[alice, Wanted("random")], seed=2)
    assert bot_events(game) == []  # not at once
    wait_until(lambda: bool(bot_events(game)), timeout=10)
    created, answer = Event.objects.get(game=game, seq=1), bot_events(game)[0]
    assert (answer.created_at - created.created_at).total_seconds() >= 0.3
