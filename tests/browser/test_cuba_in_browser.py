"""18Cuba played in a real browser by clicking its board: a 2-player easy
game from the commissioners' auction into the second set of operating
rounds, every move made from the page's own controls (a bid typed into
its number input, a tile chosen by clicking its hex on the map and then
the tile as it would lie), with screenshots at desktop and phone width
(docs/screenshots/ with UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from boards.cuba_panels import encode
from games.engines import base, bots
from games.engines.cuba.play.randomgame import choose
from games.models import Game
from games.selectors import viewers
from games.stream import store
from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

ENGINE = base.get("18cuba")
# Enough moves to reach the second set of ORs with the bots' choices
# (about 60 in this deal); a game stuck short of it fails the test.
MOVE_LIMIT = 160
MAP_MOVES = ("lay", "station", "home")
AMOUNT_KEYS = ("amount", "price")


def shown_seq(page: Page) -> int | None:
    """The seq the page shows, None before it shows a game."""
    shown = page.evaluate("document.querySelector('#game')?.dataset.seq ?? null")
    return None if shown is None else int(shown)


def position(game: Game):
    game.refresh_from_db()
    state = store.load(game, ENGINE).state
    seat = min(ENGINE.to_act(state))
    return state, seat


def form_index(page: Page, action: dict, ranged: bool) -> int:
    """Which of the page's move forms sends `action` (a number input's form
    sends the action without its amount, the amount from the input)."""
    key = next((k for k in AMOUNT_KEYS if ranged and k in action), None)
    sent = {k: v for k, v in action.items() if k != key}
    return page.evaluate(
        """([sent, key]) => Array.from(document.querySelectorAll('.cuba-moves form[data-action]'))
             .findIndex(f => {
               const input = f.querySelector('input[name=action]');
               if (!input) return false;
               const hasNumber = !!f.querySelector('input[type=number]');
               if ((key !== null) !== hasNumber) return false;
               const a = JSON.parse(input.value);
               const keys = Object.keys(a).sort();
               return JSON.stringify(keys) === JSON.stringify(Object.keys(sent).sort())
                 && keys.every(k => JSON.stringify(a[k]) === JSON.stringify(sent[k]));
             })""",
        [sent, key],
    )


def click_move(page: Page, action: dict) -> None:
    """Make `action` from the page as a player would: on the map for a lay
    or a station, in the number input for an amount, else its button."""
    before = shown_seq(page)
    forms = page.locator(".cuba-moves form[data-action]")
    if action["type"] in MAP_MOVES:
        page.locator(f'#cuba-map a.hex-target[data-hex="{action["hex"]}"]').click()
        panel = page.locator(f"#cuba-hex-{action['hex']}")
        expect(panel).to_be_visible()
        index = form_index(page, action, ranged=False)
        assert index >= 0, action
        forms.nth(index).locator("button").click()
    else:
        has_amount = any(k in action for k in AMOUNT_KEYS)
        index = form_index(page, action, ranged=True) if has_amount else -1
        if index >= 0:
            form = forms.nth(index)
            key = next(k for k in AMOUNT_KEYS if k in action)
            form.locator(f'input[name="num.{key}"]').fill(str(action[key]))
        else:
            index = form_index(page, action, ranged=False)
            assert index >= 0, action
            form = forms.nth(index)
        form.locator("button").click()
    page.wait_for_function(
        "before => Number(document.querySelector('#game').dataset.seq) > before", arg=before
    )


def test_an_18cuba_game_is_played_by_clicking_the_board_into_the_second_set_of_ors(
    open_page, make_game, docs_screenshots, alice, bob
):
    game = make_game("18cuba", players=[alice, bob], seed=7, options={"difficulty": "easy"})
    users = {seat.index: seat.user for seat in viewers.seats_of(game)}
    pages = {seat: open_page(user) for seat, user in users.items()}
    path = f"/games/{game.pk}/"
    rng = random.Random(3)
    shot = set()
    for n in range(MOVE_LIMIT):
        state, seat = position(game)
        r = state["round"]
        if r["kind"] == "operating" and r["number"] >= 2 and "routes" in shot:
            break
        legal = ENGINE.legal_actions(state, seat)
        if any(a["type"] == "bid" for a in legal):
            action = choose(rng, legal)
        else:
            action = bots.choose(ENGINE, state, seat, "greedy", n)[1]
        page = pages[seat]
        if shown_seq(page) != game.seq:
            # A player who made the last move goes on from the page it left
            # (a move redraws the game in place); the other reloads.
            page.goto(path)
        kinds = {a["type"] for a in legal}
        if "bid" in kinds and "auction" not in shot:
            shot.add("auction")
            expect(page.locator(".cuba-auction")).to_contain_text("May still bid")
            page.screenshot(path=docs_screenshots / "18cuba-auction-desktop.png", full_page=True)
        if action["type"] == "lay" and "lay" not in shot:
            shot.add("lay")
            page.evaluate("document.getElementById('cuba-map').scrollIntoView()")
            page.locator(f'#cuba-map a.hex-target[data-hex="{action["hex"]}"]').click()
            expect(page.locator(f"#cuba-hex-{action['hex']} .tile-preview").first).to_be_visible()
            # each tile says what it opens, as the engine says it
            opens = ENGINE.prospects(state, seat, legal)[legal.index(action)]
            chosen = page.locator(f"#cuba-hex-{action['hex']} form").filter(
                has=page.locator(f"input[name=action][value='{encode(action)}']")
            )
            expect(chosen.locator(".tile-opens")).to_have_text(opens)
            page.screenshot(path=docs_screenshots / "18cuba-lay-desktop.png")
            phone = open_page(users[seat], viewport=PHONE)
            phone.goto(path)
            phone.screenshot(path=docs_screenshots / "18cuba-phone.png")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"the page scrolls sideways ({width}px)"
            # the map zooms in its own box, which then pans; the page does not
            box = "document.getElementById('cuba-map')"
            phone.get_by_label("Largest").check()
            assert phone.evaluate(f"{box}.scrollWidth > 2 * {box}.clientWidth")
            phone.evaluate(f"{box}.scrollLeft = 400")
            assert phone.evaluate(f"{box}.scrollLeft") > 0
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            phone.get_by_label("Whole map").check()
            assert phone.evaluate(f"{box}.scrollWidth <= {box}.clientWidth + 1")
            phone.evaluate("document.getElementById('cuba-map').scrollIntoView()")
            phone.locator(f'#cuba-map a.hex-target[data-hex="{action["hex"]}"]').click()
            expect(phone.locator(f"#cuba-hex-{action['hex']}")).to_be_visible()
            phone.screenshot(path=docs_screenshots / "18cuba-lay-phone.png")
        if "payout" in kinds and "routes" not in shot and page.locator(".route").count():
            shot.add("routes")
            expect(page.locator(".cuba-routes")).to_contain_text("income")
            page.screenshot(path=docs_screenshots / "18cuba-routes-desktop.png", full_page=True)
        click_move(page, action)
    else:
        pytest.fail(f"not in the second set of ORs after {MOVE_LIMIT} moves")
    state, seat = position(game)
    assert state["round"]["kind"] == "operating" and state["round"]["number"] >= 2
    assert {"auction", "lay", "routes"} <= shot
    page = pages[seat]
    page.goto(path)
    expect(page.locator(".cuba-now")).to_contain_text("Operating round 2")
