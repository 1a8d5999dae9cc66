"""The ratings' pages in a real browser on a phone: the leaderboard, the
profile's history, and a table whose minimum rating refuses a player with
the reason shown."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from games.services.creation import do_create_game
from games.services.tables import check_create_table
from ratings import ledger, updates
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def rated(*seats) -> None:
    """A finished game's facts rated (the path from a real game is
    tests/ratings/test_rated_games.py)."""
    game = do_create_game(title="duel", players=list(seats), seed=1)
    updates.do_rebuild([
        ledger.Facts(game.pk, "duel", rated=True, finish_seq=1,
                     finished_at=datetime.datetime(2026, 3, 2, tzinfo=datetime.UTC),
                     places=list(range(1, len(seats) + 1)),
                     holders=[[[user.pk, 1.0]] for user in seats]),
    ])  # fmt: skip


def fits_the_screen(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide on a phone"


def test_the_leaderboard_and_the_history_on_a_phone(open_page, alice, bob):
    rated(alice, bob)
    page = open_page(None, viewport=PHONE)
    page.goto("/")
    page.get_by_role("link", name="Ratings").click()
    page.get_by_label("Title", exact=True).select_option("duel")
    page.get_by_role("button", name="Show").click()
    board = page.get_by_role("table", name="Duel (test engine) ratings, best first")
    expect(board.locator("tbody tr").first).to_contain_text("alice")
    expect(board.locator("tbody tr").nth(1)).to_contain_text("bob")
    fits_the_screen(page)
    board.get_by_role("link", name="alice").click()
    expect(page.get_by_role("heading", name="Ratings")).to_be_visible()
    expect(page.locator("#rating-duel")).to_contain_text("after 1 rated game")
    fits_the_screen(page)


def test_a_table_asking_for_a_rating_refuses_with_the_reason(open_page, alice, bob, carol):
    rated(alice, bob)  # bob came second: his rating is below alice's
    table = check_create_table(alice, title="duel", seats=3, requirements={"min_rating": 0.5})
    page = open_page(bob, viewport=PHONE)
    page.goto("/tables/")
    row = page.locator(f"tr[data-table='{table.pk}']")
    expect(row).to_contain_text("rating 0.5 or more")
    row.get_by_role("button", name="Take a seat").click()
    # said once, where the table's page shows its messages
    expect(page.get_by_text("this table asks for a rating of at least 0.5")).to_have_count(1)
    expect(page.get_by_text("this table asks for a rating of at least 0.5")).to_be_visible()
    fits_the_screen(page)
