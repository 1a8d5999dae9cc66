"""Per-user preferences (GET/PATCH /api/auth/me/) and the unsubscribe link."""

from __future__ import annotations

import pytest

from notifications.addresses import unsubscribe_token
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_player_reads_their_preferences(alice):
    response = client_for(alice).get("/api/auth/me/")
    assert response.status_code == 200
    assert response.json() == {
        "username": "alice",
        "email": "alice@example.org",
        "notify_mode": "every_turn",
        "webhook_url": "",
        "every_mail": False,
        "language": "en",
    }


def test_a_player_changes_mode_and_webhook(alice):
    body = {"notify_mode": "daily_digest", "webhook_url": "https://chat.example/hook/1"}
    response = client_for(alice).patch("/api/auth/me/", body, format="json")
    assert response.status_code == 200
    alice.refresh_from_db()
    assert (alice.notify_mode, alice.webhook_url) == ("daily_digest", body["webhook_url"])


@pytest.mark.parametrize(
    "body",
    [{"notify_mode": "hourly"}, {"webhook_url": "ftp://x.example/"}, {"email": "not-an-email"}],
)
def test_bad_preferences_are_refused(alice, body):
    response = client_for(alice).patch("/api/auth/me/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"


def test_strangers_have_no_preferences():
    assert client_for(None).get("/api/auth/me/").status_code == 401


def test_the_unsubscribe_link_asks_first_and_a_post_turns_mail_off(client, alice):
    url = f"/email/unsubscribe/{unsubscribe_token(alice.pk)}/"
    assert client.get(url).status_code == 200
    alice.refresh_from_db()
    assert alice.notify_mode == "every_turn"  # link scanners change nothing
    assert client.post(url).status_code == 200  # the button, or RFC 8058 one-click
    alice.refresh_from_db()
    assert alice.notify_mode == "off"


def test_a_forged_unsubscribe_link_is_refused(client, alice):
    token = unsubscribe_token(alice.pk)[:-2] + "xx"
    assert client.post(f"/email/unsubscribe/{token}/").status_code == 400


def test_moderators_see_the_outbox_and_the_inbound_ledger_in_the_admin(client, alice, bob):
    from accounts.models import User
    from tests.notifications.conftest import new_duel

    new_duel(alice, bob)
    User.objects.create_superuser("root", "root@example.org", "pw")
    client.login(username="root", password="pw")
    assert client.get("/admin/notifications/notification/").status_code == 200
    assert client.get("/admin/notifications/inboundmessage/").status_code == 200
