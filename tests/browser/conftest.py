"""Browser fixtures: Debian's Chromium driven by Playwright against the live server.

One browser for the whole session (starting Chromium costs about a second),
a fresh context, with its own cookies, for every page a test opens: alice and
bob in one test are two contexts, as they would be two machines.  We never
download a browser build: the tests drive /usr/bin/chromium, which `.ci/run`
installs from Debian when it is missing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import IN_CI

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "correct horse 42"  # tests.conftest.make_user's
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Long enough for a slow CI machine, short enough that a missing element
# fails the test in seconds rather than minutes.
TIMEOUT_MS = 10_000


def pytest_runtest_setup(item):
    if item.get_closest_marker("browser") and not CHROMIUM.exists():
        message = f"needs Chromium at {CHROMIUM}: apt-get install chromium"
        if IN_CI:
            pytest.fail(f"CI=true but there is no browser; {message}")
        pytest.skip(message)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps its asyncio loop running in this thread, so
    # Django takes the tests' own ORM calls (the user fixtures, the flush
    # between tests) for calls from async code and refuses them.  They are
    # plain sequential calls; the pages themselves are served by the live
    # server's own thread, which has no loop.  The loop runs until the
    # session ends, so tests run after these need the setting as well.
    unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=["--headless=new", "--no-sandbox"], headless=True
    )
    yield chromium
    chromium.close()
    playwright.stop()
    if unsafe is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = unsafe


@pytest.fixture
def open_page(browser, live_server, transactional_db):
    """open_page(alice): a page in a fresh context, logged in through the
    login form (None: a visitor).  A script error, or anything our
    Content-Security-Policy blocks, on any page fails the test."""
    contexts = []
    errors: list[str] = []

    def opener(user=None, viewport=DESKTOP):
        context = browser.new_context(base_url=live_server.url, viewport=viewport)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        # Our pages' Content-Security-Policy must never have to block one of
        # our own scripts or styles: the browser reports that on the console.
        # (ReDoc's policy blocks its Redocly logo on purpose: config/docs.py.)
        page.on("console", lambda msg: blocked_by_policy(page, msg, errors))
        if user is not None:
            log_in(page, user.username)
        return page

    yield opener
    for context in contexts:
        context.close()
    assert not errors, f"script errors on the pages: {errors}"


def blocked_by_policy(page, message, errors: list[str]) -> None:
    if "Content Security Policy" in message.text and "/api/" not in page.url:
        errors.append(f"{page.url}: {message.text}")


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    # Logged in, the site's header names the user (a refusal stays on the form).
    expect(page.locator("header.site nav")).to_contain_text(username)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def docs_screenshots(screenshots) -> Path:
    """Where the screenshots the docs show are written: docs/screenshots/
    with UPDATE_SCREENSHOTS=1, else var/screenshots/ beside the others, so
    that a test run leaves the checkout as it found it (a PNG differs by a
    few bytes every time it is taken)."""
    if os.environ.get("UPDATE_SCREENSHOTS") != "1":
        return screenshots
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return DOCS_SCREENSHOTS


def meet_in_the_lobby(host, guest, title: str, host_name: str) -> str:
    """The host opens a two-seat table from the dashboard's form, the guest
    takes the free seat from the lobby, and the seat that fills the table
    starts the game: the guest lands on it, the host's table page (polling)
    links to it.  Both pages end on the game; its path is returned."""
    host.goto("/")
    host.select_option("#title", title)
    host.fill("#min_seats", "2")
    host.fill("#max_seats", "2")
    host.select_option("#seat_order", "joined")
    host.click("form.new-game button[type=submit]")
    host.wait_for_url("**/tables/*/")
    expect(host.locator("#table .status")).to_contain_text("Waiting for players")
    table_path = host.url.split("/tables/")[1]
    guest.goto("/tables/")
    row = guest.locator(f"tr[data-table='{table_path.strip('/')}']")
    expect(row).to_contain_text(host_name)
    row.get_by_role("button", name="Take a seat").click()
    guest.wait_for_url("**/games/*/")
    path = "/games/" + guest.url.split("/games/")[1]
    link = host.get_by_role("link", name="go to the game")
    link.wait_for(timeout=8_000)  # the table page polls every 5 s
    link.click()
    host.wait_for_url("**" + path)
    return path
