"""The tournaments' pages in a real browser on a phone: from the site's
navigation to a tournament, signing up by keyboard, and a running
tournament's rounds and standings fitting the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.conftest import make_user
from tournaments.services import check_create_tournament, check_sign_up, check_start_tournament

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def fits_the_screen(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide on a phone"


def test_a_player_signs_up_by_keyboard_and_reads_the_standings_on_a_phone(open_page, alice, mo):
    tournament = check_create_tournament(
        mo, name="Phone cup", title="duel", table_size=2, rounds=2
    )
    others = [make_user(name) for name in ("pia", "quin", "rosa")]
    for player in others:
        check_sign_up(tournament.pk, player)
    page = open_page(alice, viewport=PHONE)
    page.goto("/")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("table", name="Tournaments, newest first").get_by_role(
        "link", name="Phone cup"
    ).click()
    fits_the_screen(page)
    sign_up = page.get_by_role("button", name="Sign up")
    sign_up.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("You are signed up.")).to_be_visible()
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
    check_start_tournament(tournament.pk, mo)
    page.reload()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    standings = page.get_by_role("table", name="Standings, best first")
    expect(standings.locator("tbody tr")).to_have_count(4)
    expect(page.get_by_role("link", name="game #").first).to_be_visible()
    fits_the_screen(page)
