"""Server push in a real browser, against gunicorn with uvicorn's workers on
config.asgi (the push process's kind) and the real Redis: two players in two
contexts; a move in one page shows in the other within moments, with no
poll in between, and the mover's page answers the move as their move."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from playwright.sync_api import expect

from games.services.creation import do_create_game
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_play_in_browser import first_to_act, move, seq
from tests.support.server import web_server

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
IDLE_SECONDS = 7  # longer than the 5 s poll


def test_a_move_shows_in_the_other_page_at_once_without_a_poll(browser, tmp_path, alice, bob):
    game = do_create_game(title="pointcity", players=[alice, bob], seed=7)
    mover_user = first_to_act(game, [alice, bob])
    watcher_user = bob if mover_user == alice else alice
    with web_server(tmp_path, push=True) as web:
        pages = {}
        for user in (mover_user, watcher_user):
            context = browser.new_context(base_url=f"http://127.0.0.1:{web.port}")
            context.set_default_timeout(TIMEOUT_MS)
            # A session made here (the server's password hashers are not the
            # tests' fast ones, so its log-in form would refuse them).
            client = Client()
            client.force_login(user)
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": f"http://127.0.0.1:{web.port}"}])  # fmt: skip
            page = context.new_page()
            page.goto(f"/games/{game.pk}/")
            pages[user.username] = page
        mover, watcher = pages[mover_user.username], pages[watcher_user.username]
        polls: list[float] = []
        watcher.on("request", lambda r: polls.append(time.monotonic()) if "/live/" in r.url
                   else None)  # fmt: skip
        watcher.evaluate("window.notReloaded = true")
        time.sleep(IDLE_SECONDS)  # the stream is open: no poll while nobody moves
        assert polls == [], "the page polled although its stream was open"

        started = time.monotonic()
        now = move(mover)
        watcher.wait_for_function(
            "now => Number(document.querySelector('#game').dataset.seq) === now", arg=now,
            timeout=3000,
        )  # fmt: skip
        shown_after = time.monotonic() - started
        assert shown_after < 2.0, shown_after
        assert watcher.evaluate("window.notReloaded === true")
        assert len(polls) == 1  # the one fetch the push asked for
        # The mover's page answers the move as theirs, not as "the game moved on".
        expect(mover.locator("#game .messages")).to_contain_text("Move made.")
        assert seq(mover) == now
        for page in pages.values():
            page.context.close()
