"""Tables in a real browser: two players meet in the lobby and start a
game; an unlisted table's link handed over on a phone; an invitation
accepted from the dashboard."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, meet_in_the_lobby

pytestmark = pytest.mark.browser


def test_two_players_meet_in_the_lobby_and_start_a_game(open_page, alice, bob):
    host, guest = open_page(alice), open_page(bob)
    path = meet_in_the_lobby(host, guest, "havana", "alice")
    for page in (host, guest):
        expect(page.locator(".status")).to_have_attribute("data-status", "active")
        expect(page.locator(".players")).to_contain_text("alice")
        expect(page.locator(".players")).to_contain_text("bob")
    guest.goto("/tables/")
    expect(guest.locator("main")).to_contain_text("No table is waiting")
    assert path.startswith("/games/")


def test_an_unlisted_tables_link_seats_a_friend_on_a_phone(open_page, alice, bob):
    host, friend = open_page(alice, viewport=PHONE), open_page(bob, viewport=PHONE)
    host.goto("/tables/new/")
    host.select_option("#title", "pointcity")
    host.fill("#min_seats", "2")
    host.fill("#max_seats", "2")
    host.uncheck("#open")
    host.click("form.new-game button[type=submit]")
    host.wait_for_url("**/tables/*/")
    link = host.get_by_label("The table's link").input_value()
    assert "?token=" in link
    host.get_by_role("button", name="Copy").click()
    friend.goto("/tables/")
    expect(friend.locator("main")).to_contain_text("No table is waiting")  # unlisted
    # The link names CORREO_BASE_URL's host; the friend follows its path here.
    parts = urlsplit(link)
    friend.goto(f"{parts.path}?{parts.query}")
    friend.get_by_role("button", name="Take a seat").click()
    friend.wait_for_url("**/games/*/")
    expect(friend.locator(".players")).to_contain_text("alice")


def test_an_invitation_is_accepted_from_the_dashboard(open_page, alice, bob):
    host, guest = open_page(alice), open_page(bob)
    host.goto("/tables/new/")
    host.select_option("#title", "estates")
    host.fill("#min_seats", "2")
    host.fill("#max_seats", "2")
    host.fill("#invite", "bob")
    host.click("form.new-game button[type=submit]")
    host.wait_for_url("**/tables/*/")
    expect(host.locator("#table")).to_contain_text("Invited")
    guest.goto("/")
    guest.get_by_role("button", name="Accept alice's invitation").click()
    guest.wait_for_url("**/games/*/")
    expect(guest.locator(".players")).to_contain_text("alice")
