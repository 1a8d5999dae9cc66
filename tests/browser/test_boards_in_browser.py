"""The boards you click, in a real browser: two players (two contexts) play
each title by clicking the board's controls only (cards, market spaces,
lots, the bid box), never the move list; each move type named below is made
that way.  Screenshots of each board at desktop and phone width go to
docs/screenshots/ with UPDATE_SCREENSHOTS=1 (else var/screenshots/), and
each game page passes axe (axe-core, bundled in the axe-playwright-python
package: nothing fetched) with no serious or critical violation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Event, Game
from tests.browser.conftest import PHONE
from tests.support.boards import KINDS
from tests.support.play import play_until_kind

pytestmark = pytest.mark.browser


# The move types each title's test must make by clicking the board, and how
# many moves it may take to get there.
WANTED = {
    "havana": ({"choose", "replace", "end"}, 24),
    "pointcity": ({"take", "draw"}, 16),
    "estates": ({"auction", "bid", "pass", "place"}, 24),
}


def seq(page: Page) -> int:
    return int(page.get_attribute("#game", "data-seq"))


def click_the_board(page: Page, done: set[str]) -> str:
    """Make one move from the board's controls, preferring a kind not made
    yet; the kind made."""
    forms = page.locator(".board-controls form[data-action]")
    kinds = [forms.nth(i).get_attribute("data-action") for i in range(forms.count())]
    assert kinds, "the board offers nothing to click"
    fresh = [i for i, kind in enumerate(kinds) if kind not in done]
    index = fresh[0] if fresh else 0
    form, kind = forms.nth(index), kinds[index]
    before = seq(page)
    if "picker" in (form.get_attribute("class") or ""):
        key = form.locator("button[data-key]").first.get_attribute("data-key")
        for pick in key.split(" "):
            button = form.locator(f"button[data-pick='{pick}']").first
            button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
        send = form.locator(f"button[data-key='{key}']:visible").first
        expect(send).to_be_visible()
        # Only the sends of the picks made show.
        others = form.locator(f"button[data-key]:not([data-key='{key}'])")
        for i in range(min(others.count(), 5)):
            expect(others.nth(i)).to_be_hidden()
        # The preview says the move before it is sent.
        expect(form.locator(".picker-preview")).not_to_have_text(
            form.locator(".picker-preview").get_attribute("data-prompt")
        )
        send.click()
    elif form.locator("input[type=number]").count():
        box = form.locator("input[type=number]")
        box.fill(box.get_attribute("max"))
        form.locator("button[type=submit]").click()
    else:
        form.locator("button[type=submit]").first.click()
    page.wait_for_function(
        "before => Number(document.querySelector('#game').dataset.seq) > before", arg=before
    )
    return kind


def serious(page: Page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']}: {v['help']}: "
        + "; ".join(
            str(n["target"]) + " " + n.get("failureSummary", "")[:160] for n in v["nodes"][:3]
        )
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


@pytest.mark.parametrize("title", sorted(WANTED))
def test_each_move_type_is_made_by_clicking_the_board(
    open_page, make_game, docs_screenshots, alice, bob, title
):
    wanted, limit = WANTED[title]
    game = make_game(title, players=[alice, bob], seed=3)
    pages = {0: open_page(alice), 1: open_page(bob)}
    done: set[str] = set()
    shot = False
    for _ in range(limit):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active" or wanted <= done:
            break
        seat = min(game.to_act)
        page = pages[seat]
        page.goto(f"/games/{game.pk}/")
        if not shot and len(done) >= 1:
            page.screenshot(path=docs_screenshots / f"{title}-board-desktop.png", full_page=True)
            assert serious(page) == [], f"axe on {title}'s game page"
            shot = True
        done.add(click_the_board(page, done))
    assert wanted <= done, f"made {sorted(done)} of {sorted(wanted)}"


# The kinds of move the walk above leaves (Havana's purchases, specials and
# targets, The Estates' answers, mayor and cancel cube, Point City's flips
# and civic tokens) and, per title, the seed of a random walk that meets
# them all: random moves through the service bring each up, then its seat
# makes it by clicking the board.
LATER_SEEDS = {"havana": 2, "pointcity": 0, "estates": 2}


# Moves made from the board's picture itself: the part of it they name is a
# link to their buttons.
ON_THE_PICTURE = {"estates": {"mayor", "cancel"}, "havana": {"buy", "conserve"}}


def through_the_picture(page: Page, kind: str):
    """Click the part of the board picture that leads to a move of `kind`;
    the form of that move in the cell it opened."""
    links = page.locator(".board a.board-target")
    for i in range(links.count()):
        href = links.nth(i).get_attribute("href")
        if page.locator(f"{href} form[data-action='{kind}']").count():
            links.nth(i).click()
            page.wait_for_function("href => location.hash === href", arg=href)
            return page.locator(f".cell:target form[data-action='{kind}']").first
    raise AssertionError(f"no part of the picture leads to a {kind} move")


@pytest.mark.parametrize("title", sorted(LATER_SEEDS))
def test_every_other_kind_of_move_is_made_by_clicking_the_board(
    open_page, make_game, alice, bob, title
):
    wanted = KINDS[title] - WANTED[title][0]
    players = [alice, bob]
    game = make_game(title, players=players, seed=3)
    pages: dict[int, Page] = {}
    made: set[str] = set()
    while made != wanted:
        left = wanted - made
        game, seat, user, legal = play_until_kind(game, players, left, seed=LATER_SEEDS[title])
        kind = next(a["type"] for a in legal if a["type"] in left)
        page = pages.get(seat) or pages.setdefault(seat, open_page(user))
        page.goto(f"/games/{game.pk}/")
        if kind in ON_THE_PICTURE.get(title, ()):
            form = through_the_picture(page, kind)
            # The picture holds links now: still no serious axe violation.
            assert serious(page) == [], f"axe on {title}'s clickable picture"
        else:
            form = page.locator(f".board-controls form[data-action='{kind}']").first
        button = form.locator("button[type=submit]").first
        expect(button).to_have_accessible_name(re.compile(r"\w"))
        button.click()
        page.wait_for_function(
            "before => Number(document.querySelector('#game').dataset.seq) > before",
            arg=game.seq,
        )
        event = Event.objects.get(game=game, seq=game.seq + 1)
        assert (event.seat, event.payload["action"]["type"]) == (seat, kind)
        made.add(kind)
        game = Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("title", sorted(WANTED))
def test_the_board_is_played_with_a_thumb_on_a_phone(
    open_page, make_game, docs_screenshots, alice, bob, title
):
    game = make_game(title, players=[alice, bob], seed=3)
    players = [alice, bob]
    phone = open_page(players[min(game.to_act)], viewport=PHONE)
    phone.goto(f"/games/{game.pk}/")
    controls = phone.locator(".board-controls")
    expect(controls).to_be_visible()
    # Nothing cut off sideways, every button big enough for a thumb.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    buttons = controls.locator("button:visible")
    for i in range(min(buttons.count(), 30)):
        box = buttons.nth(i).bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    phone.screenshot(path=docs_screenshots / f"{title}-board-phone.png", full_page=True)
    click_the_board(phone, set())
    assert serious(phone) == [], f"axe on {title}'s game page on a phone"


def test_the_board_is_played_from_the_keyboard(open_page, make_game, alice, bob):
    """Tab to a card, Space to pick it, and Enter on the send button."""
    game = make_game("havana", players=[alice, bob], seed=3)
    page = open_page([alice, bob][min(game.to_act)])
    page.goto(f"/games/{game.pk}/")
    picker = page.locator("form.picker[data-action=choose]")
    key = picker.locator("button[data-key]").first.get_attribute("data-key")
    before = seq(page)
    for pick in key.split(" "):
        picker.locator(f"button[data-pick='{pick}']").focus()
        page.keyboard.press("Space")
    send = picker.locator(f"button[data-key='{key}']:visible")
    send.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "before => Number(document.querySelector('#game').dataset.seq) > before", arg=before
    )


def test_the_welcome_pages_18cuba_preview_shows_the_whole_map(open_page):
    page = open_page(None)
    page.goto("/")
    box = page.locator(".title-card[data-title='18cuba'] .map-scroll")
    expect(box).to_be_visible()
    # Nothing of the map hidden beyond its card: it scales, it does not scroll.
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    card = page.locator(".title-card[data-title='18cuba']").bounding_box()
    svg = box.locator("svg").bounding_box()
    assert svg["x"] >= card["x"] and svg["x"] + svg["width"] <= card["x"] + card["width"] + 1
