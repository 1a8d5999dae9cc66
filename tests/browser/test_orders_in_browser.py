"""The standing orders page in a browser: a player follows the game page's
link, leaves an order by keyboard alone, sees it listed in words and cancels
it; the page passes axe with no serious or critical violation, at desktop
and phone width, and does not scroll sideways on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_boards_in_browser import serious

pytestmark = pytest.mark.browser


def test_an_order_is_left_by_keyboard_listed_and_cancelled(open_page, make_game, alice, bob):
    game = make_game("18cuba", players=[alice, bob], seed=7, options={"difficulty": "easy"})
    page = open_page(bob)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("link", name="Standing orders").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Your standing orders")
    assert serious(page) == [], "axe on the orders page"
    form = page.locator('form[data-kind="auction_pass"]')
    form.get_by_label("Highest lowest bid to stay in for").focus()
    page.keyboard.type("40")
    page.keyboard.press("Enter")  # submits the form the input is in
    expect(page.locator(".messages, [role=status], [role=alert]").first).to_contain_text(
        "Your order is written."
    )
    listed = page.locator('li[data-order="1"]')
    expect(listed).to_contain_text("40")
    listed.get_by_role("button", name="Cancel order 1").click()
    expect(page.locator('li[data-order="1"]')).to_have_count(0)
    phone = open_page(bob, viewport=PHONE)
    phone.goto(f"/games/{game.pk}/orders/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious(phone) == [], "axe on the orders page on a phone"
