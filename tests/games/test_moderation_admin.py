"""The Django admin's moderation actions call the game service: a
moderator's act is an event; staff who are not moderators are refused."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.audit import exchange
from games.audit.verification import game_problems
from games.models import Event, Game, ModerationItem
from games.services.creation import do_create_game
from games.services.queue import check_report
from tests.conftest import make_user


@pytest.fixture
def staff_mo(db):
    return make_user("staffmo", is_moderator=True, is_staff=True, is_superuser=True)


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], seed=5)


def act(client, user, model: str, action: str, pk: int, **fields):
    client.force_login(user)
    return client.post(f"/admin/{model}/", {"action": action, "_selected_action": [pk], **fields},
                       follow=True)  # fmt: skip


def test_a_moderator_locks_and_replaces_a_seat_from_the_admin(client, staff_mo, charlie, game):
    act(client, staff_mo, "games/game", "lock", game.pk, reason="a dispute")
    act(client, staff_mo, "games/game", "replace_seat", game.pk, seat=1, username="charlie",
        reason="bob left")  # fmt: skip
    events = Event.objects.filter(game=game).order_by("seq")
    assert [(e.kind, e.actor, e.payload.get("reason")) for e in events[1:]] == [
        ("clock", staff_mo, "a dispute"), ("seat_replaced", staff_mo, "bob left"),
    ]  # fmt: skip


def test_staff_who_are_not_moderators_are_refused_in_the_admin(client, game):
    staff = make_user("staff", is_staff=True, is_superuser=True)
    response = act(client, staff, "games/game", "abort", game.pk, reason="no")
    assert "only moderators" in response.content.decode()
    assert Event.objects.filter(game=game).count() == 1


def test_an_act_without_a_reason_is_refused_in_the_admin(client, staff_mo, game):
    response = act(client, staff_mo, "games/game", "abort", game.pk, reason="")
    assert "needs a reason" in response.content.decode()
    assert Event.objects.filter(game=game).count() == 1


def test_a_moderator_takes_and_closes_an_item_and_suspends_from_the_admin(
    client, staff_mo, alice, game
):
    item = check_report(game, alice, reason="rude")
    act(client, staff_mo, "games/moderationitem", "take", item.pk)
    act(client, staff_mo, "games/moderationitem", "close", item.pk, reason="warned")
    item.refresh_from_db()
    assert (item.state, item.taken_by, item.closed_by, item.note) == (
        "closed", staff_mo, staff_mo, "warned",
    )  # fmt: skip
    act(client, staff_mo, "accounts/user", "suspend", alice.pk, reason="abuse")
    alice.refresh_from_db()
    assert alice.suspended and alice.suspensions.get().suspended_by == staff_mo
    assert ModerationItem.objects.count() == 1


def test_a_moderator_hands_a_seat_to_a_bot_from_the_admin(client, staff_mo, alice, bob):
    game = do_create_game(title="havana", players=[alice, bob], seed=2)
    act(client, staff_mo, "games/game", "hand_to_bot", game.pk, seat=1, bot="greedy",
        reason="bob vanished")  # fmt: skip
    handed = Event.objects.get(game=game, seq=2)
    assert (handed.kind, handed.actor, handed.payload["bot"]) == (
        "seat_replaced", staff_mo, "greedy",
    )  # fmt: skip
    assert game.seats.get(index=1).user.username == "bot:greedy:1"


def test_the_admin_exports_a_game_and_imports_it_back_as_a_new_game(client, staff_mo, game):
    client.force_login(staff_mo)
    response = client.post("/admin/games/game/",
                           {"action": "export", "_selected_action": [game.pk]})  # fmt: skip
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.json"'
    document = json.loads(response.content)
    assert document["format"] == "correo-game"
    upload = SimpleUploadedFile("game.json", response.content, "application/json")
    page = client.post("/admin/games/game/import/",
                       {"document": upload, "mapping": "alice=alice\nbob=bob"})  # fmt: skip
    imported = Game.objects.exclude(pk=game.pk).get()
    assert page.status_code == 302 and page.url.endswith(f"/games/game/{imported.pk}/change/")
    assert list(game_problems(imported)) == []


def test_a_garbled_upload_is_refused_on_the_admins_import_page_and_writes_nothing(
    client, staff_mo, game
):
    client.force_login(staff_mo)
    upload = SimpleUploadedFile("game.json", b'{"format": "correo-game", "ver', "application/json")
    page = client.post("/admin/games/game/import/", {"document": upload, "mapping": "x"})
    text = page.content.decode()
    assert page.status_code == 200
    assert "not a JSON document" in text and "one old=new per line" in text
    assert Game.objects.count() == 1


def test_staff_who_are_not_moderators_cannot_import_from_the_admin(client, game):
    staff = make_user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    document = json.dumps(exchange.export(game, exchange.full_viewer(game))).encode()
    upload = SimpleUploadedFile("game.json", document, "application/json")
    page = client.post("/admin/games/game/import/", {"document": upload, "placeholders": "on"})
    assert "only moderators may import games" in page.content.decode()
    assert Game.objects.count() == 1
