"""Documents made to harm the importing server: ids that would use up its id
sequences, a chain rewritten and sealed with a key it does not hold, names
a sign-up would refuse.  Each is refused or defused, and the server plays on."""

from __future__ import annotations

import copy
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from accounts import rules
from accounts.models import User
from games.audit import exchange
from games.audit.verification import game_problems
from games.models import Event, Game
from games.selectors import history, viewers
from games.services.creation import do_create_game
from games.services.notes import check_pin_note
from games.stream import chain
from tests.api.conftest import client_for
from tests.conftest import make_user
from tests.exchange.support import (
    FOREIGN_KEY,
    duel_exported_elsewhere,
    exported_elsewhere,
    import_it,
    last_ids,
    moves,
    resealed,
)
from tests.exchange.test_refusals import refused
from tests.support.tamper import triggers_disabled

SMALL = "pointcity/2p-seed1.json"
TOP = 2**63 - 1


def note_of(game: Game) -> dict:
    """The import's note: what it recorded."""
    return Event.objects.filter(game=game, kind="note").order_by("seq").last().payload


def verify(capsys) -> tuple[int, str]:
    try:
        call_command("verify_games")
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


# --- ids --------------------------------------------------------------------------


def sequence_positions() -> dict[str, int]:
    """Each id sequence's last value (PostgreSQL)."""
    with connection.cursor() as cursor:
        found = {}
        for table in ("games_game", "accounts_user"):
            cursor.execute(
                "SELECT pg_sequence_last_value(pg_get_serial_sequence(%s, 'id')::regclass)",
                [table],
            )
            found[table] = cursor.fetchone()[0] or 0
        return found


def renumbered(document: dict, first: int) -> dict:
    """The document with the game and its accounts under ids from `first` on,
    hashed and sealed again with this server's key: only the ids are odd."""
    ids = sorted(account["id"] for account in document["accounts"])
    mapping = {pk: first - number for number, pk in enumerate(ids)}
    return resealed(document, ours=True, game_id=first, account_ids=mapping)


@pytest.mark.postgres
def test_ids_at_the_top_of_the_sequences_leave_game_creation_and_sign_up_working(db):
    """A document naming the largest id there is, kept as it was, would move
    the sequences to it: every later game and sign-up would fail."""
    hostile = renumbered(exported_elsewhere(SMALL), TOP)
    game = import_it(hostile)

    assert game.pk != TOP and game.imported_unverified is False
    placeholders = dict(User.objects.filter(is_active=False).values_list("username", "pk"))
    assert set(placeholders) == {"alice", "bob"} and max(placeholders.values()) < TOP - 1
    note = Event.objects.get(game=game, seq=game.seq)
    assert note.payload["origin"]["game"] == TOP and note.payload["origin"]["relinked"] is True
    assert list(game_problems(game)) == []
    positions = sequence_positions()
    assert positions["games_game"] >= last_ids()["game"] and positions["games_game"] < TOP
    assert positions["accounts_user"] >= last_ids()["user"]

    anonymous = client_for(None)
    for name in ("zoe", "yann"):
        signed_up = anonymous.post(
            "/api/auth/register/",
            {"username": name, "email": f"{name}@example.org", "password": "a long pass 4827"},
            format="json",
        )
        assert signed_up.status_code == 201, signed_up.content
    # They meet at a table: zoe opens it, yann's seat fills it and starts the game.
    opened = client_for(User.objects.get(username="zoe")).post(
        "/api/tables/", {"title": "duel", "seats": 2}, format="json"
    )
    assert opened.status_code == 201, opened.content
    created = client_for(User.objects.get(username="yann")).post(
        f"/api/tables/{opened.json()['id']}/join/", {}, format="json"
    )
    assert created.status_code == 200, created.content
    assert game.pk < created.json()["game"] < TOP


def test_an_id_the_sequence_has_not_reached_is_replaced_and_the_sequence_stays(db):
    """Not only the very top: any id past the sequence would be handed out
    again (a later insert fails) or, moved up to, skip every id below it."""
    document = exported_elsewhere(SMALL)
    # Past the sequences, not only past the rows: PostgreSQL's sequences keep
    # the ids that earlier tests' rolled-back rows took.
    reached = [*last_ids().values()]
    if connection.vendor == "postgresql":
        reached += sequence_positions().values()
    ahead = sum(reached) + 1000
    game = import_it(renumbered(document, ahead))
    assert game.pk < ahead
    assert all(pk < ahead - 1 for pk in User.objects.values_list("pk", flat=True))
    after = do_create_game(title="duel", players=[make_user("zoe"), make_user("yann")], seed=1)
    assert after.pk == game.pk + 1
    assert User.objects.get(username="yann").pk < ahead - 1
    assert list(game_problems(game)) == []


def test_ids_the_sequences_have_passed_are_kept_where_free(db):
    """The round trip keeps its ids and hashes (tests/exchange/support:
    the exporting database's ids are ones this one's sequences passed)."""
    document = exported_elsewhere(SMALL)
    game = import_it(document)
    assert game.pk == document["game"]["id"]
    again = exchange.export(game, exchange.full_viewer(game))
    assert again["events"][: len(document["events"])] == document["events"]


# --- seals this server cannot check ---------------------------------------------------


def forged_note(document: dict) -> dict:
    """The pinned note rewritten and given to another moderator, `judge`,
    and the chain hashed again: what anyone can compute without a key."""
    forged = copy.deepcopy(document)
    judge = max(a["id"] for a in forged["accounts"]) + 1
    forged["accounts"].append({"id": judge, "username": "judge"})
    [note] = [e for e in forged["events"] if e["kind"] == "note"]
    note["opening"]["actor"] = judge
    note["opening"]["payload"]["reason"] = "alice admitted to cheating"
    return resealed(forged)


def pinned(game, players, moderator):
    moves(game, 2)
    check_pin_note(game, moderator, text="bob asked for more time")


@pytest.fixture
def forged(db):
    return forged_note(duel_exported_elsewhere(pinned))


def test_a_note_rewritten_in_another_moderators_name_is_refused(forged):
    make_user("judge", is_moderator=True)
    message = refused(forged, mapping={"judge": "judge"})
    assert f"cannot be checked here ({FOREIGN_KEY})" in message


def test_accepted_unverified_seals_are_marked_and_never_sealed_as_verified(forged, capsys):
    make_user("judge", is_moderator=True)
    game = import_it(forged, mapping={"judge": "judge"}, accept_unverified_seals=True)
    count = len(forged["events"])

    assert game.imported_unverified is True
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert chain.unverified_seqs(events) == list(range(1, count + 1))
    for event in events[:count]:  # no ordinary seal on any of them
        assert chain.seal_problem(event.hash, event.key_id, event.mac) == chain.UNVERIFIED_SEAL
    note = events[-1].payload
    assert note["origin"]["unverified"] == [[1, count]]

    code, out = verify(capsys)
    assert code == 0
    assert (
        f"game {game.pk} (duel): imported unverified: the seals of events 1-{count} could not "
        "be checked when it was imported" in out
    )
    assert out.endswith("all games verified, 1 of them imported unverified (listed above)\n")
    mo = make_user("mo2", is_moderator=True)
    verified = client_for(mo).get(f"/api/games/{game.pk}/verify/").json()
    assert verified["imported_unverified"] is True
    assert client_for(None).get(f"/api/games/{game.pk}/verify/").json()["imported_unverified"]
    audit = history.audit(game, viewers.viewer_of(game, mo))
    assert audit["chain"]["valid"] is True
    assert audit["chain"]["imported_unverified"] is True
    assert audit["chain"]["unverified"] == [[1, count]]
    browser = Client()
    browser.force_login(mo)
    page = browser.get(f"/games/{game.pk}/moderate/").content.decode()
    assert f"Imported unverified</strong>: the seals of events 1-{count}" in page


def test_clearing_the_mark_is_reported(forged, capsys):
    make_user("judge", is_moderator=True)
    game = import_it(forged, mapping={"judge": "judge"}, accept_unverified_seals=True)
    Game.objects.filter(pk=game.pk).update(imported_unverified=False)
    code, out = verify(capsys)
    assert code == 1
    assert (
        f"game {game.pk} (duel): seq 1: sealed as imported without a verified seal, in a game "
        "not marked so" in out
    )


@pytest.mark.parametrize(
    ("seal", "reported"),
    [
        ({"key_id": FOREIGN_KEY, "mac": "f" * 64}, f"sealed with key '{FOREIGN_KEY}', which"),
        ({"key_id": "", "mac": ""}, "not sealed"),
    ],
)
def test_relabelling_or_stripping_the_unverified_seals_is_reported(forged, capsys, seal, reported):
    make_user("judge", is_moderator=True)
    game = import_it(forged, mapping={"judge": "judge"}, accept_unverified_seals=True)
    Game.objects.filter(pk=game.pk).update(imported_unverified=False)
    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET key_id = %s, mac = %s WHERE game_id = %s AND seq < %s",
            [seal["key_id"], seal["mac"], game.pk, game.seq],
        )
    code, out = verify(capsys)
    assert code == 1 and f"game {game.pk} (duel): seq 1: {reported}" in out


def test_a_mark_without_unverified_seals_is_reported(db, capsys):
    game = import_it(exported_elsewhere(SMALL))
    Game.objects.filter(pk=game.pk).update(imported_unverified=True)
    code, out = verify(capsys)
    assert code == 1 and "marked as imported unverified, but no event is sealed so" in out


def test_an_unverified_game_exported_and_imported_again_stays_unverified(forged):
    """The note and the moves after it are sealed as this server's own, and
    their hashes cover the unverified events; they must not vouch for them."""
    make_user("judge", is_moderator=True)
    first = import_it(forged, mapping={"judge": "judge"}, accept_unverified_seals=True)
    check_pin_note(first, User.objects.get(username="judge"), text="imported, checking")
    first.refresh_from_db()
    document = exchange.export(first, exchange.full_viewer(first))
    count = len(forged["events"])
    renamed = copy.deepcopy(document)
    for account in renamed["accounts"]:
        account["username"] += "-2"
    for event in renamed["events"]:
        if event["actor"]:
            event["actor"] += "-2"
    for seat in renamed["seats"]:
        seat["username"] += "-2"
    assert f"events 1-{count} cannot be checked here (imported-unverified)" in refused(renamed)
    # Nor by relabelling those seals as another server's, or removing them.
    relabelled = copy.deepcopy(renamed)
    for event in relabelled["events"][:count]:
        event["seal"] = {"key_id": FOREIGN_KEY, "mac": "f" * 64}
    assert f"events 1-{count} cannot be checked here ({FOREIGN_KEY})" in refused(relabelled)
    second = import_it(renamed, accept_unverified_seals=True)
    events = list(Event.objects.filter(game=second).order_by("seq"))
    assert chain.unverified_seqs(events) == list(range(1, count + 1))
    assert list(game_problems(second)) == []


def test_the_api_refuses_unverified_seals_unless_asked_and_reports_the_mark(forged, mo):
    make_user("judge", is_moderator=True)
    body = {"document": forged, "map": {"judge": "judge", "mo": "mo"}, "placeholders": True}
    answer = client_for(mo).post("/api/games/import/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"] == "import_refused"
    assert not Game.objects.exists()
    body["accept_unverified_seals"] = True
    answer = client_for(mo).post("/api/games/import/", body, format="json")
    assert answer.status_code == 201, answer.json()
    count = len(forged["events"])
    assert answer.json()["imported_unverified"] is True
    assert answer.json()["unverified"] == [[1, count]]


def test_the_command_refuses_unverified_seals_unless_asked(forged, mo, tmp_path):
    import json

    from django.core.management.base import CommandError

    make_user("judge", is_moderator=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(forged))
    arguments = ["import_game", str(path), "--by", "mo", "--map", "judge=judge", "--map", "mo=mo",
                 "--placeholders"]  # fmt: skip
    with pytest.raises(CommandError, match="accepting unverified seals"):
        call_command(*arguments)
    assert not Game.objects.exists()
    out = StringIO()
    call_command(*arguments, "--accept-unverified-seals", stdout=out)
    game = Game.objects.get()
    assert game.imported_unverified
    assert f"imported unverified: the seals of events 1-{len(forged['events'])}" in out.getvalue()


def test_the_admin_page_refuses_unverified_seals_unless_the_box_is_ticked(forged, mo):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    make_user("judge", is_moderator=True)
    User.objects.filter(pk=mo.pk).update(is_staff=True, is_superuser=True)
    client = client_for(mo)
    client.force_login(mo)

    def upload(**extra):
        data = {
            "document": SimpleUploadedFile("game.json", json.dumps(forged).encode()),
            "mapping": "judge=judge\nmo=mo", "placeholders": "on", **extra,
        }  # fmt: skip
        return client.post("/admin/games/game/import/", data, format="multipart")

    refused_page = upload()
    assert refused_page.status_code == 200
    assert "accepting unverified seals" in refused_page.content.decode()
    assert not Game.objects.exists()
    accepted = upload(accept_unverified_seals="on")
    assert accepted.status_code == 302
    assert Game.objects.get().imported_unverified is True


# --- placeholder names ------------------------------------------------------------------


def renamed_account(document: dict, old: str, new: str) -> dict:
    renamed = copy.deepcopy(document)
    for account in renamed["accounts"]:
        if account["username"] == old:
            account["username"] = new
    for seat in renamed["seats"]:
        if seat["username"] == old:
            seat["username"] = new
    for event in renamed["events"]:
        if event["actor"] == old:
            event["actor"] = new
    return renamed


def test_a_name_sign_up_would_refuse_gets_a_derived_placeholder_and_is_reported(db, tmp_path):
    import json

    document = renamed_account(exported_elsewhere(SMALL), "alice", "alice smith")
    make_user("mo", is_moderator=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    out = StringIO()
    call_command("import_game", str(path), "--by", "mo", "--placeholders", stdout=out)
    game = Game.objects.get()
    player = game.seats.get(index=0).user
    assert player.username.startswith("imported-") and player.is_active is False
    assert rules.check_new_username(player.username, instance=player) == player.username
    assert note_of(game)["accounts"] == {"alice smith": player.username, "bob": "bob"}
    assert f"account 'alice smith' of the export is '{player.username}' here" in out.getvalue()
    assert list(game_problems(game)) == []


def test_a_name_taken_here_in_another_letter_case_gets_a_derived_placeholder(db):
    """`Bob` beside this server's `bob` would be taken for him in every list."""
    document = renamed_account(exported_elsewhere(SMALL), "bob", "BOB")
    make_user("bob")
    game = import_it(document)
    player = game.seats.get(index=1).user
    assert player.username.startswith("imported-") and player != User.objects.get(username="bob")
    assert note_of(game)["accounts"]["BOB"] == player.username


def test_placeholders_follow_whatever_sign_up_refuses(db, monkeypatch):
    """The import asks accounts.rules, not a copy of its rules: a rule added
    there (look-alikes of existing names, for one) holds for placeholders
    too.  Here a stand-in rule refuses a Cyrillic letter."""
    honest = rules.check_new_username
    asked = []

    def stricter(value):
        asked.append(value)
        if not value.isascii():
            from django.core.exceptions import ValidationError

            raise ValidationError("looks like another name", code="confusable")
        return honest(value)

    monkeypatch.setattr(rules, "check_new_username", stricter)
    document = renamed_account(exported_elsewhere(SMALL), "bob", "b\u043eb")
    game = import_it(document)
    assert "b\u043eb" in asked and "alice" in asked
    assert game.seats.get(index=1).user.username.startswith("imported-")
    assert game.seats.get(index=0).user.username == "alice"
