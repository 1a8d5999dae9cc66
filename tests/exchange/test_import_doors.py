"""The two doors of an import: the moderators' endpoint and the command."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import User
from games.models import Event, Game, Seat
from tests.api.conftest import client_for
from tests.conftest import make_user
from tests.exchange.support import exported_elsewhere

SMALL = "pointcity/2p-seed1.json"


@pytest.fixture
def document(db):
    return exported_elsewhere(SMALL)


def rows() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Game, Event, Seat, User))


def post(user, body, **extra):
    return client_for(user).post("/api/games/import/", body, format="json", **extra)


def test_a_moderator_imports_a_game_with_placeholders(document, mo):
    answer = post(mo, {"document": document, "placeholders": True})
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(pk=answer.json()["id"])
    assert answer.json() == {
        "id": game.pk, "seq": game.seq, "title": "pointcity",
        "accounts": {"alice": "alice", "bob": "bob"}, "imported_unverified": False,
        "unverified": [],
    }  # fmt: skip
    note = Event.objects.get(game=game, seq=game.seq)
    assert (note.source, note.actor) == ("moderator", mo)


def test_a_moderator_maps_the_exports_accounts_to_accounts_here(document, mo):
    make_user("alicia"), make_user("roberto")
    answer = post(mo, {"document": document, "map": {"alice": "alicia", "bob": "roberto"}})
    assert answer.status_code == 201, answer.json()
    seated = Seat.objects.filter(game_id=answer.json()["id"]).order_by("index")
    assert [seat.user.username for seat in seated] == ["alicia", "roberto"]


def test_a_player_may_not_import_and_nothing_is_written(document, alice):
    before = rows()
    answer = post(alice, {"document": document, "placeholders": True})
    assert answer.status_code == 403
    assert answer.json()["error"] == "forbidden"
    assert rows() == before


def test_an_anonymous_import_is_refused(document):
    assert post(None, {"document": document}).status_code in (401, 403)


def test_a_tampered_document_is_a_clear_400_and_nothing_is_written(document, mo):
    tampered = copy.deepcopy(document)
    tampered["events"][3]["hash"] = "f" * 64
    before = rows()
    answer = post(mo, {"document": tampered, "placeholders": True})
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "import_refused",
        "detail": "the hash chain breaks at event 4 (altered?)",
    }
    assert rows() == before


@pytest.mark.parametrize(
    "body",
    [b'{"document": {"format": "correo-game", "events": [', b"\xff\xfe", b"[]",
     b'{"document": 5}', b'{"document": {}, "map": ["alice"]}'],
)  # fmt: skip
def test_a_garbled_body_is_a_clear_400(db, mo, body):
    before = rows()
    answer = client_for(mo).post("/api/games/import/", body, content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert {"error", "detail"} <= set(answer.json())
    assert rows() == before


def test_a_body_over_the_import_limit_is_refused_before_it_is_read_whole(db, mo, settings):
    settings.CORREO_IMPORT_MAX_BYTES = 1000
    body = json.dumps({"document": {"format": "correo-game", "padding": "x" * 2000}})
    answer = client_for(mo).post("/api/games/import/", body, content_type="application/json")
    assert answer.status_code == 413
    assert answer.json()["error"] == "too_large"


def test_an_export_larger_than_the_apis_usual_limit_is_accepted(mo, settings):
    document = exported_elsewhere("havana/4p-seed1.json")
    body = json.dumps({"document": document, "placeholders": True})
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body) // 2
    answer = client_for(mo).post("/api/games/import/", body, content_type="application/json")
    assert answer.status_code == 201, answer.json()


def test_the_command_imports_a_file_with_a_map_and_placeholders(document, tmp_path, mo):
    make_user("alicia")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    out = StringIO()
    call_command(
        "import_game", str(path), "--by", "mo", "--map", "alice=alicia", "--placeholders",
        stdout=out,
    )  # fmt: skip
    game = Game.objects.get()
    assert f"imported as game {game.pk}" in out.getvalue()
    seated = [seat.user for seat in Seat.objects.filter(game=game).order_by("index")]
    assert [(u.username, u.is_active) for u in seated] == [("alicia", True), ("bob", False)]
    note = Event.objects.get(game=game, seq=game.seq)
    assert (note.source, note.actor) == ("moderator", mo)


@pytest.mark.parametrize(
    ("content", "arguments", "message"),
    [
        (None, [], "cannot read"),
        (b'{"format": ', [], "JSON parse error"),
        (b"\xff", [], "not valid utf-8"),
        (b"{}", [], "not a Correo game export"),
        (b"{}", ["--map", "alice"], "--map takes OLD=NEW"),
        (b"{}", ["--by", "nobody"], "no user named 'nobody'"),
        (b"{}", ["--by", "alice"], "only moderators may import games"),
    ],
)
def test_the_command_says_what_is_wrong_and_writes_nothing(
    alice, mo, tmp_path, content, arguments, message
):
    path = tmp_path / "game.json"
    if content is not None:
        path.write_bytes(content)
    before = rows()
    if "--by" not in arguments:
        arguments = ["--by", "mo", *arguments]
    with pytest.raises(CommandError, match=message):
        call_command("import_game", str(path), *arguments)
    assert rows() == before
