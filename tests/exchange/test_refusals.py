"""A document that is tampered with, truncated, garbled or incomplete is
refused whole: a clear reason, and no game, event, seat or account written."""

from __future__ import annotations

import copy

import pytest

from accounts.models import User
from games.audit import exchange
from games.errors import ImportRefused, InvalidRequest
from games.models import Event, Game, Seat
from games.stream import chain
from tests.conftest import make_user
from tests.exchange.support import FOREIGN_KEY, exported_elsewhere, import_it, resealed

SMALL = "pointcity/2p-seed1.json"


@pytest.fixture
def document(db):
    return exported_elsewhere(SMALL)


def rows() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Game, Event, Seat, User))


def refused(document, **options) -> str:
    """The refusal's message; fails the test if anything was written."""
    before = rows()
    with pytest.raises(InvalidRequest) as raised:
        import_it(document, **options)
    assert rows() == before
    return raised.value.message


def action_events(document) -> list[dict]:
    return [e for e in document["events"] if e["kind"] == "action"]


def test_a_changed_byte_in_a_shown_payload_is_refused(document):
    tampered = copy.deepcopy(document)
    event = action_events(tampered)[3]
    event["payload"]["action"]["type"] += "x"
    assert "does not match its own opening" in refused(tampered)


def test_a_changed_byte_in_an_opened_payload_breaks_the_chain(document):
    tampered = copy.deepcopy(document)
    event = action_events(tampered)[3]
    event["opening"]["payload"]["action"]["type"] += "x"
    event["payload"]["action"]["type"] += "x"
    event["commitment"] = chain.sha256(event["opening"])
    assert f"hash chain breaks at event {event['seq']}" in refused(tampered)


def test_a_changed_hash_is_refused(document):
    tampered = copy.deepcopy(document)
    tampered["events"][5]["hash"] = "0" * 64
    assert "hash chain breaks at event 6" in refused(tampered)


def test_two_events_swapped_are_refused(document):
    tampered = copy.deepcopy(document)
    events = tampered["events"]
    events[4], events[5] = events[5], events[4]
    assert "event 5 is missing or out of order" in refused(tampered)


def test_a_removed_event_is_refused(document):
    tampered = copy.deepcopy(document)
    del tampered["events"][7]
    assert "truncated" in refused(tampered)
    tampered["game"]["seq"] -= 1
    assert "event 8 is missing or out of order" in refused(tampered)


def test_a_document_cut_short_is_refused(document):
    tampered = copy.deepcopy(document)
    del tampered["events"][-5:]
    assert "truncated" in refused(tampered)
    tampered["game"]["seq"] = len(tampered["events"])
    assert "the head hashes differ from the events'" in refused(tampered)
    tampered = resealed(tampered)
    assert "does not replay to the same state" in refused(tampered)


def test_a_seal_this_server_can_check_must_match(document):
    tampered = copy.deepcopy(document)
    tampered["events"][2]["seal"]["mac"] = "0" * 64
    assert "the seal of event 3 does not match" in refused(tampered)


def test_a_rehashed_chain_with_an_illegal_move_does_not_replay(document):
    tampered = copy.deepcopy(document)
    event = action_events(tampered)[0]
    event["opening"]["payload"]["action"] = {"type": "no such move"}
    message = refused(resealed(tampered))
    assert "does not replay to the same state" in message


def test_a_rehashed_setup_must_match_its_commitment(document):
    tampered = copy.deepcopy(document)
    tampered["commitment"]["salt"] = "0" * 64
    assert "does not match its commitment" in refused(resealed(tampered))


def test_another_engine_version_is_refused_where_the_state_differs(document):
    tampered = copy.deepcopy(document)
    tampered["events"][0]["opening"]["payload"]["engine_version"] = 0
    tampered["game"]["engine_version"] = 0
    tampered["game"]["state_hash"] = "0" * 64
    assert "engine version 1; the export was made with 0" in refused(resealed(tampered))


def test_another_engine_version_that_replays_to_the_same_state_is_imported(document):
    tampered = copy.deepcopy(document)
    tampered["events"][0]["opening"]["payload"]["engine_version"] = 0
    tampered["game"]["engine_version"] = 0
    game = import_it(resealed(tampered, ours=True))
    assert game.engine_version == 0
    assert game.imported_unverified is False


def test_seals_of_another_servers_key_are_refused_unless_accepted(document):
    foreign = resealed(document)
    message = refused(foreign)
    assert f"the seals of events 1-40 cannot be checked here ({FOREIGN_KEY})" in message
    assert "accepting unverified seals" in message
    game = import_it(foreign, accept_unverified_seals=True)
    note = Event.objects.get(game=game, seq=game.seq)
    assert note.payload["origin"]["seals_unchecked"] == [FOREIGN_KEY]
    assert note.payload["origin"]["unverified"] == [[1, 40]]
    assert Event.objects.filter(game=game, key_id=FOREIGN_KEY).count() == 0
    assert game.imported_unverified is True


def test_a_players_export_of_a_running_game_is_refused_with_the_reason(db):
    alice, bob = make_user("alice"), make_user("bob")
    from games.selectors import viewers
    from tests.exchange.support import play

    game = play(SMALL, [alice, bob], steps=10)
    partial = exchange.export(game, viewers.viewer_of(game, alice))
    message = refused(partial)
    assert "made for seat 0 of a running game" in message
    partial["complete"] = True
    assert "malformed" in refused(partial)


@pytest.mark.parametrize(
    "garbage",
    [None, [], "text", {"format": "something else"},
     {"format": "correo-game", "version": 2, "complete": True}],
)  # fmt: skip
def test_documents_that_are_no_export_are_refused(db, garbage):
    refused(garbage)


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("game", "seq"), "12"),
        (("game", "id"), 0),
        (("game", "seed"), 2**70),
        (("game", "title"), "no-such-title"),
        (("accounts",), [{"id": 1, "username": "a"}, {"id": 1, "username": "b"}]),
        (("events", 0, "created_at"), "yesterday"),
        (("events", 0, "created_at"), "2026-01-01T00:00:00"),
        (("events", 1, "seat"), 7000),
        (("events", 1, "kind"), "bogus"),
        (("events", 1, "opening"), None),
        (("events", 1, "seal"), {"key_id": "x" * 100, "mac": ""}),
        (("events", 1), {"seq": 2, "extra": True}),
        (("commitment", "salt"), 5),
    ],
)
def test_malformed_fields_are_refused(document, where, value):
    tampered = copy.deepcopy(document)
    container = tampered
    for key in where[:-1]:
        container = container[key]
    container[where[-1]] = value
    refused(tampered)


def test_unmapped_accounts_without_placeholders_are_refused(document):
    assert "no account given for alice, bob" in refused(document, placeholders=False)


def test_a_placeholder_name_taken_here_is_refused_rather_than_merged(document):
    make_user("bob")
    assert "accounts bob exist here" in refused(document)


def test_a_map_to_a_missing_account_is_refused(document):
    assert "no account here to map to: zed" in refused(document, mapping={"alice": "zed"})


def test_a_map_naming_accounts_not_in_the_export_is_refused(document):
    make_user("zed")
    message = refused(document, mapping={"mallory": "zed"})
    assert "map names accounts the export does not: mallory" in message


def test_a_failure_after_the_accounts_were_made_leaves_no_account(document, monkeypatch):
    from games.services import importing

    def broken(*args):
        raise ImportRefused("the final check failed")

    monkeypatch.setattr(importing.verification, "game_problems", broken)
    assert refused(document) == "the final check failed"


def test_a_map_giving_two_accounts_of_the_export_one_account_here_is_refused(document):
    make_user("zed")
    message = refused(document, mapping={"alice": "zed", "bob": "zed"})
    assert message == "map gives one account here for two in the export"


def test_a_name_this_server_cannot_hold_can_still_be_mapped(document):
    renamed = copy.deepcopy(document)
    renamed["accounts"][0]["username"] = "alice smith"
    renamed["seats"][0]["username"] = "alice smith"
    for event in renamed["events"]:
        if event["actor"] == "alice":
            event["actor"] = "alice smith"
    make_user("alice")
    game = import_it(renamed, mapping={"alice smith": "alice"})
    assert game.seats.get(index=0).user.username == "alice"
