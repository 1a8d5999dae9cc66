"""Export, import into a database without the game, export again: the same
game, event for event, hash for hash, state for state."""

from __future__ import annotations

import datetime
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from accounts.bots import Wanted
from accounts.models import User
from games.audit import exchange, golden
from games.audit.exchange import IMPORTED
from games.audit.verification import game_problems
from games.errors import ImportRefused
from games.models import Event, Game, Seat
from games.services.clocks import check_pause
from games.services.creation import do_create_game
from games.services.undo import check_undo
from games.stream import chain, store
from games.stream.derived import engine_for
from tests.bots.play import person_moves
from tests.conftest import make_user
from tests.exchange.support import (
    NAMES,
    ROUND_TRIPS,
    duel_exported_elsewhere,
    exported_elsewhere,
    forgotten,
    import_it,
    moves,
    recording,
)
from tests.support.tamper import triggers_disabled

HAVANA_FOR_3 = "havana/3p-seed1.json"


@pytest.mark.slow
@pytest.mark.parametrize("name", ROUND_TRIPS)
def test_an_export_imported_into_an_empty_database_exports_the_same_game(db, name):
    document = exported_elsewhere(name)
    assert not Game.objects.exists() and not User.objects.exists()

    game = import_it(document)

    again = exchange.export(game, exchange.full_viewer(game))
    count = len(document["events"])
    assert again["events"][:count] == document["events"]
    assert again["game"]["state_hash"] == document["game"]["state_hash"]
    assert again["game"]["id"] == document["game"]["id"]
    for key in ("status", "result", "options", "seed", "engine_version", "chain_version"):
        assert again["game"][key] == document["game"][key]
    assert again["seats"] == document["seats"]
    assert again["commitment"]["salt"] == document["commitment"]["salt"]
    played = recording(name)
    state = store.load(game, engine_for(game), memo=False, use_snapshots=False).state
    assert golden.state_hash(state) == played.final_hash
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert out.getvalue() == "all games verified\n"


def test_the_import_is_recorded_in_a_final_sealed_note(db):
    document = exported_elsewhere(HAVANA_FOR_3)
    game = import_it(document)
    note = Event.objects.get(game=game, seq=game.seq)
    assert note.kind == Event.Kind.NOTE and note.seq == len(document["events"]) + 1
    assert note.payload["note"] == IMPORTED
    assert note.payload["origin"]["head_hash"] == document["events"][-1]["hash"]
    assert note.payload["origin"]["relinked"] is False
    assert note.payload["accounts"] == {n: n for n in NAMES[:3]}


def test_placeholder_accounts_are_inactive_and_cannot_log_in(db):
    game = import_it(exported_elsewhere(HAVANA_FOR_3))
    players = User.objects.filter(seats__game=game)
    assert players.count() == 3
    assert all(not user.is_active and not user.has_usable_password() for user in players)


def test_mapped_accounts_play_the_seats_and_the_chain_is_relinked_under_their_ids(db):
    document = exported_elsewhere(HAVANA_FOR_3)
    make_user("filler")  # the ids of the export's accounts are not theirs here
    here = {name: make_user(f"{name}2") for name in NAMES[:3]}
    game = import_it(
        document, mapping={name: user.username for name, user in here.items()},
        placeholders=False,
    )  # fmt: skip
    seated = dict(game.seats.values_list("index", "user__username"))
    assert seated == {0: "alice2", 1: "bob2", 2: "carol2"}
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert events[0].payload["seats"] == [here[n].pk for n in NAMES[:3]]
    assert events[-1].payload["origin"]["relinked"] is True
    assert [e.hash for e in events[:-1]] != [e["hash"] for e in document["events"]]
    assert list(game_problems(game)) == []
    assert User.objects.filter(is_active=False).count() == 0


def test_a_taken_game_id_gives_the_import_a_new_one(db):
    document = exported_elsewhere(HAVANA_FOR_3)
    first = import_it(document)
    for user in User.objects.all():
        user.username += "-old"
        user.save()
    second = import_it(document)
    assert second.pk != first.pk
    assert list(game_problems(second)) == []


def test_placeholders_keep_the_ids_that_are_free_and_the_others_get_new_ones(db):
    document = exported_elsewhere(HAVANA_FOR_3)
    ids = {a["username"]: a["id"] for a in document["accounts"]}
    make_user("squatter", id=min(ids.values()))
    game = import_it(document)
    here = dict(User.objects.filter(is_active=False).values_list("username", "pk"))
    kept = {name for name, pk in here.items() if pk == ids[name]}
    assert kept == set(ids) - {min(ids, key=ids.get)}
    assert list(game_problems(game)) == []


def test_undos_clock_acts_and_a_moderators_events_round_trip(db):
    def act(game, players, moderator):
        moves(game, 4)
        game.refresh_from_db()
        check_undo(game, moderator, to_seq=3, reason="a misclick")
        game.refresh_from_db()
        check_pause(game, moderator, reason="a holiday")
        moves(game, 1, seed=2)

    document = duel_exported_elsewhere(act)
    assert {"undo", "clock"} <= {event["kind"] for event in document["events"]}
    game = import_it(document)
    again = exchange.export(game, exchange.full_viewer(game))
    assert again["events"][: len(document["events"])] == document["events"]
    assert again["game"]["state_hash"] == document["game"]["state_hash"]
    assert game.paused is True and game.deadline is None
    assert User.objects.get(username="mo").is_active is False
    assert list(game_problems(game)) == []


def test_an_imported_running_game_with_a_clock_gives_the_seats_to_act_a_fresh_deadline(db):
    document = duel_exported_elsewhere(lambda game, players, moderator: moves(game, 3))
    before = timezone.now()
    game = import_it(document)
    to_act = Seat.objects.filter(game=game, to_act=True)
    assert to_act.exists()
    for seat in to_act:
        assert seat.deadline >= before + datetime.timedelta(days=2)
    assert game.deadline == min(seat.deadline for seat in to_act)
    moves(game, 2, seed=5)  # the game plays on here
    assert list(game_problems(game)) == []


@pytest.fixture
def legacy_chain(monkeypatch):
    """Games created now hash as games created before chain version 2 did."""
    monkeypatch.setattr(Game._meta.get_field("chain_version"), "default", 1)


def test_a_version_1_game_round_trips_with_its_hashes(db, legacy_chain):
    document = duel_exported_elsewhere(lambda game, players, moderator: moves(game, 4))
    assert document["game"]["chain_version"] == 1
    game = import_it(document)
    assert game.chain_version == 1
    again = exchange.export(game, exchange.full_viewer(game))
    assert again["events"][: len(document["events"])] == document["events"]
    assert list(game_problems(game)) == []


def test_a_version_1_game_older_than_seals_comes_in_only_as_unverified(db, legacy_chain):
    def act(game, players, moderator):
        moves(game, 4)
        with triggers_disabled(), connection.cursor() as cursor:
            cursor.execute("UPDATE games_event SET mac = '', key_id = '' WHERE game_id = %s",
                           [game.pk])  # fmt: skip

    document = duel_exported_elsewhere(act)
    with pytest.raises(
        ImportRefused, match=r"seals of events 1-5 cannot be checked here \(unsealed\)"
    ):
        import_it(document)
    game = import_it(document, accept_unverified_seals=True)
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [e.hash for e in events[:-1]] == [e["hash"] for e in document["events"]]
    assert all(e.mac for e in events)
    assert events[-1].payload["origin"]["seals_unchecked"] == ["unsealed"]
    # Sealed here, but as unverified: nobody vouched for them before the import.
    assert chain.unverified_seqs(events) == [1, 2, 3, 4, 5]
    assert game.imported_unverified is True
    assert list(game_problems(game)) == []


def test_a_version_2_event_without_a_seal_is_refused(db):
    document = duel_exported_elsewhere(lambda game, players, moderator: moves(game, 2))
    document["events"][1]["seal"] = {"key_id": "", "mac": ""}
    with pytest.raises(ImportRefused, match="event 2 carries no seal"):
        import_it(document)
    assert not Game.objects.exists()


def test_a_game_with_bots_imports_with_this_servers_bots_in_their_seats(db):
    """A bot is no person to map: the import seats this server's account of
    the same kind and seat, and the game's bots play on from there."""

    def played():
        ann = make_user("ann")
        game = do_create_game(title="havana", players=[ann, Wanted("greedy")], seed=4)
        person_moves(game, ann, random.Random(5))
        game.refresh_from_db()
        return exchange.export(game, exchange.full_viewer(game))

    document = forgotten(played)
    store.forget_all()
    assert not User.objects.exists()

    game = import_it(document, placeholders=True)

    bot = Seat.objects.get(game=game, index=1).user
    assert (bot.username, bot.bot, bot.is_active) == ("bot:greedy:1", "greedy", True)
    assert game.bot_seats == [1]
    assert list(game_problems(game)) == []
    again = exchange.export(game, exchange.full_viewer(game))
    assert again["events"][: len(document["events"])] == document["events"]
