"""The Django admin's moderation actions call the game service: a
moderator's act is an event; staff who are not moderators are refused."""

from __future__ import annotations

import pytest

from games.models import Event, ModerationItem
from games.services.creation import do_create_game
from games.services.queue import check_report
from tests.conftest import make_user


@pytest.fixture
def staff_mo(db):
    return make_user("staffmo", is_moderator=True, is_staff=True, is_superuser=True)


@pytest.fixture
def game(alice, bob):
    return do_create_game(title="duel", players=[alice, bob], seed=5)


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
