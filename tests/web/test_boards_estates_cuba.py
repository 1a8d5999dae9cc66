"""The boards of The Estates and 18Cuba, drawn from the engine's view for a seat."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import boards
from games.engines.cuba.play.randomgame import ENGINE as CUBA
from games.engines.cuba.play.randomgame import choose
from games.engines.estates.engine import EstatesEngine
from games.services.creation import do_create_game

ESTATES = EstatesEngine()
NAMES = {0: "alice", 1: "bob", 2: "carol"}


def advance(engine, state, moves: int, seed: int, policy=None):
    """`moves` random legal moves (fewer if the game ends), through the engine."""
    rng = random.Random(seed)
    pick = policy or (lambda r, legal: r.choice(legal))
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, pick(rng, engine.legal_actions(state, seat)))
    return state


def svg_of(html: str) -> ET.Element:
    found = re.search(r"<svg\b.*?</svg>", html, re.S)
    assert found, "the board has no svg"
    root = ET.fromstring(found.group(0))
    assert root.get("viewBox") and root.get("role") == "img"
    title_id = root.get("aria-labelledby", "").split()[0]
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{ns}title").get("id") == title_id
    return root


def estates_state(moves: int, seed: int = 3):
    return advance(ESTATES, ESTATES.setup(3, {}, seed), moves, seed)


def cuba_state(moves: int, seed: int = 3, players: int = 3, options=None):
    return advance(CUBA, CUBA.setup(players, options or {}, seed), moves, seed, choose)


@pytest.mark.parametrize("moves", [0, 7, 30, 90])
@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_the_estates_board_draws_what_the_view_holds(moves, seat):
    view = ESTATES.view(estates_state(moves), seat)
    html = boards.render("estates", view, seat, NAMES)
    svg_of(html)
    for name in NAMES.values():
        assert name in html
    drawn_lots = re.findall(r'data-lot="([a-c]\d+)"', html)
    assert drawn_lots == [lot["lot"] for row in view["board"] for lot in row["lots"]]
    cubes_on_board = sum(len(lot["floors"]) for row in view["board"] for lot in row["lots"])
    cubes_shown = sum(len(row) for row in view["display"])
    assert html.count('class="cube cube-') == cubes_on_board + cubes_shown
    assert f"Roofs left: {view['roofs_left']}" in html
    roofs = sum(lot["roof"] is not None for row in view["board"] for lot in row["lots"])
    assert html.count('<polygon class="roof"') == roofs
    assert html.count('<g class="permit">') == sum(bool(row["permits"]) for row in view["board"])
    assert ('<g class="mayor">' in html) == (view["mayor"] is not None)
    if seat is not None:
        mine = re.search(rf'data-seat="{seat}" class="you">.*?</tr>', html, re.S)
        assert mine and f"{view['you']['cheques']}" in mine.group(0)
    if view["auction"] is not None and view["auction"]["high_bidder"] is not None:
        assert f"Highest bid: <strong>{view['auction']['high']}</strong>" in html
        assert NAMES[view["auction"]["high_bidder"]] in html


def test_the_estates_auction_shows_the_leading_bid():
    state = estates_state(0)
    for _ in range(50):  # until someone bids
        auction = state["auction"]
        if auction and auction["high_bidder"] is not None:
            break
        seat = min(ESTATES.to_act(state))
        legal = ESTATES.legal_actions(state, seat)
        bids = [a for a in legal if a["type"] == "bid"]
        state = ESTATES.apply(state, seat, bids[0] if bids else legal[0])
    view = ESTATES.view(state, None)
    assert view["auction"]["high_bidder"] is not None
    html = boards.render("estates", view, None, NAMES)
    leader = NAMES[view["auction"]["high_bidder"]]
    high = view["auction"]["high"]
    assert f"Highest bid: <strong>{high}</strong> by <strong>{leader}</strong>" in html


def test_another_players_cheques_never_reach_the_board():
    state = estates_state(12)
    state["money"][1] = 987654
    state["stash"][1] = 8765
    for seat in (0, 2, None):
        html = boards.render("estates", ESTATES.view(state, seat), seat, NAMES)
        assert "987654" not in html and "8765" not in html
        bob = re.search(r'data-seat="1">.*?</tr>', html, re.S)
        assert bob and ">hidden<" in bob.group(0)
    own = boards.render("estates", ESTATES.view(state, 1), 1, NAMES)
    assert "987654" in own and "8765 stashed" in own


def test_at_the_end_every_players_cheques_are_open():
    state = estates_state(2000, seed=5)  # plays to the end
    assert ESTATES.is_over(state)
    view = ESTATES.view(state, None)
    html = boards.render("estates", view, None, NAMES)
    assert ">hidden<" not in html
    for s, cheques in enumerate(view["cheques"]):
        row = re.search(rf'data-seat="{s}">.*?</tr>', html, re.S)
        assert row and f"<td>{cheques}</td>" in row.group(0)


# slow at 400: the position is played to, a long walk
@pytest.mark.parametrize("moves", [0, 40, pytest.param(400, marks=pytest.mark.slow)])
@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_the_18cuba_board_draws_the_map_and_the_holdings(moves, seat):
    view = CUBA.view(cuba_state(moves), seat)
    html = boards.render("18cuba", view, seat, NAMES)
    svg = svg_of(html)
    for name in NAMES.values():
        assert name in html
    hexes = view["map"]["hexes"]
    assert re.findall(r'data-hex="(\w+)"', html) == [h["hex"] for h in hexes]
    tracks = sum(len(h["track"]) for h in hexes)
    assert len(re.findall(r'class="track (?:standard|narrow)"', html)) == tracks
    # every station token of the view, drawn with its company's letters
    ns = "{http://www.w3.org/2000/svg}"
    drawn = sorted(t.text for t in svg.iter(f"{ns}text") if t.get("class") == "token")
    placed = sorted(
        tok for h in hexes for s in h["stops"] if s["type"] == "city" for tok in s["tokens"]
    )
    assert drawn == placed
    for p in view["players"]:
        row = re.search(rf'data-seat="{p["seat"]}"[^>]*>.*?</tr>', html, re.S)
        assert row and f"<td>{p['cash']}</td>" in row.group(0)
    # each company's charter once it has a president or a par price (the FC
    # from the start), with its treasury; the rest are listed as not started
    for sym, c in view["companies"].items():
        charter = re.search(rf'<article [^>]*data-company="{sym}"[^>]*>.*?</article>', html, re.S)
        if c["director"] is None and c["par"] is None and c["kind"] != "fc":
            assert charter is None and f'<abbr title="{c["name"]}">{sym}</abbr>' in html
        else:
            assert charter and f"<dt>Treasury</dt><dd>${c['treasury']}</dd>" in charter.group(0)
    assert f"Bank: {view['bank']}." in html


def test_18cuba_narrow_gauge_is_drawn_apart_and_the_part_left_out_is_muted():
    view = CUBA.view(cuba_state(0, players=2, options={"map_part": "west"}), 0)
    assert any(t["gauge"] == "narrow" for h in view["map"]["hexes"] for t in h["track"])
    html = boards.render("18cuba", view, 0, NAMES)
    assert 'class="track narrow"' in html and 'class="track standard"' in html
    out = sum(not h["in_play"] for h in view["map"]["hexes"])
    assert out and len(re.findall(r'class="hex [^"]* out"', html)) == out


@pytest.mark.parametrize("title", ["estates", "18cuba"])
def test_the_game_page_draws_the_board(page_as, alice, bob, carol, title):
    game = do_create_game(title=title, players=[alice, bob, carol], seed=7)
    for user in (alice, None):
        response = page_as(user).get(f"/games/{game.pk}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert "<svg" in html and f"board-{'cuba' if title == '18cuba' else title}" in html
        svg_of(html)
