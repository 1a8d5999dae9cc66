"""A moderator's acts on a game: replace a seat, force a resignation, abort,
pin a note, lock and unlock.  Each is an event with the moderator and the
reason; by anyone else each is refused and changes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.utils import timezone

from config.celery import app as celery_app
from games.audit.verification import game_problems
from games.errors import Conflict, Forbidden, GameLocked, GameNotActive, InvalidRequest, NotASeat
from games.models import Event, Game, Seat
from games.selectors import shown
from games.selectors.viewers import Viewer
from games.services.abort import check_abort
from games.services.clocks import check_lock, check_resume, check_unlock
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.notes import check_pin_note
from games.services.replacement import check_replace_seat
from games.services.seats import check_force_resign, check_resign
from games.services.takeback import check_request_takeback
from games.services.undo import check_undo
from tests.support.play import current_state, hand

HOUR = datetime.timedelta(hours=1)


@pytest.fixture(autouse=True)
def eager_tasks(settings):
    settings.CORREO_OUTAGE_AFTER_SECONDS = 10**9
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = eager


def duel(alice, bob, **clock):
    return do_create_game(
        title="duel", players=[alice, bob], options={"rounds": 2}, seed=3,
        clock={"per_move": "1h", **clock} if clock else None,
    )  # fmt: skip


def commit(game, user, seat):
    card = hand(game, seat)[0]
    return check_submit_action(
        game, user, action={"type": "commit", "card": card}, expected_seq=game.seq
    )


def stream(game) -> list[tuple]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "hash"))


def snapshot(game) -> tuple:
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).order_by("index").values())
    return (game.seq, game.status, game.locked, game.paused, stream(game), seats)


def last_event(game) -> Event:
    return Event.objects.filter(game=game).order_by("-seq").first()


def acts(charlie):
    """Every act with good arguments, as f(game, by)."""
    return {
        "replace": lambda g, by: check_replace_seat(g, by, seat=1, username="charlie",
                                                    reason="bob left"),
        "force_resign": lambda g, by: check_force_resign(g, by, seat=1, reason="bob left"),
        "abort": lambda g, by: check_abort(g, by, reason="a broken setup"),
        "note": lambda g, by: check_pin_note(g, by, text="play on, please"),
        "lock": lambda g, by: check_lock(g, by, reason="a dispute"),
    }  # fmt: skip


@pytest.mark.parametrize("act", ["replace", "force_resign", "abort", "note", "lock"])
def test_each_act_is_an_event_with_the_moderator_and_the_reason(alice, bob, charlie, mo, act):
    game = duel(alice, bob, on_timeout="auto")
    event = acts(charlie)[act](game, mo)
    assert last_event(game) == event and event.seq == 2
    assert (event.actor, event.source) == (mo, "moderator")
    assert event.payload["reason"]
    assert list(game_problems(Game.objects.get(pk=game.pk))) == []


@pytest.mark.parametrize("act", ["replace", "force_resign", "abort", "note", "lock"])
def test_each_act_is_refused_to_a_player_and_a_stranger(alice, bob, charlie, eve, act):
    game = duel(alice, bob, on_timeout="auto")
    before = snapshot(game)
    for user in (alice, eve):
        with pytest.raises(Forbidden):
            acts(charlie)[act](game, user)
    assert snapshot(game) == before


def test_unlock_is_refused_to_a_player(alice, bob, mo):
    game = duel(alice, bob)
    check_lock(game, mo, reason="a dispute")
    before = snapshot(game)
    with pytest.raises(Forbidden):
        check_unlock(game, alice, reason="I say so")
    assert snapshot(game) == before


@pytest.mark.parametrize("reason", ["", "   ", None, 7, "x" * 501, "a\x00b"])
def test_an_act_without_a_fit_reason_is_refused(alice, bob, mo, reason):
    game = duel(alice, bob)
    before = snapshot(game)
    for act in (check_abort, check_lock):
        with pytest.raises(InvalidRequest):
            act(game, mo, reason=reason)
    with pytest.raises(InvalidRequest):
        check_pin_note(game, mo, text=reason)
    assert snapshot(game) == before


# --- replacing a seat ---------------------------------------------------------


def test_the_new_player_inherits_the_seat_its_hand_and_its_clock(alice, bob, charlie, mo):
    game = duel(alice, bob, on_timeout="auto")
    bobs_hand = hand(game, 1)
    deadline = Seat.objects.get(game=game, index=1).deadline
    event = check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    assert event.kind == "seat_replaced" and event.seat == 1
    assert event.payload == {
        "seat": 1, "user": charlie.pk, "username": "charlie", "previous": bob.pk,
        "previous_username": "bob", "reason": "bob left",
    }  # fmt: skip
    seat = Seat.objects.get(game=game, index=1)
    assert (seat.user, seat.status, seat.deadline) == (charlie, "active", deadline)
    assert hand(game, 1) == bobs_hand
    commit(game, charlie, 1)  # the new player plays the seat
    assert last_event(game).actor == charlie and last_event(game).seat == 1


def test_the_old_player_is_refused_at_once(alice, bob, charlie, mo):
    game = duel(alice, bob)
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    before = snapshot(game)
    with pytest.raises(NotASeat):
        check_submit_action(game, bob, action={"type": "commit", "card": hand(game, 1)[0]},
                            expected_seq=game.seq)  # fmt: skip
    with pytest.raises(NotASeat):
        check_resign(game, bob)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("seat", "username"),
    [
        (5, "charlie"),
        ("1", "charlie"),
        (10**30, "charlie"),
        (1, "nobody"),
        (1, "alice"),
        (1, "bob"),
        (1, None),
        (1, "char\x00lie"),
    ],
)
def test_a_replacement_that_cannot_be_is_refused(alice, bob, charlie, mo, seat, username):
    game = duel(alice, bob)
    before = snapshot(game)
    with pytest.raises(InvalidRequest):
        check_replace_seat(game, mo, seat=seat, username=username, reason="x")
    assert snapshot(game) == before


def test_a_suspended_or_inactive_account_cannot_take_a_seat(alice, bob, charlie, mo):
    game = duel(alice, bob)
    before = snapshot(game)
    for fields in ({"suspended": True}, {"is_active": False}):
        type(charlie).objects.filter(pk=charlie.pk).update(**fields)
        with pytest.raises(InvalidRequest):
            check_replace_seat(game, mo, seat=1, username="charlie", reason="x")
        type(charlie).objects.filter(pk=charlie.pk).update(suspended=False, is_active=True)
    assert snapshot(game) == before


def test_a_seat_of_a_game_that_ended_cannot_be_handed_over(alice, bob, charlie, mo):
    game = duel(alice, bob)
    check_resign(game, bob)  # the test title cannot go on without a seat
    before = snapshot(game)
    with pytest.raises(GameNotActive):
        check_replace_seat(game, mo, seat=1, username="charlie", reason="x")
    assert snapshot(game) == before


def test_verify_games_passes_after_a_replacement_and_an_undo_behind_it(alice, bob, charlie, mo):
    game = duel(alice, bob)
    commit(game, alice, 0)
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    commit(game, charlie, 1)
    check_undo(game, mo, to_seq=2, reason="a slip")
    assert list(game_problems(Game.objects.get(pk=game.pk))) == []


# --- force resignation, abort, note ------------------------------------------


def test_a_forced_resignation_is_the_seats_resign_by_the_moderator(alice, bob, carol, mo):
    game = do_create_game(title="duel", players=[alice, bob, carol], seed=3)
    event = check_force_resign(game, mo, seat=2, reason="left for good")
    assert (event.kind, event.seat, event.payload) == (
        "resign", 2, {"reason": "left for good", "aborts": True},  # the test title's rule
    )  # fmt: skip
    assert Seat.objects.get(game=game, index=2).status == "resigned"
    with pytest.raises(GameNotActive):
        check_force_resign(game, mo, seat=2, reason="again")


@pytest.mark.parametrize("seat", [3, -1, "0", None, 10**30])
def test_a_forced_resignation_of_no_seat_is_refused(alice, bob, mo, seat):
    game = duel(alice, bob)
    before = snapshot(game)
    with pytest.raises(InvalidRequest):
        check_force_resign(game, mo, seat=seat, reason="x")
    assert snapshot(game) == before


def test_an_abort_ends_the_game_with_its_reason(alice, bob, mo):
    game = duel(alice, bob, on_timeout="auto")
    check_abort(game, mo, reason="a broken setup")
    game.refresh_from_db()
    assert (game.status, game.abort_reason, game.to_act, game.result) == (
        "aborted", "a broken setup", [], None,
    )  # fmt: skip
    assert game.deadline is None
    before = snapshot(game)
    with pytest.raises(GameNotActive):
        commit(game, alice, 0)
    with pytest.raises(GameNotActive):
        check_abort(game, mo, reason="again")
    assert snapshot(game) == before


def test_an_undo_to_before_the_abort_brings_the_game_back(alice, bob, mo):
    game = duel(alice, bob)
    check_abort(game, mo, reason="by mistake")
    check_undo(game, mo, to_seq=1, reason="the abort was a mistake")
    game.refresh_from_db()
    assert (game.status, game.abort_reason, game.to_act) == ("active", "", [0, 1])
    assert list(game_problems(game)) == []


def test_a_note_changes_nothing_but_the_log_also_after_the_end(alice, bob, mo):
    game = duel(alice, bob)
    state = current_state(game)
    check_pin_note(game, mo, text="be kind")
    assert current_state(game) == state
    check_abort(game, mo, reason="done")
    note = check_pin_note(game, mo, text="aborted after a complaint")
    assert note.payload == {"note": "pinned", "reason": "aborted after a complaint"}
    assert list(game_problems(Game.objects.get(pk=game.pk))) == []


# --- lock ----------------------------------------------------------------------


def test_a_lock_refuses_moves_takebacks_and_resigns(alice, bob, mo):
    game = duel(alice, bob)
    commit(game, alice, 0)
    check_lock(game, mo, reason="a dispute")
    before = snapshot(game)
    with pytest.raises(GameLocked) as refused:
        commit(game, bob, 1)
    assert "locked" in refused.value.message
    with pytest.raises(GameLocked):
        check_request_takeback(game, alice, expected_seq=game.seq)
    with pytest.raises(GameLocked):
        check_resign(game, bob)
    assert snapshot(game) == before
    check_unlock(game, mo, reason="settled")
    commit(game, bob, 1)


def test_a_lock_pauses_the_clocks_and_the_unlock_resumes_them(alice, bob, mo, run_sweep):
    game = duel(alice, bob, on_timeout="auto")
    left = Seat.objects.get(game=game, index=0).deadline - timezone.now()
    check_lock(game, mo, reason="a dispute")
    game.refresh_from_db()
    assert game.locked and game.paused and game.deadline is None
    assert run_sweep(timezone.now() + 3 * HOUR)["due"] == 0
    assert not Event.objects.filter(game=game, kind="timeout").exists()
    with pytest.raises(GameLocked):
        check_resume(game, mo, reason="not while locked")
    check_unlock(game, mo, reason="settled")
    game.refresh_from_db()
    assert not game.locked and not game.paused
    left_after = Seat.objects.get(game=game, index=0).deadline - timezone.now()
    assert abs((left_after - left).total_seconds()) < 5
    clocks = [e.payload["clock"] for e in Event.objects.filter(game=game, kind="clock")]
    assert clocks == ["lock", "unlock"]


def test_unlocking_keeps_a_pause_that_was_there_before_the_lock(alice, bob, mo):
    game = duel(alice, bob, on_timeout="auto")
    from games.services.clocks import check_pause

    check_pause(game, mo, reason="maintenance")
    check_lock(game, mo, reason="a dispute")
    check_unlock(game, mo, reason="settled")
    game.refresh_from_db()
    assert game.paused and not game.locked


def test_a_delayed_view_shows_the_lock_and_the_pause_it_made_as_they_stood(alice, bob, mo):
    game = duel(alice, bob, on_timeout="auto")
    locked_at = check_lock(game, mo, reason="a dispute").seq
    unlocked_at = check_unlock(game, mo, reason="settled").seq
    check_pin_note(game, mo, text="settled")
    game.refresh_from_db()

    def at(head):
        view = shown.game_detail(game, Viewer(seat=None, moderator=False, head=head,
                                                  delayed=True))  # fmt: skip
        return view["paused"], view["locked"]

    assert (at(locked_at - 1), at(locked_at), at(unlocked_at)) == (
        (False, False), (True, True), (False, False)
    )  # fmt: skip


@pytest.mark.parametrize(
    ("clocks", "paused_locked"),
    [
        (["lock"], (True, True)),
        (["lock", "unlock"], (False, False)),
        (["pause", "lock-kept"], (True, True)),
        (["pause", "lock-kept", "unlock"], (True, False)),
        (["lock", "unlock", "pause"], (True, False)),
        (["pause", "resume", "lock", "unlock", "extend"], (False, False)),
    ],
)
def test_the_clock_events_say_whether_a_game_is_paused_and_locked(clocks, paused_locked):
    """As games.services.clocks acts: a lock of running clocks stops them
    (`pauses`), its unlock restarts only those; a lock of a paused game
    leaves the pause to outlast it."""
    payloads = [
        {"clock": "lock", "pauses": False} if clock == "lock-kept"
        else {"clock": "lock", "pauses": True} if clock == "lock"
        else {"clock": clock}
        for clock in clocks
    ]  # fmt: skip
    assert shown.clock_marks(payloads) == paused_locked


def test_lock_twice_or_unlock_an_open_game_is_a_conflict(alice, bob, mo):
    game = duel(alice, bob)
    with pytest.raises(Conflict):
        check_unlock(game, mo, reason="x")
    check_lock(game, mo, reason="a dispute")
    before = snapshot(game)
    with pytest.raises(Conflict):
        check_lock(game, mo, reason="again")
    assert snapshot(game) == before


def test_verify_games_passes_on_games_with_every_moderator_event(alice, bob, carol, charlie, mo,
                                                                  capsys):  # fmt: skip
    game = do_create_game(title="duel", players=[alice, bob, carol], seed=3,
                          clock={"per_move": "1h"})  # fmt: skip
    check_lock(game, mo, reason="a dispute")
    check_pin_note(game, mo, text="looking into it")
    check_unlock(game, mo, reason="settled")
    check_replace_seat(game, mo, seat=1, username="charlie", reason="bob left")
    check_force_resign(game, mo, seat=2, reason="carol left")
    check_abort(duel(alice, bob), mo, reason="broken")
    call_command("verify_games")
    assert capsys.readouterr().out.endswith("all games verified\n")
