"""The moderators' acts travel with the game: a lock, a pinned note, a seat
handed to another player, a forced resignation, an abort (and an abort
undone) each survive export, import into an empty database and export
again, and the imported row stands as the exporting server's did."""

from __future__ import annotations

import copy
import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from games.audit import exchange
from games.audit.verification import game_problems
from games.errors import GameLocked
from games.models import Event, Game, ModerationItem, Seat
from games.selectors import shown
from games.services.abort import check_abort
from games.services.bots import check_hand_to_bot
from games.services.clocks import check_lock, check_pause, check_resume, check_unlock, do_pause
from games.services.notes import check_pin_note
from games.services.queue import check_report
from games.services.replacement import check_replace_seat
from games.services.seats import check_force_resign
from games.services.suspension import check_suspend
from games.services.undo import check_undo
from tests.conftest import make_user
from tests.exchange.support import (
    duel_exported_elsewhere,
    exported_elsewhere,
    import_it,
    moves,
)
from tests.exchange.test_refusals import refused, resealed

TWO_DAYS = datetime.timedelta(days=2)
GAME_FACTS = ("id", "title", "engine_version", "chain_version", "options", "clock", "public",
              "spectator_delay", "status", "result", "seed", "state_hash")  # fmt: skip
ROW_FACTS = ("status", "to_act", "result", "abort_reason", "paused", "locked")


def round_trip(document: dict) -> Game:
    """Import into an empty database, export again: the same game, and
    verify_games finds nothing wrong."""
    assert not Game.objects.exists() and not User.objects.exists()
    game = import_it(document)
    again = exchange.export(game, exchange.full_viewer(game))
    assert again["events"][: len(document["events"])] == document["events"]
    assert {k: again["game"][k] for k in GAME_FACTS} == {
        k: document["game"][k] for k in GAME_FACTS
    }
    assert again["seats"] == document["seats"]
    assert again["accounts"] == document["accounts"]
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert out.getvalue() == "all games verified\n"
    return game


def row_facts(game: Game) -> dict:
    game.refresh_from_db()
    return {name: getattr(game, name) for name in ROW_FACTS}


# --- lock and unlock ------------------------------------------------------------


def test_a_lock_then_unlock_imports_unlocked_with_the_clocks_running(db):
    origin: dict = {}

    def act(game, players, moderator):
        moves(game, 2)
        check_lock(game, moderator, reason="a dispute")
        check_unlock(game, moderator, reason="settled")
        moves(game, 1, seed=2)
        origin.update(row_facts(game))  # the exporting server's row

    document = duel_exported_elsewhere(act)
    clocks = [e["payload"].get("clock") for e in document["events"] if e["kind"] == "clock"]
    assert clocks == ["lock", "unlock"]
    before = timezone.now()
    game = round_trip(document)
    assert row_facts(game) == origin and origin["locked"] is False and origin["paused"] is False
    to_act = Seat.objects.filter(game=game, to_act=True)
    assert to_act.exists() and all(seat.deadline >= before + TWO_DAYS for seat in to_act)


def test_a_game_exported_while_locked_imports_locked_with_its_clocks_stopped(db):
    origin: dict = {}

    def act(game, players, moderator):
        moves(game, 2)
        check_lock(game, moderator, reason="a dispute")
        origin.update(row_facts(game))  # the exporting server's row

    game = round_trip(duel_exported_elsewhere(act))
    assert row_facts(game) == origin and origin["locked"] is True and origin["paused"] is True
    assert game.deadline is None
    with pytest.raises(GameLocked):
        moves(game, 1)
    assert Event.objects.filter(game=game).count() == game.seq


def test_unlocking_an_imported_locked_game_gives_the_seat_to_act_a_full_move(db):
    game = import_it(duel_exported_elsewhere(
        lambda game, players, moderator: (moves(game, 2), check_lock(game, moderator, reason="x"))
    ))  # fmt: skip
    here = make_user("judge", is_moderator=True)
    before = timezone.now()
    check_unlock(game, here, reason="settled")
    game.refresh_from_db()
    assert (game.locked, game.paused) == (False, False)
    seat = Seat.objects.get(game=game, to_act=True)
    assert before + TWO_DAYS <= seat.deadline <= timezone.now() + TWO_DAYS
    assert game.deadline == seat.deadline and seat.remaining is None
    moves(game, 2, seed=3)
    assert list(game_problems(game)) == []


def test_resuming_an_imported_paused_game_gives_the_seat_to_act_a_full_move(db):
    game = import_it(duel_exported_elsewhere(
        lambda game, players, moderator: (moves(game, 1), check_pause(game, moderator, reason="x"))
    ))  # fmt: skip
    before = timezone.now()
    check_resume(game, make_user("judge", is_moderator=True), reason="back")
    seat = Seat.objects.get(game=game, to_act=True)
    assert before + TWO_DAYS <= seat.deadline <= timezone.now() + TWO_DAYS


def test_a_game_paused_before_its_lock_imports_still_paused_after_the_unlock(db):
    origin: dict = {}

    def act(game, players, moderator):
        moves(game, 2)
        check_pause(game, moderator, reason="a holiday")
        check_lock(game, moderator, reason="a dispute")
        check_unlock(game, moderator, reason="settled")
        origin.update(row_facts(game))  # the exporting server's row

    game = round_trip(duel_exported_elsewhere(act))
    assert row_facts(game) == origin and origin["paused"] is True and origin["locked"] is False
    assert game.deadline is None


# --- notes ----------------------------------------------------------------------


def test_a_pinned_note_round_trips_and_is_listed_on_the_imported_game(db):
    def act(game, players, moderator):
        moves(game, 2)
        check_pin_note(game, moderator, text="bob asked for more time")

    game = round_trip(duel_exported_elsewhere(act))
    notes = shown.pinned_notes(game, game.seq)
    assert [note["text"] for note in notes] == ["bob asked for more time"]
    event = Event.objects.get(game=game, seq=notes[0]["seq"])
    assert event.actor.username == "mo" and event.source == Event.Source.MODERATOR


def test_a_note_pinned_to_a_finished_game_round_trips(db):
    document = exported_elsewhere(
        "pointcity/2p-seed1.json",
        act=lambda game, players, moderator: check_pin_note(game, moderator, text="well played"),
    )
    assert document["game"]["status"] == Game.Status.FINISHED
    game = round_trip(document)
    assert [n["text"] for n in shown.pinned_notes(game, game.seq)] == ["well played"]


# --- seat replacement -----------------------------------------------------------


def replaced(game, players, moderator):
    moves(game, 2)
    make_user("carol")
    check_replace_seat(game, moderator, seat=1, username="carol", reason="bob left us")
    moves(game, 2, seed=4)


def test_a_replaced_seat_exports_both_players_and_imports_with_the_new_one_seated(db):
    document = duel_exported_elsewhere(replaced)
    assert {a["username"] for a in document["accounts"]} == {"alice", "bob", "carol", "mo"}
    assert [(s["seat"], s["username"]) for s in document["seats"]] == [(0, "alice"), (1, "carol")]
    game = round_trip(document)
    seated = dict(Seat.objects.filter(game=game).values_list("index", "user__username"))
    assert seated == {0: "alice", 1: "carol"}
    event = Event.objects.get(game=game, kind=Event.Kind.SEAT_REPLACED)
    here = dict(User.objects.values_list("username", "pk"))
    assert (event.payload["user"], event.payload["previous"]) == (here["carol"], here["bob"])


def test_a_mapped_import_relinks_the_new_and_the_previous_player_of_a_replaced_seat(db):
    document = duel_exported_elsewhere(replaced)
    make_user("filler")  # the export's ids are not these accounts' here
    here = {name: make_user(f"{name}-here") for name in ("alice", "bob", "carol", "mo")}
    game = import_it(
        document, mapping={name: user.username for name, user in here.items()},
        placeholders=False,
    )  # fmt: skip
    event = Event.objects.get(game=game, kind=Event.Kind.SEAT_REPLACED)
    assert (event.payload["user"], event.payload["previous"]) == (here["carol"].pk,
                                                                  here["bob"].pk)  # fmt: skip
    # What was said at the time stays as it was said.
    assert (event.payload["username"], event.payload["previous_username"]) == ("carol", "bob")
    assert Seat.objects.get(game=game, index=1).user == here["carol"]
    assert list(game_problems(game)) == []
    moves(game, 1, seed=5)  # carol-here plays the seat
    assert list(game_problems(game)) == []


def test_a_replacement_naming_a_previous_player_who_did_not_hold_the_seat_is_refused(db):
    document = duel_exported_elsewhere(replaced)
    tampered = copy.deepcopy(document)
    event = next(e for e in tampered["events"] if e["kind"] == "seat_replaced")
    alice = next(a["id"] for a in tampered["accounts"] if a["username"] == "alice")
    event["opening"]["payload"]["previous"] = alice
    assert "previous player did not hold the seat" in refused(resealed(tampered))


def test_a_seat_handed_to_a_bot_round_trips_with_this_servers_bot_in_it(db):
    def act(game, players, moderator):
        check_hand_to_bot(game, moderator, seat=1, kind="random", reason="bob vanished")

    game = round_trip(exported_elsewhere("havana/3p-seed1.json", steps=6, act=act))
    bot = Seat.objects.get(game=game, index=1).user
    assert (bot.username, game.bot_seats) == ("bot:random:1", [1])
    event = Event.objects.get(game=game, kind=Event.Kind.SEAT_REPLACED)
    bob = User.objects.get(username="bob")
    assert (event.payload["user"], event.payload["previous"]) == (bot.pk, bob.pk)


# --- forced resignation ---------------------------------------------------------


def test_a_forced_resignation_round_trips_with_the_moderator_as_actor(db):
    def act(game, players, moderator):
        check_force_resign(game, moderator, seat=2, reason="left for good")

    document = exported_elsewhere("havana/3p-seed1.json", steps=6, act=act)
    game = round_trip(document)
    assert game.status == Game.Status.ACTIVE
    assert Seat.objects.get(game=game, index=2).status == Seat.Status.RESIGNED
    resign = Event.objects.get(game=game, kind=Event.Kind.RESIGN)
    assert (resign.seat, resign.actor.username, resign.source) == (2, "mo", "moderator")
    assert resign.payload["reason"] == "left for good"


# --- abort ----------------------------------------------------------------------


def test_an_aborted_game_imports_aborted_with_its_reason(db):
    origin: dict = {}

    def act(game, players, moderator):
        moves(game, 2)
        check_abort(game, moderator, reason="a bug in the rules")
        origin.update(row_facts(game))  # the exporting server's row

    document = duel_exported_elsewhere(act)
    assert document["game"]["status"] == Game.Status.ABORTED
    game = round_trip(document)
    assert row_facts(game) == origin
    assert (game.status, game.abort_reason, game.to_act) == ("aborted", "a bug in the rules", [])
    assert not Seat.objects.filter(game=game, to_act=True).exists() and game.deadline is None


def test_a_game_aborted_while_locked_imports_aborted_and_locked_as_it_stood(db):
    origin: dict = {}

    def act(game, players, moderator):
        moves(game, 2)
        check_lock(game, moderator, reason="a dispute")
        check_abort(game, moderator, reason="cheating")
        origin.update(row_facts(game))  # the exporting server's row

    game = round_trip(duel_exported_elsewhere(act))
    assert row_facts(game) == origin
    assert (game.status, game.abort_reason, game.locked) == ("aborted", "cheating", True)


def test_an_aborted_then_undone_game_imports_active_without_a_reason(db):
    origin: dict = {}

    def act(game, players, moderator):
        moves(game, 2)
        game.refresh_from_db()
        before = game.seq
        check_abort(game, moderator, reason="a mistake")
        check_undo(game, moderator, to_seq=before, reason="aborted the wrong game")
        origin.update(row_facts(game))  # the exporting server's row

    document = duel_exported_elsewhere(act)
    assert [e["kind"] for e in document["events"][-2:]] == ["abort", "undo"]
    game = round_trip(document)
    assert row_facts(game) == origin
    assert (game.status, game.abort_reason) == (Game.Status.ACTIVE, "")
    assert game.to_act and Seat.objects.filter(game=game, to_act=True).exists()
    moves(game, 1, seed=6)
    assert list(game_problems(game)) == []


def test_an_aborted_game_exported_as_active_is_refused(db):
    document = duel_exported_elsewhere(
        lambda game, players, moderator: check_abort(game, moderator, reason="a bug")
    )
    document["game"]["status"] = Game.Status.ACTIVE
    assert "the replay ends aborted, the export says active" in refused(document)


def test_an_abort_reason_longer_than_this_server_keeps_is_refused(db):
    document = duel_exported_elsewhere(
        lambda game, players, moderator: check_abort(game, moderator, reason="a bug")
    )
    tampered = copy.deepcopy(document)
    tampered["events"][-1]["opening"]["payload"]["reason"] = "x" * 501
    assert f"event {tampered['game']['seq']}'s reason" in refused(resealed(tampered))


# --- what stays behind ----------------------------------------------------------


def test_the_moderation_queue_and_suspensions_stay_on_the_exporting_server(db):
    def act(game, players, moderator):
        moves(game, 2)
        check_report(game, players[0], reason="bob is rude")
        do_pause(game, actor=None, reason="timed out", source=Event.Source.TIMER, flag=True)
        check_suspend(players[1], moderator, reason="rude")

    document = duel_exported_elsewhere(act)
    game = import_it(document)
    assert not ModerationItem.objects.exists()
    assert game.flagged is False and game.paused is True
    assert User.objects.get(username="bob").suspended is False
    assert list(game_problems(game)) == []
