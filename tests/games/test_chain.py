"""The event chain: what each viewer can check, the seals, and who may act.

alice and bob play the test engine (duel), whose face-down card choice is
shown to the other seat as a bare "commit"; eve watches; mo moderates.
"""

from __future__ import annotations

import datetime
import importlib
import random

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from config.celery import app as celery_app
from games import tasks
from games.models import Event, Game, LegacySeal
from games.services.clocks import check_pause, check_resume
from games.services.creation import do_create_game
from games.services.takeback import check_answer_takeback, check_request_takeback
from games.services.undo import check_undo
from games.services.vacation import check_start_vacation
from games.stream import chain, store
from tests.api.conftest import client_for
from tests.support.play import random_move, users_by_seat
from tests.support.tamper import triggers_disabled


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], options={"rounds": 2}, seed=5)


@pytest.fixture
def legacy_chain(monkeypatch):
    """Games created now hash as games created before version 2 did."""
    monkeypatch.setattr(Game._meta.get_field("chain_version"), "default", 1)


def play(game: Game, moves: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != "active":
            return
        random_move(game, rng)


def play_out(game: Game) -> None:
    play(game, 10_000)
    game.refresh_from_db()
    assert game.status == "finished"


def shown_events(user, game: Game) -> list[dict]:
    return client_for(user).get(f"/api/games/{game.pk}/events/?limit=100").json()["events"]


def verify(capsys) -> tuple[int, str]:
    try:
        call_command("verify_games")
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


# --- what viewers can check ---------------------------------------------------------


def test_every_viewer_can_check_every_link_and_public_part_while_the_game_runs(
    game, alice, bob, eve
):
    play(game, 5)
    for viewer in (alice, bob, eve):
        events = shown_events(viewer, game)
        assert [e["seq"] for e in events] == list(range(1, game.seq + 1))
        assert events[0]["prev_hash"] == chain.GENESIS_HASH
        assert chain.verify_shown(game.pk, 2, events) == []
        detail = client_for(viewer).get(f"/api/games/{game.pk}/").json()
        assert detail["head_hash"] == events[-1]["hash"]


def test_a_player_opens_their_own_events_and_nobody_elses(game, alice, bob, eve):
    play(game, 5)
    for viewer, seat in ((alice, 0), (bob, 1), (eve, None)):
        for event in shown_events(viewer, game):
            own = event["seat"] == seat and event["kind"] != "created"
            assert ("opening" in event) == own, (viewer, event)
            if own:
                stored = Event.objects.get(game=game, seq=event["seq"])
                assert event["opening"] == {
                    "actor": viewer.pk,
                    "nonce": stored.nonce,
                    "payload": stored.payload,
                }
                assert chain.sha256(event["opening"]) == event["commitment"]


def test_a_players_own_hidden_action_comes_with_the_public_form_the_hash_covers(game, alice, bob):
    play(game, 3)
    for viewer, seat in ((alice, 0), (bob, 1)):
        own = [e for e in shown_events(viewer, game) if e["seat"] == seat]
        commits = [e for e in own if e["kind"] == "action" and "card" in e["payload"]["action"]]
        assert commits, "a face-down choice was made"
        for event in commits:
            assert event["public_payload"]["action"] == {"type": "commit"}


def test_after_the_end_everyone_can_check_every_opening(game, eve):
    play_out(game)
    events = shown_events(eve, game)
    assert all("opening" in event for event in events)
    assert events[0]["payload"]["setup"]
    assert chain.verify_shown(game.pk, 2, events) == []


def test_a_moderator_is_shown_every_opening_while_the_game_runs(game, mo):
    play(game, 5)
    audit = client_for(mo).get(f"/api/games/{game.pk}/audit/").json()
    assert all("opening" in event for event in audit["events"])
    assert chain.verify_shown(game.pk, 2, audit["events"]) == []


def test_the_check_catches_a_shown_event_that_was_changed(game, alice):
    play(game, 4)
    events = shown_events(alice, game)
    own = next(e for e in events if e["seat"] == 0 and "card" in e["payload"]["action"])
    own["opening"]["payload"]["action"]["card"] += 1
    other = next(e for e in events if e["seat"] == 1)
    other["source"] = "email"
    problems = chain.verify_shown(game.pk, 2, events)
    assert f"seq {own['seq']}: opening does not match the commitment" in problems
    assert f"seq {other['seq']}: hash does not match what was shown" in problems


def test_every_event_has_a_fresh_128_bit_nonce_that_others_are_never_shown(game, bob, eve):
    play(game, 6)
    nonces = list(Event.objects.filter(game=game).values_list("nonce", flat=True))
    assert all(len(nonce) == 32 and int(nonce, 16) >= 0 for nonce in nonces)
    assert len(set(nonces)) == len(nonces)
    shown = str(shown_events(eve, game)) + str(
        client_for(eve).get(f"/api/games/{game.pk}/").json()
    )
    assert not any(nonce in shown for nonce in nonces)


# --- games hashed under version 1 ----------------------------------------------------


def test_a_version_1_game_keeps_verifying_under_its_own_rule(legacy_chain, game, capsys):
    play(game, 5)
    assert game.chain_version == 1
    events = list(Event.objects.filter(game=game))
    assert all(event.nonce == "" for event in events)
    assert store.chain_problems(game, events) == []
    assert verify(capsys) == (0, "all games verified\n")


def test_a_version_1_game_shows_its_hashes_only_to_those_who_see_everything(
    legacy_chain, game, alice, eve, mo
):
    play(game, 5)
    for viewer in (alice, eve):
        assert {e["hash"] for e in shown_events(viewer, game)} == {None}
        assert client_for(viewer).get(f"/api/games/{game.pk}/").json()["head_hash"] is None
        record = client_for(viewer).get(f"/api/games/{game.pk}/verify/").json()
        assert record["head_hash"] is record["created_event_hash"] is None
    audit = client_for(mo).get(f"/api/games/{game.pk}/audit/").json()
    assert audit["events"][-1]["hash"] == game.head_hash
    play_out(game)
    events = shown_events(eve, game)
    assert events[-1]["hash"] == game.head_hash
    assert chain.verify_shown(game.pk, 1, events) == []


# --- seals ---------------------------------------------------------------------------


def rewrite_and_rehash(game: Game, seq: int, **changes) -> None:
    """Change an event's columns, then recompute every hash from it on under
    the game's rule and move the game's head: all a forger without the key can do."""
    with triggers_disabled(), connection.cursor() as cursor:
        for column, value in changes.items():
            cursor.execute(
                f"UPDATE games_event SET {column} = %s WHERE game_id = %s AND seq = %s",
                [value, game.pk, seq],
            )
        prev = Event.objects.get(game=game, seq=seq).prev_hash
        for event in Event.objects.filter(game=game, seq__gte=seq).order_by("seq"):
            event.prev_hash = prev
            prev = chain.compute_hash(event, game.chain_version)
            cursor.execute(
                "UPDATE games_event SET prev_hash = %s, hash = %s WHERE id = %s",
                [event.prev_hash, prev, event.pk],
            )
    Game.objects.filter(pk=game.pk).update(head_hash=prev)


@pytest.mark.parametrize("version", [1, 2])
def test_rewriting_an_event_and_rehashing_the_chain_is_detected(
    version, monkeypatch, game, alice, bob, eve, capsys
):
    """The last event's actor and source changed, every hash recomputed: the
    sha256 chain is whole again, but the seals were made with a key the
    forger does not have."""
    monkeypatch.setattr(Game._meta.get_field("chain_version"), "default", version)
    forged = do_create_game(title="duel", players=[alice, bob], seed=9)
    play(forged, 4)
    forged.refresh_from_db()
    rewrite_and_rehash(forged, forged.seq, actor_id=eve.pk, source="email")
    forged.refresh_from_db()
    events = list(Event.objects.filter(game=forged))
    assert not any("hash does not match" in p for p in store.chain_problems(forged, events))
    code, out = verify(capsys)
    assert code == 1
    assert f"game {forged.pk} (duel): seq {forged.seq}: seal does not match" in out
    assert f"user {eve.pk} acted for seat" in out
    assert f"game {game.pk} " not in out


def test_an_event_stripped_of_its_seal_is_detected(game, capsys):
    play(game, 3)
    game.refresh_from_db()
    rewrite_and_rehash(game, 2, mac="", key_id="")
    code, out = verify(capsys)
    assert code == 1
    assert f"game {game.pk} (duel): seq 2: not sealed" in out


@pytest.mark.postgres
def test_truncating_the_event_table_is_refused(game):
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's own inserts
    with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
        connection.cursor().execute("TRUNCATE games_event CASCADE")
    assert Event.objects.filter(game=game).exists()


@pytest.mark.postgres
def test_updating_or_deleting_an_event_row_is_refused(game):
    for statement in ("UPDATE games_event SET source = 'web'", "DELETE FROM games_event"):
        with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
            connection.cursor().execute(statement)


def strip_every_seal(game: Game) -> None:
    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET mac = '', key_id = '' WHERE game_id = %s", [game.pk]
        )


@pytest.fixture
def game_from_before_seals(legacy_chain, alice, bob):
    """A version-1 game as the upgrade found it (no seals), sealed by the upgrade."""
    old = do_create_game(title="duel", players=[alice, bob], seed=13)
    play(old, 3)
    strip_every_seal(old)
    importlib.import_module("games.migrations.0010_legacy_seals").seal_heads(apps, None)
    old.refresh_from_db()
    return old


def test_the_upgrade_seals_the_head_of_a_game_older_than_seals(game_from_before_seals, capsys):
    old = game_from_before_seals
    assert old.legacy_seal.seq == old.seq and old.legacy_seal.hash == old.head_hash
    assert verify(capsys) == (0, "all games verified\n")
    play(old, 2, seed=4)
    assert verify(capsys) == (0, "all games verified\n")


def test_an_old_game_rewritten_before_its_upgrade_seal_is_detected(
    game_from_before_seals, eve, capsys
):
    old = game_from_before_seals
    rewrite_and_rehash(old, 2, actor_id=eve.pk)
    strip_every_seal(old)
    code, out = verify(capsys)
    assert code == 1
    assert f"the upgrade's seal at seq {old.seq} was made for another chain" in out


def test_stripping_the_seals_of_an_old_games_later_events_is_detected(
    game_from_before_seals, capsys
):
    old = game_from_before_seals
    play(old, 2, seed=4)
    old.refresh_from_db()
    strip_every_seal(old)
    code, out = verify(capsys)
    assert code == 1
    assert f"game {old.pk} (duel): seq {old.seq}: not sealed" in out


def test_an_old_game_whose_upgrade_seal_was_deleted_is_detected(game_from_before_seals, capsys):
    LegacySeal.objects.filter(game=game_from_before_seals).delete()
    code, out = verify(capsys)
    assert code == 1
    assert f"game {game_from_before_seals.pk} (duel): seq 1: not sealed" in out


def test_seals_made_with_a_retired_key_keep_verifying(game, settings, capsys):
    play(game, 2)
    old = settings.CHAIN_KEY
    settings.CHAIN_KEY, settings.CHAIN_KEYS_RETIRED = "n" * 40, [old]
    play(game, 2, seed=2)
    key_ids = list(Event.objects.filter(game=game).values_list("key_id", flat=True))
    assert key_ids[0] == chain.key_id(old) and key_ids[-1] == chain.key_id("n" * 40)
    assert verify(capsys) == (0, "all games verified\n")
    settings.CHAIN_KEYS_RETIRED = []
    code, out = verify(capsys)
    assert code == 1
    assert f"seq 1: sealed with key {chain.key_id(old)!r}, which this server lacks" in out


def test_a_key_id_reveals_nothing_of_its_key():
    key = "k" * 40
    assert key not in chain.key_id(key) and len(chain.key_id(key)) == 16
    assert chain.key_id(key) != chain.key_id(key + "x")


# --- who may act ----------------------------------------------------------------------


def append(game: Game, **fields) -> Event:
    game.refresh_from_db()
    return store.append(
        game, expected_seq=game.seq, head_hash=game.head_hash,
        **{"kind": "note", "payload": {}, **fields},
    )  # fmt: skip


def test_an_event_by_someone_who_does_not_hold_the_seat_is_reported(game, eve, capsys):
    append(game, seat=0, actor=eve, source="api")
    code, out = verify(capsys)
    assert code == 1
    alice = users_by_seat(game)[0]
    assert f"user {eve.pk} acted for seat 0, held by {alice.pk}" in out


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"source": "timer", "actor": "eve"}, "a timer event has an actor"),
        ({"source": "system", "actor": "eve"}, "a system event has an actor"),
        ({"source": "moderator"}, "a moderator's event has no actor"),
        ({"source": "email", "actor": "eve"}, "acted without a seat in the game"),
        ({"source": "api", "seat": 7, "actor": "alice"}, "seat 7 does not exist"),
        ({"source": "carrier-pigeon"}, "unknown source 'carrier-pigeon'"),
    ],
)
def test_events_by_the_wrong_kind_of_actor_are_reported(game, alice, eve, fields, problem, capsys):
    people = {"alice": alice, "eve": eve}
    if "actor" in fields:
        fields = {**fields, "actor": people[fields["actor"]]}
    append(game, **fields)
    code, out = verify(capsys)
    assert code == 1
    assert problem in out


def test_seat_rows_that_differ_from_the_stream_are_reported(game, eve, capsys):
    game.seats.filter(index=1).update(user=eve)
    code, out = verify(capsys)
    assert code == 1
    assert "the seats' players" in out


def test_every_kind_of_actor_the_server_writes_verifies(
    game, alice, bob, mo, capsys, settings, django_capture_on_commit_callbacks
):
    """Moves, a takeback approved (a system undo), a moderator's undo and
    clock acts, a vacation and a timeout: none is reported."""
    settings.CORREO_OUTAGE_AFTER_SECONDS = 10**9
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        clocked = do_create_game(
            title="duel", players=[alice, bob], seed=3, clock={"per_move": "1h"}
        )
        play(clocked, 1)
        clocked.refresh_from_db()
        mover = users_by_seat(clocked)[Event.objects.get(game=clocked, seq=2).seat]
        other = alice if mover == bob else bob
        check_request_takeback(clocked, mover, expected_seq=clocked.seq)
        check_answer_takeback(clocked, other, answer="approve", expected_seq=clocked.seq)
        clocked.refresh_from_db()
        check_pause(clocked, mo, reason="dispute")
        check_resume(clocked, mo, reason="settled")
        check_start_vacation(alice, days=2)
        with django_capture_on_commit_callbacks(execute=True):
            tasks.sweep_and_queue(timezone.now() + datetime.timedelta(days=5))
        clocked.refresh_from_db()
        check_undo(clocked, mo, to_seq=1, reason="start over")
    finally:
        celery_app.conf.task_always_eager = eager
    kinds = set(Event.objects.filter(game=clocked).values_list("kind", "source"))
    assert {("undo", "system"), ("undo", "moderator"), ("clock", "api")} <= kinds
    assert ("timeout", "timer") in kinds
    assert verify(capsys) == (0, "all games verified\n")
