"""The web client in a real browser: log in, start games, a move chosen
from a list, play a game to its end from both sides, a stale tab, the
replay, a spectator, the API docs offline, the page following the game, and
each board at two widths."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from games.engines import base
from games.services.creation import do_create_game
from tests.browser.conftest import PHONE, log_in, meet_in_the_lobby

pytestmark = pytest.mark.browser

TITLES = ["havana", "estates", "pointcity"]
BOARDS = [*TITLES, "18cuba"]
# The shortest whole game of the finished titles: Point City for two
# finishes in a few dozen moves when each side takes the first one offered.
SHORTEST = "pointcity"
LIVE_POLL_WAIT_MS = 8_000  # the page polls every 5 s


def game_url(game) -> str:
    return f"/games/{game.pk}/"


def seq(page: Page) -> int:
    return int(page.get_attribute("#game", "data-seq"))


def has_moves(page: Page) -> bool:
    return page.locator(".moves form[data-action] button").count() > 0


def move(page: Page) -> int:
    """Make the first move the page offers (a button, or the first choice
    of a list and Send); the seq the page shows after it."""
    before = seq(page)
    form = page.locator(".moves form[data-action]").first
    choices = form.locator("select")
    if choices.count():
        choices.select_option(index=0)
    form.locator("button").click()
    page.wait_for_function(
        "before => Number(document.querySelector('#game').dataset.seq) > before", arg=before
    )
    return seq(page)


def first_to_act(game, players):
    return players[min(game.to_act)]


def board_html(page: Page) -> str:
    """The board as drawn, without the replay's notice around it."""
    return page.eval_on_selector(
        ".board-area",
        """area => {
            const copy = area.cloneNode(true);
            copy.querySelectorAll(".notice").forEach(n => n.remove());
            return copy.innerHTML.trim();
        }""",
    )


def play(pages: dict, url: str, *, until_seq: int | None = None, limit: int = 200) -> None:
    """Each side moves in turn, from its own page, until the game ends (or
    reaches `until_seq`); a side with no move is visited fresh, as a player
    coming back to the page would."""
    idle = 0
    for _ in range(limit):
        for page in pages.values():
            page.goto(url)
            if page.get_attribute(".status", "data-status") != "active":
                return
            if not has_moves(page):
                idle += 1
                assert idle <= len(pages), "nobody is offered a move in an active game"
                continue
            idle = 0
            while has_moves(page):
                if until_seq is not None and seq(page) >= until_seq:
                    return
                move(page)
    pytest.fail(f"the game did not end in {limit} rounds")


def test_log_in_through_the_login_form(open_page, alice):
    page = open_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "not her password")
    page.click("main button[type=submit]")
    expect(page.get_by_role("alert")).to_contain_text("did not match")

    log_in(page, "alice")
    expect(page.locator("h1")).to_have_text("Your games")
    expect(page.locator("header.site nav")).to_contain_text("alice")


@pytest.mark.parametrize("title", TITLES)
def test_start_a_game_at_a_table_and_see_its_board(open_page, alice, bob, title):
    page, guest = open_page(alice), open_page(bob)
    meet_in_the_lobby(page, guest, title, "alice")
    expect(page.locator(".board-area")).to_be_visible()
    expect(page.locator(".board-area svg").first).to_be_visible()
    expect(page.locator(".players")).to_contain_text("bob")


def test_a_whole_game_played_from_both_sides(open_page, alice, bob):
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    pages = {"alice": open_page(alice), "bob": open_page(bob)}

    play(pages, game_url(game))

    for page in pages.values():
        page.goto(game_url(game))
        expect(page.locator(".status")).to_have_text("Finished.")
        expect(page.locator(".result")).to_be_visible()
        expect(page.locator(".moves")).to_have_count(0)
    game.refresh_from_db()
    assert game.status == "finished"


def test_a_choice_from_a_list_is_sent_as_labelled(open_page, alice, bob):
    """A move kind with many choices is a list: the one chosen, not the
    first, is the move made, and the log shows the command its label named."""
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    page = open_page(first_to_act(game, [alice, bob]))
    page.goto(game_url(game))
    form = page.locator(".moves form[data-action]:has(select)").first
    options = form.locator("option")
    last = options.nth(options.count() - 1)
    value = last.get_attribute("value")
    form.locator("select").select_option(value)
    form.locator("button").click()

    expect(page.locator(".messages")).to_contain_text("Move made.")
    # The log tells the move made, in the title's words, with the mover's name.
    engine, mover = base.get(SHORTEST), min(game.to_act)
    told = engine.narrate(json.loads(value), mover, ["alice", "bob"])
    expect(page.locator(".log-lines li").first).to_contain_text(told)
    assert seq(page) == game.seq + 1


def test_a_stale_tab_says_the_game_moved_on_and_shows_it_fresh(open_page, alice, bob):
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    player = first_to_act(game, [alice, bob])
    fresh = open_page(player)
    stale = fresh.context.new_page()  # a second tab: same player, same session
    # The stale tab must stay stale: its poll would otherwise fetch the
    # fresh game before we click in it.
    stale.route("**/live/**", lambda route: route.abort())
    fresh.goto(game_url(game))
    stale.goto(game_url(game))
    shown = seq(stale)

    now = move(fresh)
    stale.locator(".moves form[data-action] button").first.click()

    expect(stale.locator(".messages")).to_contain_text("has moved on")
    expect(stale.locator("#game")).to_have_attribute("data-seq", str(now))
    expect(stale.locator(".board-area")).to_be_visible()
    assert now > shown
    game.refresh_from_db()
    assert game.seq == now  # the stale click changed nothing


def test_replay_shows_the_board_as_it_was_at_an_earlier_seq(open_page, alice, bob):
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    pages = {"alice": open_page(alice), "bob": open_page(bob)}
    play(pages, game_url(game), until_seq=game.seq + 1)
    page = pages["alice"]
    page.goto(game_url(game))
    earlier, then = seq(page), board_html(page)
    play(pages, game_url(game), until_seq=earlier + 3)
    page.goto(game_url(game))
    head = seq(page)
    assert board_html(page) != then

    page.click(f".log-lines a[href$='?at={earlier}']")
    expect(page.locator(".board-area")).to_have_attribute("aria-label", f"Board at seq {earlier}")
    assert board_html(page) == then
    expect(page.locator(".moves")).to_have_count(0)  # no moves from the past

    # The slider: htmx fetches the game at the chosen seq and puts it in the URL.
    page.locator("#replay-at").fill("1")
    expect(page.locator(".board-area")).to_have_attribute("aria-label", "Board at seq 1")
    expect(page).to_have_url(f"{game_url(game)}?at=1")
    expect(page.locator("output[for=replay-at]")).to_have_text(f"1 / {head}")

    page.click(".board-area .notice a")  # back to now
    expect(page.locator(".board-area")).to_have_attribute("aria-label", "Board")
    assert seq(page) == head


def test_a_spectator_sees_the_board_and_no_move_forms(open_page, alice, bob, carol):
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7, public=True)
    page = open_page(carol)
    page.goto(game_url(game))
    expect(page.locator(".board-area")).to_be_visible()
    expect(page.locator("form[data-action]")).to_have_count(0)
    expect(page.locator(".players")).not_to_contain_text("(you)")


def test_the_page_follows_the_game_without_a_reload(open_page, alice, bob):
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    players = {"alice": alice, "bob": bob}
    mover_name = next(n for n, u in players.items() if u == first_to_act(game, [alice, bob]))
    watcher_name = next(n for n in players if n != mover_name)
    mover, watcher = open_page(players[mover_name]), open_page(players[watcher_name])
    mover.goto(game_url(game))
    watcher.goto(game_url(game))
    watcher.evaluate("window.notReloaded = true")

    now = move(mover)

    watcher.wait_for_function(
        "now => Number(document.querySelector('#game').dataset.seq) === now",
        arg=now,
        timeout=LIVE_POLL_WAIT_MS,
    )
    assert watcher.evaluate("window.notReloaded === true")


def test_the_api_docs_render_their_operations_offline(open_page, live_server):
    page = open_page()
    blocked: list[str] = []

    def only_this_server(route):
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.goto("/api/docs/")
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() > 10
    page.goto("/api/redoc/")
    operations = page.locator("[data-section-id^='operation/']")
    # ReDoc lays out the whole schema in the browser before it shows any
    # operation: seconds on a busy two-core machine, beyond expect's 5 s.
    expect(operations.first).to_be_attached(timeout=30_000)
    assert operations.count() > 10
    assert blocked == []  # nothing even tried to reach a CDN


@pytest.mark.parametrize("title", BOARDS)
def test_each_board_at_desktop_and_phone_width(open_page, screenshots, alice, bob, title):
    """Screenshots for a person to look at (var/screenshots/), and on a
    phone the moves are reachable without scrolling sideways."""
    game = do_create_game(title=title, players=[alice, bob], seed=7)
    player = first_to_act(game, [alice, bob])

    desktop = open_page(player)
    desktop.goto(game_url(game))
    expect(desktop.locator(".board-area")).to_be_visible()
    desktop.screenshot(path=screenshots / f"{title}-desktop.png", full_page=True)

    phone = open_page(player, viewport=PHONE)
    phone.goto(game_url(game))
    expect(phone.locator(".board-area")).to_be_visible()
    phone.screenshot(path=screenshots / f"{title}-phone.png", full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.evaluate("window.innerWidth"), f"the page scrolls sideways ({width}px)"
    buttons = phone.locator(".moves form[data-action] button")
    assert buttons.count() > 0
    for button in buttons.all():
        box = button.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], button.inner_text()


def sign_up(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", "a long new password 7")
    page.fill("input[name=password2]", "a long new password 7")
    page.click("form.account-form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Your games")
    expect(page.locator("header.site nav")).to_contain_text(username)


def test_two_people_sign_up_and_play_a_game_to_its_end(open_page):
    """From the welcome page: two sign-ups, they meet in the lobby (one
    opens a table, the other takes its last seat), then play from both
    sides until the game ends."""
    bea, cai = open_page(), open_page()
    sign_up(cai, "cai")
    sign_up(bea, "bea")
    url = meet_in_the_lobby(bea, cai, SHORTEST, "bea")
    play({"bea": bea, "cai": cai}, url)
    for page in (bea, cai):
        page.goto(url)
        expect(page.locator(".status")).to_have_attribute("data-status", "finished")
        expect(page.locator(".result")).to_contain_text("Ended by")
    cai.goto("/")
    expect(cai.locator("table.games")).to_contain_text("finished")


def test_a_moderator_undoes_a_move_and_the_players_page_follows(open_page, alice, bob, mo):
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    pages = {"alice": open_page(alice), "bob": open_page(bob)}
    play(pages, game_url(game), until_seq=3)
    watcher = pages["alice"]
    watcher.goto(game_url(game))
    head = seq(watcher)

    moderator = open_page(mo)
    moderator.goto(game_url(game))
    moderator.get_by_role("link", name="Moderate this game").click()
    expect(moderator.locator(".chain")).to_have_attribute("data-valid", "true")
    moderator.fill("#to_seq", "1")
    moderator.fill("#undo-reason", "a misclick, agreed by mail")
    moderator.click("form[data-action=undo] button")
    expect(moderator.locator(".messages")).to_contain_text("Undone back to seq 1.")
    expect(moderator.locator("tr.inert")).to_have_count(head - 1)

    # The player's open page picks the undo up by itself, and its log says why.
    watcher.wait_for_function(
        "head => Number(document.querySelector('#game').dataset.seq) > head",
        arg=head,
        timeout=LIVE_POLL_WAIT_MS,
    )
    expect(watcher.locator(".log-lines li").first).to_contain_text("a misclick, agreed by mail")


def test_a_move_is_made_from_the_keyboard_alone(open_page, alice, bob):
    """Skip link first, then Tab reaches a move and Enter sends it; every
    field on the game page and the dashboard has a label."""
    game = do_create_game(title=SHORTEST, players=[alice, bob], seed=7)
    page = open_page(first_to_act(game, [alice, bob]))
    page.goto(game_url(game))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('.moves form[data-action]')"):
            break
    else:
        pytest.fail("no move can be reached with Tab")
    if page.evaluate("document.activeElement.tagName") == "SELECT":
        page.keyboard.press("Tab")  # from the list to its Send button
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Move made.")
    for path in (game_url(game), "/"):
        page.goto(path)
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll('input, select, textarea')]
                .filter(el => el.type !== 'hidden' && !el.labels.length
                        && !el.getAttribute('aria-label'))
                .map(el => el.name || el.id)"""
        )
        assert unlabelled == [], (path, unlabelled)
