"""The archive pages a long list without counting it: "Newer" and "Older",
one row read past the page to know whether an older page exists."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.services.creation import do_create_game
from web.paging import LAST_PAGE
from web.views.people import ARCHIVE_PAGE


@pytest.fixture
def running(alice, bob):
    """One game more than a page, the newest made last."""
    return [
        do_create_game(title="duel", players=[alice, bob], options={"rounds": 2}, seed=n).pk
        for n in range(ARCHIVE_PAGE + 2)
    ]


def listed(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-game="(\d+)"', html)]


def archive(query: str) -> str:
    response = Client().get(f"/games/archive/?status=active{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_first_page_holds_the_newest_and_links_only_older(running):
    page = archive("")
    assert listed(page) == running[::-1][:ARCHIVE_PAGE]
    assert "page=2" in page and ">Older<" in page and ">Newer<" not in page
    assert "Page 1</span>" in page and " of " not in page.split("Page 1")[1][:20]


def test_the_last_page_holds_the_rest_and_links_only_newer(running):
    page = archive("&page=2")
    assert listed(page) == running[::-1][ARCHIVE_PAGE:]
    assert ">Newer<" in page and ">Older<" not in page


@pytest.mark.parametrize("asked", ["abc", "0", "-3", str(LAST_PAGE + 1), "1e3", ""])
def test_a_page_number_that_is_not_one_shows_the_first_page(running, asked):
    assert listed(archive(f"&page={asked}")) == running[::-1][:ARCHIVE_PAGE]


def test_a_page_past_the_end_says_so_and_links_to_the_newest(running):
    page = archive("&page=9")
    assert listed(page) == []
    assert "No games this far back" in page and 'href="?&amp;status=active"' in page
