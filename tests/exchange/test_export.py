"""What an export shows whom: a player of a running game exactly what the
events API shows them; moderators, and everyone after the end, everything."""

from __future__ import annotations

import json

import pytest

from games.audit import exchange
from games.models import Event
from tests.api.conftest import client_for
from tests.conftest import make_user
from tests.exchange.support import NAMES, play

# Havana's card choices are face down until revealed: other seats' actions
# are shown in their public form.
HIDDEN = "havana/3p-seed1.json"


@pytest.fixture
def players(db):
    return [make_user(name) for name in NAMES[:3]]


@pytest.fixture
def running(players):
    return play(HIDDEN, players, steps=30)


def exported(user, game) -> dict:
    answer = client_for(user).get(f"/api/games/{game.pk}/export/")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_a_players_export_holds_the_events_exactly_as_the_events_api_shows_them(running, players):
    document = exported(players[1], running)
    shown = client_for(players[1]).get(f"/api/games/{running.pk}/events/?limit=500").json()
    assert document["events"] == shown["events"]
    assert document["complete"] is False and document["shown_to"] == "seat 1"
    assert document["game"]["seq"] == running.seq


def test_a_players_export_holds_nothing_the_other_seats_hide(running, players, mo):
    document = exported(players[1], running)
    text = json.dumps(document)
    full = exported(mo, running)
    others = [e for e in full["events"] if e["seat"] not in (1,)]
    hidden = [e for e in others if e["kind"] == "action" and e.get("public_payload")]
    assert hidden, "the game must hold face-down choices for this test to mean anything"
    for event in others:
        assert event["opening"]["nonce"] not in text
    for event in hidden:
        shown = document["events"][event["seq"] - 1]
        assert "opening" not in shown
        assert shown["payload"] == event["public_payload"]
        assert shown["payload"] != event["payload"]
    assert full["commitment"]["salt"] not in text
    assert "setup" not in document["events"][0]["payload"]
    assert "setup" not in document["commitment"]
    for secret in ("seed", "state_hash"):
        assert secret not in document["game"]
    assert all("seal" not in event for event in document["events"])


def test_a_moderators_export_of_a_running_game_is_complete(running, mo):
    document = exported(mo, running)
    assert document["complete"] is True and document["shown_to"] == "moderator"
    assert document["game"]["seed"] == running.seed
    assert document["commitment"]["salt"] == running.salt and document["commitment"]["matches"]
    stored = Event.objects.get(game=running, seq=5)
    assert document["events"][4]["seal"] == {"key_id": stored.key_id, "mac": stored.mac}
    assert document["events"][4]["opening"]["nonce"] == stored.nonce


def test_after_the_end_every_player_gets_the_complete_export(players, mo):
    game = play("pointcity/2p-seed1.json", players)
    assert game.status == "finished"
    document = exported(players[0], game)
    assert document["complete"] is True and document["shown_to"] == "everyone"
    del document["exported_at"]
    full = exported(mo, game)
    del full["exported_at"]
    assert document == full


def test_a_spectator_of_a_public_game_gets_the_spectators_export(running, eve):
    document = exported(eve, running)
    assert document["complete"] is False and document["shown_to"] == "spectator"
    assert all("opening" not in event for event in document["events"])


def test_a_stranger_may_not_export_a_private_game(players, eve):
    from games.services.creation import do_create_game

    game = do_create_game(title="havana", players=players[:2], public=False)
    answer = client_for(eve).get(f"/api/games/{game.pk}/export/")
    assert answer.status_code == 403
    assert answer.json()["error"] == "forbidden"
    assert client_for(players[0]).get(f"/api/games/{game.pk}/export/").status_code == 200


def test_an_anonymous_request_or_an_unknown_game_is_refused(running, eve):
    assert client_for(None).get(f"/api/games/{running.pk}/export/").status_code in (401, 403)
    assert client_for(eve).get("/api/games/999999/export/").status_code == 404


def test_the_export_command_writes_the_document_as_the_api_gives_it(running, players, mo):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("export_game", str(running.pk), "--as", "bob", stdout=out)
    by_command = json.loads(out.getvalue())
    by_api = exported(players[1], running)
    for document in (by_command, by_api):
        del document["exported_at"]
    assert by_command == by_api
    out = StringIO()
    call_command("export_game", str(running.pk), "--full", stdout=out)
    full = json.loads(out.getvalue())
    assert full["complete"] is True and full["game"]["seed"] == running.seed


def test_the_export_command_says_what_is_wrong(running):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no user named 'nobody'"):
        call_command("export_game", str(running.pk), "--as", "nobody")
    with pytest.raises(CommandError, match="no such game"):
        call_command("export_game", "424242", "--full")


def test_exports_follow_the_documented_format_version(running, mo):
    document = exported(mo, running)
    assert (document["format"], document["version"]) == (exchange.FORMAT, exchange.VERSION)
