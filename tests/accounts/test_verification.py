"""An address is confirmed before game mail goes to it: sign-ups (the page
and the API) and new addresses start unconfirmed and get a signed link; an
invitation by mail that was followed confirms its address too."""

from __future__ import annotations

import re

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from accounts import verification
from accounts.models import User
from games.services.creation import do_create_game
from notifications import render
from notifications.models import Notification
from tests.api.conftest import client_for

SIGNUP = {"username": "dora", "email": "dora@example.net", "password1": "a long pass 4827",
          "password2": "a long pass 4827"}  # fmt: skip


def link_in(row: Notification) -> str:
    body = render.build_message(row).body
    return re.search(r"https?://\S+/accounts/verify/(\S+)/", body).group(0)


def test_a_sign_up_is_unconfirmed_until_its_link_is_followed(db, settings):
    settings.CORREO_BASE_URL = "https://correo.test"
    browser = Client()
    assert browser.post("/accounts/signup/", SIGNUP).status_code == 302
    dora = User.objects.get(username="dora")
    assert not dora.email_verified
    row = Notification.objects.get(kind="verify_email", user=dora)
    assert row.to_email == "dora@example.net"
    url = link_in(row)
    assert "confirm your email address" in render.build_message(row).subject
    # Game mail waits for the confirmation; the web works meanwhile.
    bob = User.objects.create_user("bob", "bob@example.org", "x")
    do_create_game(title="duel", players=[dora, bob])
    assert not Notification.objects.filter(kind="your_turn", user=dora).exists()
    assert Notification.objects.filter(kind="your_turn", user=bob).exists()
    page = browser.get(url.removeprefix("https://correo.test"))
    assert page.status_code == 302
    dora.refresh_from_db()
    assert dora.email_verified
    do_create_game(title="duel", players=[dora, bob])
    assert Notification.objects.filter(kind="your_turn", user=dora).exists()


def test_an_api_sign_up_is_unconfirmed_too(db):
    body = {"username": "dora", "email": "dora@example.net", "password": "a long pass 4827"}
    assert client_for(None).post("/api/auth/register/", body, format="json").status_code == 201
    dora = User.objects.get(username="dora")
    assert not dora.email_verified
    assert Notification.objects.filter(kind="verify_email", user=dora).count() == 1


def test_a_new_address_is_unconfirmed_and_an_old_link_confirms_nothing(alice):
    from accounts.credentials import do_change_email

    old_token = verification.token_for(alice)
    do_change_email(alice, "alice@example.net")
    alice.refresh_from_db()
    assert not alice.email_verified
    assert verification.user_for(old_token) is None  # made for the old address
    row = Notification.objects.get(kind="verify_email", user=alice)
    assert row.to_email == "alice@example.net"
    assert verification.user_for(verification.token_for(alice)) == alice


@pytest.mark.parametrize("token", ["", "x", "x" * 400, "a:b:c"])
def test_a_forged_or_broken_link_confirms_nothing(db, token):
    assert verification.user_for(token) is None
    if token:
        assert Client().get(f"/accounts/verify/{token}/").status_code == 404


def test_a_stale_link_confirms_nothing(alice, monkeypatch):
    token = verification.token_for(alice)
    later = timezone.now().timestamp() + (verification.VERIFY_DAYS + 1) * 86400
    monkeypatch.setattr(signing.time, "time", lambda: later)
    assert verification.user_for(token) is None


def test_the_settings_page_offers_the_link_again(alice):
    alice.email_verified = False
    alice.save()
    browser = Client()
    browser.force_login(alice)
    assert "not confirmed yet" in browser.get("/settings/").content.decode()
    browser.post("/settings/verify/")
    assert Notification.objects.filter(kind="verify_email", user=alice).count() == 1
    browser.post("/settings/verify/")  # the same window: no second mail
    assert Notification.objects.filter(kind="verify_email", user=alice).count() == 1


def test_an_unconfirmed_player_gets_no_table_mail(alice, bob):
    from games.services.tables import check_create_table, check_join_table

    bob.email_verified = False
    bob.save()
    table = check_create_table(alice, title="duel", seats=2)
    check_join_table(table.pk, bob)
    assert not Notification.objects.filter(kind="table_started", user=bob).exists()
    assert Notification.objects.filter(kind="table_started", user=alice).exists()
