"""Changing the address or the password: the current password is asked,
every API token ends, and the account holder (the OLD address, for an
address change) is told by mail through the outbox, in their language.
Each door: the API, the settings page, Django's password change and reset
pages."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts import tokens
from accounts.models import ApiToken, User
from notifications.models import Notification
from tests.accounts.conftest import PASSWORD, log_in, token_client

pytestmark = [pytest.mark.django_db, pytest.mark.mail]

NEW = "a brand new phrase 3"


@pytest.fixture(autouse=True)
def mail_in_memory(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def unchanged(user: User, *keys: str) -> None:
    """The account as it was: address, password, every token working, no mail."""
    user = User.objects.get(pk=user.pk)
    assert user.email == "alice@example.org" and user.check_password(PASSWORD)
    for key in keys:
        assert token_client(key).get("/api/auth/me/").status_code == 200
    assert not Notification.objects.exists() and not mail.outbox


def all_revoked(*keys: str) -> None:
    for key in keys:
        assert token_client(key).get("/api/auth/me/").status_code == 401


# --- the address, through the API ---------------------------------------------------


@pytest.mark.parametrize(
    ("password", "message"),
    [
        (None, "give your current password to change this"),
        ("", "give your current password to change this"),
        ("not it", "the current password is wrong"),
        ("correct horse 42 ", "the current password is wrong"),
    ],
)
def test_the_address_does_not_change_without_the_current_password(
    alice, password, message, django_capture_on_commit_callbacks
):
    key, other = log_in("alice"), log_in("alice")
    body = {"email": "new@example.net", "notify_mode": "off"}
    if password is not None:
        body["current_password"] = password
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(key).patch("/api/auth/me/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"] == {"current_password": [message]}
    assert message in response.json()["detail"]
    assert User.objects.get(pk=alice.pk).notify_mode == "every_turn"  # nothing, not half
    unchanged(alice, key, other)


def test_the_address_changes_with_the_password_the_old_one_hears_and_tokens_end(
    alice, django_capture_on_commit_callbacks
):
    key, other = log_in("alice", name="laptop"), log_in("alice", name="phone")
    body = {"email": "new@example.net", "current_password": PASSWORD}
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(key).patch("/api/auth/me/", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["email"] == "new@example.net"
    all_revoked(key, other)
    fresh = response.json()["token"]  # the client that proved the password goes on
    assert token_client(fresh).get("/api/auth/me/").json()["email"] == "new@example.net"
    assert [t.name for t in ApiToken.objects.filter(user=alice)] == ["laptop"]

    row = Notification.objects.get(kind=Notification.Kind.EMAIL_CHANGED)
    assert (row.user, row.to_email, row.status) == (alice, "alice@example.org", "sent")
    [message] = [m for m in mail.outbox if m.to == ["alice@example.org"]]
    # The new address is asked to confirm itself before game mail goes there.
    [confirm] = [m for m in mail.outbox if m.to == ["new@example.net"]]
    assert confirm.subject == "[Correo] confirm your email address"
    assert message.subject == "[Correo] your email address was changed"
    assert "changed from this\naddress to n…@example.net" in message.body
    assert "new@example.net" not in message.body  # masked: the notice may be read by anyone
    assert "List-Unsubscribe" not in message.extra_headers  # about the account, not a game
    assert "n…@example.net" in message.alternatives[0][0]


def test_the_same_address_again_is_no_change(alice, django_capture_on_commit_callbacks):
    key = log_in("alice")
    body = {"email": "alice@example.org", "notify_mode": "off"}
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(key).patch("/api/auth/me/", body, format="json")
    assert response.status_code == 200 and "token" not in response.json()
    assert token_client(key).get("/api/auth/me/").status_code == 200
    assert not Notification.objects.exists()


def test_moving_the_address_back_and_forth_mails_the_old_one_once(
    alice, django_capture_on_commit_callbacks
):
    """Each change needs the password, but an account could still use the
    notice to flood an address it keeps setting and leaving."""
    client = token_client(log_in("alice"))
    for address in ["victim@example.net", "other@example.net"] * 3:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.patch(
                "/api/auth/me/", {"email": address, "current_password": PASSWORD}, format="json"
            )
        client = token_client(response.json()["token"])
    changed = [m for m in mail.outbox if "was changed" in m.subject]
    assert sorted(m.to[0] for m in changed) == [
        "alice@example.org", "other@example.net", "victim@example.net",
    ]  # fmt: skip
    # Each new address is asked to confirm itself once in the window too.
    confirm = [m for m in mail.outbox if "confirm" in m.subject]
    assert sorted(m.to[0] for m in confirm) == ["other@example.net", "victim@example.net"]


def test_a_german_account_gets_its_notices_in_german(alice, django_capture_on_commit_callbacks):
    User.objects.filter(pk=alice.pk).update(language="de")
    key = log_in("alice")
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(key).patch(
            "/api/auth/me/", {"email": "neu@example.net", "current_password": PASSWORD},
            format="json",
        )  # fmt: skip
        token_client(response.json()["token"]).post(
            "/api/auth/password/", {"current_password": PASSWORD, "new_password": NEW},
            format="json",
        )  # fmt: skip
    changed, confirm, password = mail.outbox
    assert confirm.subject == "[Correo] bestätige deine E-Mail-Adresse"
    assert changed.to == ["alice@example.org"]
    assert changed.subject == "[Correo] deine E-Mail-Adresse wurde geändert"
    assert "auf n…@example.net geändert" in changed.body
    assert password.to == ["neu@example.net"]
    assert password.subject == "[Correo] dein Passwort wurde geändert"
    assert "Jedes API-Token\ndes Kontos wurde damit widerrufen" in password.body
    assert "https://correo.test/accounts/password_reset/" in password.body


# --- the password, through the API --------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"new_password": NEW}, "current_password"),
        ({"current_password": "not it", "new_password": NEW}, "current_password"),
        ({"current_password": PASSWORD}, "new_password"),
        ({"current_password": PASSWORD, "new_password": "123"}, "new_password"),
        ({"current_password": PASSWORD, "new_password": "alice.example"}, "new_password"),
    ],
)
def test_the_password_does_not_change_without_the_current_one_or_for_a_weak_one(
    alice, body, field, django_capture_on_commit_callbacks
):
    key = log_in("alice")
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(key).post("/api/auth/password/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid" and field in response.json()["fields"]
    unchanged(alice, key)


def test_changing_the_password_ends_every_token_and_tells_the_holder(
    alice, django_capture_on_commit_callbacks
):
    key, other = log_in("alice", name="laptop"), log_in("alice", name="phone")
    with django_capture_on_commit_callbacks(execute=True):
        response = token_client(key).post(
            "/api/auth/password/", {"current_password": PASSWORD, "new_password": NEW},
            format="json",
        )  # fmt: skip
    assert response.status_code == 200 and set(response.json()) == {"token"}
    all_revoked(key, other)
    assert token_client(response.json()["token"]).get("/api/auth/me/").status_code == 200
    assert User.objects.get(pk=alice.pk).check_password(NEW)
    [message] = mail.outbox
    assert (message.to, message.subject) == (
        ["alice@example.org"], "[Correo] your password was changed",
    )  # fmt: skip
    assert "https://correo.test/accounts/password_reset/" in message.body


def test_guessing_the_current_password_is_rate_limited_as_a_log_in_is(alice, throttle_rates):
    throttle_rates(anon="1000/min", user="1000/min", auth="3/min")
    thief = token_client(tokens.issue(alice)[1])
    guesses = [
        thief.post("/api/auth/password/", {"current_password": f"guess {n}", "new_password": NEW},
                   format="json").status_code
        for n in range(3)
    ] + [
        thief.patch("/api/auth/me/", {"email": "t@evil.test", "current_password": PASSWORD},
                    format="json").status_code
    ]  # fmt: skip
    assert guesses == [400, 400, 400, 429]  # even the right password, past the rate
    assert User.objects.get(pk=alice.pk).email == "alice@example.org"
    # Preferences without an address change are not counted.
    assert thief.patch("/api/auth/me/", {"notify_mode": "off"}, format="json").status_code == 200


# --- every door that sets a password --------------------------------------------------


def test_the_password_page_ends_every_token(alice, django_capture_on_commit_callbacks):
    key = log_in("alice")
    page = Client()
    page.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = page.post("/accounts/password_change/", {
            "old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW,
        })  # fmt: skip
    assert response.status_code == 302
    all_revoked(key)
    assert [m.subject for m in mail.outbox] == ["[Correo] your password was changed"]
    assert page.get("/settings/").status_code == 200  # this session goes on


def test_a_password_reset_ends_every_token(alice, django_capture_on_commit_callbacks):
    key = log_in("alice")
    with django_capture_on_commit_callbacks(execute=True):
        Client().post("/accounts/password_reset/", {"email": "alice@example.org"})
    link = re.search(r"https://correo\.test(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    page = Client()
    form = page.get(link, follow=True)
    with django_capture_on_commit_callbacks(execute=True):
        done = page.post(form.redirect_chain[-1][0], {
            "new_password1": NEW, "new_password2": NEW,
        }, follow=True)  # fmt: skip
    assert done.redirect_chain[-1][0] == "/accounts/reset/done/"
    all_revoked(key)
    assert [m.subject for m in mail.outbox] == [
        "[Correo] choose a new password", "[Correo] your password was changed",
    ]  # fmt: skip


def test_any_new_password_ends_the_tokens_a_hash_upgrade_does_not(alice, settings):
    key = log_in("alice")
    # Logging in with a stronger hasher configured re-hashes the password:
    # the same password, so nothing ends.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    assert Client().login(username="alice", password=PASSWORD)
    assert User.objects.get(pk=alice.pk).password.startswith("pbkdf2_sha1$")
    assert token_client(key).get("/api/auth/me/").status_code == 200
    # Any other door (the admin, manage.py changepassword) saves a new one.
    alice.set_password(NEW)
    alice.save()
    all_revoked(key)


# --- the settings page ------------------------------------------------------------------


def settings_page(user) -> Client:
    page = Client()
    page.force_login(user)
    return page


@pytest.mark.parametrize(
    ("password", "error"),
    [("", "This field is required."), ("not it", "the current password is wrong")],
)
def test_the_settings_page_asks_the_password_to_change_the_address(
    alice, password, error, django_capture_on_commit_callbacks
):
    key = log_in("alice")
    page = settings_page(alice)
    html = page.get("/settings/").content.decode()
    assert 'name="current_password"' in html and 'autocomplete="current-password"' in html
    assert '<label for="id_current_password">Your current password' in html
    with django_capture_on_commit_callbacks(execute=True):
        response = page.post(
            "/settings/email/", {"email": "new@example.net", "current_password": password}
        )
    assert response.status_code == 200
    assert error in response.content.decode()
    assert "The address was not changed" in response.content.decode()
    unchanged(alice, key)


def test_the_settings_page_changes_the_address_with_the_password(
    alice, django_capture_on_commit_callbacks
):
    key = log_in("alice")
    page = settings_page(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = page.post(
            "/settings/email/", {"email": "new@example.net", "current_password": PASSWORD},
            follow=True,
        )  # fmt: skip
    assert "Your address is changed" in response.content.decode()
    assert User.objects.get(pk=alice.pk).email == "new@example.net"
    all_revoked(key)
    [message] = [m for m in mail.outbox if "was changed" in m.subject]
    assert message.to == ["alice@example.org"]


def test_the_settings_page_lists_my_tokens_and_revokes_one(alice, bob):
    laptop, script = log_in("alice", name="laptop"), log_in("alice", name="script")
    bobs = log_in("bob", name="bob's")
    page = settings_page(alice)
    html = page.get("/settings/").content.decode()
    assert "<caption>Your tokens, newest first</caption>" in html
    for name, key in [("laptop", laptop), ("script", script)]:
        assert f'<th scope="row">{name}</th>' in html
        assert f"<code>{key[:8]}…</code>" in html
        assert key not in html
    assert "bob&#x27;s" not in html and bobs[:8] not in html
    assert f'aria-label="Revoke the token script beginning {script[:8]}"' in html

    script_id = ApiToken.objects.get(name="script").pk
    response = page.post(f"/settings/tokens/{script_id}/revoke/", follow=True)
    assert "The token was revoked" in response.content.decode()
    all_revoked(script)
    assert token_client(laptop).get("/api/auth/me/").status_code == 200
    # Another account's token, or one that is gone: said so, nothing revoked.
    bobs_id = ApiToken.objects.get(name="bob's").pk
    for pk in (bobs_id, script_id, 2**63 - 1):
        response = page.post(f"/settings/tokens/{pk}/revoke/", follow=True)
        assert "No such token" in response.content.decode()
    assert token_client(bobs).get("/api/auth/me/").status_code == 200
    assert page.get(f"/settings/tokens/{bobs_id}/revoke/").status_code == 405
    assert Client().post(f"/settings/tokens/{bobs_id}/revoke/").status_code == 302  # log in
    assert token_client(bobs).get("/api/auth/me/").status_code == 200
