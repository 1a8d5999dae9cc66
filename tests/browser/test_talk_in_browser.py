"""The talk box in a real browser: two players in two contexts, a message
typed and sent from the keyboard reaches the other page without a reload,
what is being typed survives the game's redraw, and the box works at phone
width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services.creation import do_create_game
from games.services.talk import check_send_message
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser
POLL_WAIT_MS = 8_000  # the talk box polls every 5 s


def test_a_message_reaches_the_other_page_without_a_reload(open_page, alice, bob):
    game = do_create_game(title="pointcity", players=[alice, bob], seed=7)
    writer, reader = open_page(alice), open_page(bob, viewport=PHONE)
    writer.goto(f"/games/{game.pk}/")
    reader.goto(f"/games/{game.pk}/")
    reader.evaluate("window.notReloaded = true")
    reader.fill("#talk-text", "half a thought")  # bob is typing meanwhile

    writer.select_option("#talk-to", "table")
    writer.fill("#talk-text", "<b>good luck</b> & have fun")
    writer.focus("#talk-text")
    writer.keyboard.press("Tab")  # to Send
    writer.keyboard.press("Enter")
    expect(writer.locator("#talk-list")).to_contain_text("alice to the table: <b>good luck</b>")
    expect(writer.locator("#talk-text")).to_be_focused()
    expect(writer.locator("#talk-text")).to_have_value("")

    expect(reader.locator("#talk-list")).to_contain_text(
        "alice to the table: <b>good luck</b> & have fun", timeout=POLL_WAIT_MS
    )
    assert reader.evaluate("window.notReloaded === true")
    assert reader.locator("#talk-list b").count() == 0  # escaped, not markup
    # The game moves meanwhile: bob's half-typed words survive the redraw.
    said = check_send_message(game, alice, to=1, text="just between us", source="api").seq
    reader.wait_for_function(
        "seq => Number(document.querySelector('#game').dataset.seq) >= seq", arg=said,
        timeout=POLL_WAIT_MS,
    )  # fmt: skip
    expect(reader.locator("#talk-list")).to_contain_text("privately: just between us",
                                                         timeout=POLL_WAIT_MS)  # fmt: skip
    expect(reader.locator("#talk-text")).to_have_value("half a thought")
    width = reader.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the talk box makes the phone page scroll sideways"
