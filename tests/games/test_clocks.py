"""Clocks: deadlines per seat, timeouts by policy, reminders, pause, outage."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from config.celery import app as celery_app
from games.clocks import options as clock
from games.clocks import vacation
from games.errors import Forbidden, InvalidRequest
from games.models import Event, Game, Seat
from games.services.clocks import check_extend, check_pause, check_resume
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.vacation import check_start_vacation
from tests.support.play import hand

HOUR = datetime.timedelta(hours=1)


@pytest.fixture(autouse=True)
def eager_tasks(settings):
    """Unit tests run the timeout tasks in-process, and jump through time
    without the sweep taking the jumps for outages (one test turns that on)."""
    settings.CORREO_OUTAGE_AFTER_SECONDS = 10**9
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = eager


def clocked(players, **clock_options):
    options = {"per_move": "1h", **clock_options}
    return do_create_game(
        title="duel", players=players, options={"rounds": 2}, seed=3, clock=options
    )


def deadlines_of(game):
    return dict(Seat.objects.filter(game=game).values_list("index", "deadline"))


def commit(game, user, seat):
    card = hand(game, seat)[0]
    return check_submit_action(game, user, action={"type": "commit", "card": card},
                                 expected_seq=game.seq)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "seconds"), [("72h", 259200), ("30m", 1800), ("2d", 172800), ("45s", 45), (90, 90)]
)
def test_durations_read_as_people_write_them(text, seconds):
    assert clock.seconds(text, "x") == seconds


@pytest.mark.parametrize(
    "options",
    [
        {"per_move": "soon"},
        {"per_move": "0s"},
        {"reminders": ["1h"]},
        {"per_move": "1h", "reminders": ["2h"]},
        {"per_move": "1h", "on_timeout": "explode"},
        {"per_move": "1h", "max_timeouts": -1},
        {"per_move": "1h", "colour": "red"},
    ],
)
def test_bad_clock_options_are_refused(options):
    with pytest.raises(InvalidRequest):
        clock.parse(options)


def test_every_seat_to_act_gets_a_deadline_and_the_game_the_earliest(alice, bob):
    game = clocked([alice, bob])
    created = Event.objects.get(game=game, seq=1).created_at
    assert deadlines_of(game) == {0: created + HOUR, 1: created + HOUR}
    game.refresh_from_db()
    assert game.deadline == created + HOUR


def test_in_a_simultaneous_choice_each_seat_keeps_its_own_deadline(alice, bob):
    game = clocked([alice, bob])
    before = deadlines_of(game)
    commit(game, alice, 0)
    after = deadlines_of(game)
    assert after[0] is None and after[1] == before[1]


def test_a_game_without_a_clock_has_no_deadlines(alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], seed=1)
    assert set(deadlines_of(game).values()) == {None}


def test_a_timeout_plays_the_engines_timeout_action(alice, bob, run_sweep):
    game = clocked([alice, bob])
    report = run_sweep(timezone.now() + 2 * HOUR)
    assert report["due"] == 1
    timeouts = list(Event.objects.filter(game=game, kind="timeout").order_by("seq"))
    assert [(e.seat, e.source, e.actor) for e in timeouts] == [
        (0, "timer", None),
        (1, "timer", None),
    ]
    assert all(e.payload["action"]["type"] == "commit" for e in timeouts)


def test_seats_out_of_time_together_each_make_their_one_choice_whatever_their_order(
    alice, bob, run_sweep
):
    # Bob's deadline falls first, so he is played first and Alice's commit is
    # the one that completes the round, after which she is the one to draw:
    # the draw is a new step with its own time, not part of her expiry.
    game = clocked([alice, bob])
    now = timezone.now()
    Seat.objects.filter(game=game, index=0).update(deadline=now - HOUR / 60)
    Seat.objects.filter(game=game, index=1).update(deadline=now - HOUR / 30)
    Game.objects.filter(pk=game.pk).update(deadline=now - HOUR / 30)
    run_sweep(now)
    timeouts = Event.objects.filter(game=game, kind="timeout").order_by("seq")
    assert [(e.seat, e.payload["action"]["type"]) for e in timeouts] == [
        (1, "commit"),
        (0, "commit"),
    ]
    assert deadlines_of(game)[0] > now


def test_nothing_is_due_before_the_deadline(alice, bob, run_sweep):
    game = clocked([alice, bob])
    assert run_sweep(timezone.now() + HOUR / 2)["due"] == 0
    assert game.events.count() == 1


def test_a_timeout_after_the_player_moved_does_nothing(alice, bob):
    from games.jobs import timeouts

    game = clocked([alice, bob])
    commit(game, alice, 0)
    assert timeouts.run_out(game.pk, 1, timezone.now() + 2 * HOUR) == []
    assert game.events.count() == 2


def test_skip_policy_passes_where_the_rules_allow(alice, bob, run_sweep):
    game = clocked([alice, bob], on_timeout="skip")
    commit(game, alice, 0)
    commit(game, bob, 1)
    run_sweep(timezone.now() + 2 * HOUR)
    assert Event.objects.filter(game=game, kind="timeout").first().payload["action"] == {
        "type": "pass"
    }


def test_forfeit_policy_resigns_the_seat(alice, bob, run_sweep):
    game = clocked([alice, bob], on_timeout="forfeit")
    run_sweep(timezone.now() + 2 * HOUR)
    game.refresh_from_db()
    assert game.status == "aborted"
    resign = Event.objects.get(game=game, kind="resign")
    assert resign.source == "timer" and "ran out of time" in resign.payload["reason"]


def test_consecutive_timeouts_forfeit_at_the_limit(alice, bob, run_sweep):
    game = clocked([alice, bob], max_timeouts=2)
    now = timezone.now()
    for step in range(1, 6):
        run_sweep(now + step * 2 * HOUR)
        game.refresh_from_db()
        if game.status != "active":
            break
    assert game.status == "aborted"
    assert Event.objects.filter(game=game, kind="resign").count() == 1


def test_a_players_own_move_resets_the_timeout_streak(alice, bob, run_sweep):
    game = clocked([alice, bob])
    run_sweep(timezone.now() + 2 * HOUR)
    assert Seat.objects.get(game=game, index=0).timeouts == 1
    game.refresh_from_db()
    check_submit_action(game, alice, action={"type": "pass"}, expected_seq=game.seq)
    assert Seat.objects.get(game=game, index=0).timeouts == 0


def test_moderator_policy_pauses_and_flags_the_game(alice, bob, run_sweep):
    game = clocked([alice, bob], on_timeout="moderator")
    run_sweep(timezone.now() + 2 * HOUR)
    game.refresh_from_db()
    assert game.flagged and game.paused and game.deadline is None
    assert Event.objects.filter(game=game, kind="clock").last().payload["clock"] == "pause"


def test_reminders_go_out_once_each(alice, bob, run_sweep, monkeypatch):
    from games import hooks

    sent = []
    monkeypatch.setattr(hooks.reminder, "listeners", [lambda g, s, o: sent.append((s.index, o))])
    game = clocked([alice, bob], per_move="10h", reminders=["5h", "1h"])
    now = timezone.now()
    run_sweep(now + 6 * HOUR)
    run_sweep(now + 6 * HOUR)
    assert sorted(sent) == [(0, 18000), (1, 18000)]
    run_sweep(now + datetime.timedelta(hours=9, minutes=30))
    assert sorted(sent) == [(0, 3600), (0, 18000), (1, 3600), (1, 18000)]
    assert game.events.count() == 1


def test_a_reminder_scheduled_too_early_is_set_right_and_not_sent(
    alice, bob, run_sweep, monkeypatch
):
    from games import hooks

    sent = []
    monkeypatch.setattr(hooks.reminder, "listeners", [lambda g, s, o: sent.append((s.index, o))])
    game = clocked([alice, bob], per_move="10h", reminders=["1h"])
    now = timezone.now()
    Seat.objects.filter(game=game).update(next_reminder=now - HOUR)  # stale: 9 h to go
    run_sweep(now)
    assert sent == []
    seat = Seat.objects.get(game=game, index=0)
    assert seat.next_reminder == seat.deadline - HOUR and seat.reminded == []


def test_a_moderator_pauses_and_resumes_with_the_time_left(alice, bob, mo):
    game = clocked([alice, bob])
    left_before = Seat.objects.get(game=game, index=0).deadline - timezone.now()
    check_pause(game, mo, reason="server maintenance")
    game.refresh_from_db()
    assert game.paused and set(deadlines_of(game).values()) == {None}
    check_resume(game, mo, reason="back")
    left_after = Seat.objects.get(game=game, index=0).deadline - timezone.now()
    assert abs((left_after - left_before).total_seconds()) < 5
    kinds = [e.payload["clock"] for e in Event.objects.filter(game=game, kind="clock")]
    assert kinds == ["pause", "resume"]


def test_a_moderator_extends_one_seats_deadline(alice, bob, mo):
    game = clocked([alice, bob])
    before = deadlines_of(game)
    event = check_extend(game, mo, by_seconds=7200, reason="travel", seat=1)
    after = deadlines_of(game)
    assert after[1] - before[1] == 2 * HOUR and after[0] == before[0]
    assert event.actor == mo and event.payload["reason"] == "travel"


def test_only_moderators_touch_the_clock(alice, bob):
    game = clocked([alice, bob])
    with pytest.raises(Forbidden):
        check_pause(game, alice, reason="I want more time")


def test_an_outage_extends_every_deadline_before_any_timeout(alice, bob, run_sweep, settings):
    settings.CORREO_OUTAGE_AFTER_SECONDS = 300
    game = clocked([alice, bob])
    start = timezone.now()
    run_sweep(start)
    before = deadlines_of(game)
    back = start + 3 * HOUR  # down for 3 hours, past every deadline
    report = run_sweep(back)
    assert report["outage_seconds"] == 3 * 3600 and report["due"] == 0
    assert deadlines_of(game)[0] - before[0] == 3 * HOUR
    outage = Event.objects.get(game=game, kind="clock")
    assert outage.payload["clock"] == "outage" and "outage" in outage.payload["reason"]
    assert not Event.objects.filter(game=game, kind="timeout").exists()


def test_vacation_stops_the_players_clocks_and_notifies_the_table(alice, bob, settings):
    settings.CORREO_VACATION_DAYS_PER_YEAR = 10
    game = clocked([alice, bob])
    before = deadlines_of(game)
    check_start_vacation(alice, days=3)
    after = deadlines_of(game)
    assert after[0] - before[0] == datetime.timedelta(days=3) and after[1] == before[1]
    notice = Event.objects.get(game=game, kind="clock")
    assert notice.payload["clock"] == "vacation" and notice.actor == alice
    assert vacation.budget(alice)["left"] == 7


def test_vacation_has_a_budget_and_a_minimum(alice, settings):
    settings.CORREO_VACATION_DAYS_PER_YEAR = 5
    settings.CORREO_VACATION_MIN_DAYS = 2
    with pytest.raises(InvalidRequest, match="at least 2"):
        check_start_vacation(alice, days=1)
    with pytest.raises(InvalidRequest, match="not enough vacation"):
        check_start_vacation(alice, days=6)


def test_a_game_may_opt_out_of_vacations(alice, bob):
    game = clocked([alice, bob], vacation=False)
    before = deadlines_of(game)
    check_start_vacation(alice, days=2)
    assert deadlines_of(game) == before
    assert not Event.objects.filter(game=game, kind="clock").exists()


def test_a_seat_coming_to_act_during_vacation_starts_after_it(alice, bob, run_sweep):
    game = clocked([alice, bob])
    commit(game, alice, 0)
    away = check_start_vacation(alice, days=2)
    commit(game, bob, 1)  # reveal: alice is to act again, while away
    assert deadlines_of(game)[0] == away.ends_at + HOUR
    assert isinstance(Game.objects.get(pk=game.pk).deadline, datetime.datetime)


def test_claimed_games_are_queued_in_batches(settings, monkeypatch):
    from games import tasks

    settings.CORREO_TIMEOUT_BATCH = 2
    sent = []
    monkeypatch.setattr(tasks.timeout_games, "delay", lambda batch, now: sent.append(batch))
    tasks.queue_timeouts([(1, 5), (2, 6), (3, 7)], timezone.now())
    assert sent == [[[1, 5], [2, 6]], [[3, 7]]]


def test_a_game_failing_in_a_batch_does_not_hold_the_others_back(alice, bob, monkeypatch):
    from django.db import DatabaseError

    from games import tasks
    from games.jobs import timeouts

    first, second = clocked([alice, bob]), clocked([alice, bob])
    real = timeouts.run_out

    def run_out(game_id, seq, now):
        if game_id == first.pk:
            raise DatabaseError("the database went away for this one")
        return real(game_id, seq, now)

    monkeypatch.setattr(timeouts, "run_out", run_out)
    later = timezone.now() + 2 * HOUR
    applied = tasks.timeout_games(
        [[first.pk, first.seq], [second.pk, second.seq]], later.isoformat()
    )
    assert applied == 2  # both of the second game's seats
    assert not Event.objects.filter(game=first, kind="timeout").exists()
    assert Event.objects.filter(game=second, kind="timeout").count() == 2
