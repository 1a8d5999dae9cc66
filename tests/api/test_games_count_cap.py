"""The games list counts at most games.api.pagination.CAP games and says
`count_capped` past them (a count of every public game took half a second
at a million); its pages go on as far as the list does."""

from __future__ import annotations

import pytest

from games.api import pagination
from games.services.creation import do_create_game


@pytest.fixture
def five(alice, bob):
    return [
        do_create_game(title="duel", players=[alice, bob], options={"rounds": 2}, seed=n).pk
        for n in range(5)
    ]


def test_a_list_longer_than_the_cap_is_counted_to_the_cap_and_paged_to_its_end(
    as_, carol, five, monkeypatch
):
    monkeypatch.setattr(pagination, "CAP", 3)
    listed, url = [], "/api/games/?page_size=2"
    while url:
        page = as_(carol).get(url).json()
        assert (page["count"], page["count_capped"]) == (3, True)
        listed += [g["id"] for g in page["results"]]
        url = page["next"]
    assert listed == five[::-1]
    assert "page=3" in as_(carol).get("/api/games/?page_size=2&page=2").json()["next"]


def test_the_first_pages_links_and_a_page_past_the_end(as_, carol, five):
    first = as_(carol).get("/api/games/?page_size=2&page=2").json()["previous"]
    assert first.endswith("/api/games/?page_size=2")
    assert as_(carol).get("/api/games/?page_size=2&page=4").status_code == 404
    assert as_(carol).get("/api/games/?page_size=500").json()["results"] != []


def test_a_page_further_than_any_database_can_count_is_past_the_end(as_, carol, five):
    """Its offset is beyond a 64-bit integer: the database refused it (a 500)."""
    for page in (2**63 // 100, 2204183905366814464, 10**30):
        answer = as_(carol).get(f"/api/games/?page_size=100&page={page}")
        assert answer.status_code == 404, page


def test_a_list_within_the_cap_is_counted_exactly(as_, carol, five, monkeypatch):
    monkeypatch.setattr(pagination, "CAP", 5)
    page = as_(carol).get("/api/games/").json()
    assert (page["count"], page["count_capped"], len(page["results"])) == (5, False, 5)


def test_filters_count_what_they_let_through(as_, alice, carol, five, monkeypatch):
    monkeypatch.setattr(pagination, "CAP", 3)
    do_create_game(title="havana", players=[alice, carol], seed=1)
    page = as_(carol).get("/api/games/?title=havana").json()
    assert (page["count"], page["count_capped"]) == (1, False)
