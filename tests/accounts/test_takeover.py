"""The whole token-to-takeover chain, played as the attacker.

A thief holds one of alice's API tokens (leaked from a script, a log, a
laptop) or her open browser, but not her password.  Before, the token alone
changed her address, and a password reset then went to the thief.  Here
every step of that chain is refused, the reset mail reaches alice (through a
real SMTP conversation), and when alice changes her password the leaked
token dies at once.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import ApiToken, User
from notifications.models import Notification
from tests.accounts.conftest import PASSWORD, log_in, token_client

pytestmark = [pytest.mark.postgres, pytest.mark.mail]

THIEF = "thief@evil.test"
NEW = "a brand new phrase 3"
# What the list of tokens shows of each: never the key.
FIELDS = {"id", "name", "prefix", "created", "last_used", "expires", "current"}


def test_a_leaked_token_does_not_become_the_account(
    alice, sink, django_capture_on_commit_callbacks
):
    on_commit = django_capture_on_commit_callbacks
    laptop = log_in("alice", name="laptop")
    leaked = log_in("alice", name="a script that leaked")
    thief = token_client(leaked)
    assert thief.get("/api/auth/me/").status_code == 200  # the token works, and is remembered

    # 1. Move the address to the thief's: refused without the password, and
    #    with a wrong one.
    for body in [{"email": THIEF}, {"email": THIEF, "current_password": "a guess"}]:
        with on_commit(execute=True):
            response = thief.patch("/api/auth/me/", body, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["error"] == "invalid"
        assert "current_password" in response.json()["fields"]
    # 2. Set a password of the thief's: refused likewise.
    for body in [{"new_password": NEW}, {"new_password": NEW, "current_password": "a guess"}]:
        with on_commit(execute=True):
            response = thief.post("/api/auth/password/", body, format="json")
        assert response.status_code == 400, response.content
    alice.refresh_from_db()
    assert alice.email == "alice@example.org" and alice.check_password(PASSWORD)
    assert not Notification.objects.exists()  # nothing changed, nothing to tell

    # 3. The token leads to no other token: the list shows none of the keys,
    #    a new token needs the password, and the others still work.
    listing = thief.get("/api/auth/tokens/")
    assert listing.status_code == 200
    assert {t["name"] for t in listing.json()["tokens"]} == {"laptop", "a script that leaked"}
    assert laptop not in listing.content.decode() and leaked not in listing.content.decode()
    assert {field for t in listing.json()["tokens"] for field in t} == FIELDS
    minted = thief.post("/api/auth/token/", {"username": "alice"}, format="json")
    assert minted.status_code == 400 and "token" not in minted.json()
    assert ApiToken.objects.filter(user=alice).count() == 2

    # 4. Ask for a password reset: the mail goes to alice, not to the thief.
    with on_commit(execute=True):
        Client().post("/accounts/password_reset/", {"email": "alice@example.org"})
        Client().post("/accounts/password_reset/", {"email": THIEF})
    assert [m["Subject"] for m in sink.to("alice@example.org")] == [
        "[Correo] choose a new password"
    ]
    assert not sink.to(THIEF)

    # 5. Alice changes her password on the settings' password page: the
    #    leaked token (and every other) stops working at once, and she hears.
    page = Client()
    assert page.login(username="alice", password=PASSWORD)
    with on_commit(execute=True):
        response = page.post("/accounts/password_change/", {
            "old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW,
        })  # fmt: skip
    assert response.status_code == 302
    assert thief.get("/api/auth/me/").status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()
    notice = sink.wait_for(lambda m: m["Subject"] == "[Correo] your password was changed")
    assert notice.envelope_to == ["alice@example.org"]
    text = notice.get_body(["plain"]).get_content()
    assert "Every API token of\nthe account was revoked" in text


def test_an_open_browser_does_not_become_the_account(
    alice, browser, sink, django_capture_on_commit_callbacks
):
    """The same thief at alice's unlocked computer: her session is logged in
    to the pages and, through DRF's session authentication, to the API."""
    on_commit = django_capture_on_commit_callbacks
    key = log_in("alice", name="laptop")
    session = browser(alice)

    # No API token can be read or made from the session.
    listing = session.get("/api/auth/tokens/")
    assert listing.status_code == 200 and key not in listing.content.decode()
    assert {field for t in listing.json()["tokens"] for field in t} == FIELDS
    assert session.post("/api/auth/token/", {}, content_type="application/json").status_code == 400
    assert session.delete("/api/auth/token/").status_code == 401  # a session is no token
    # No change of address, through the API or the settings page.
    with on_commit(execute=True):
        api = session.patch("/api/auth/me/", {"email": THIEF}, content_type="application/json")
        page = session.post("/settings/email/", {"email": THIEF, "current_password": ""})
    assert api.status_code == 400
    assert page.status_code == 200 and "This field is required." in page.content.decode()
    # No new password without the old one (Django's page asks for it).
    with on_commit(execute=True):
        session.post("/accounts/password_change/", {
            "old_password": "a guess", "new_password1": NEW, "new_password2": NEW,
        })  # fmt: skip
    alice = User.objects.get(pk=alice.pk)
    assert alice.email == "alice@example.org" and alice.check_password(PASSWORD)
    assert token_client(key).get("/api/auth/me/").status_code == 200
    assert not sink.messages
