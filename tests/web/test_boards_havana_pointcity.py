"""The Havana and Point City boards: drawn from the view alone, valid SVG, the
players' names and numbers on them, nothing the view hides."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import boards
from games.engines import base
from games.services.creation import do_create_game

NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave"}
XMLNS = "{http://www.w3.org/2000/svg}"
SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def played(title: str, players: int, seed: int, moves: int):
    """A game advanced by random legal moves, seeded so it is the same every run."""
    engine = base.get(title)
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return engine, state


def draw(title: str, engine, state, seat: int | None) -> str:
    names = {i: NAMES[i] for i in range(state["players"])}
    return str(boards.render(title, engine.view(state, seat), seat, names))


def svg_parts(html: str) -> list[ET.Element]:
    parts = SVG.findall(html)
    assert parts, "the board has no SVG"
    return [ET.fromstring(part) for part in parts]


def panel(html: str, seat: int) -> str:
    found = re.search(
        rf'<section class="seat-panel[^"]*" data-seat="{seat}".*?</section>', html, re.S
    )
    assert found, f"no panel for seat {seat}"
    return found.group(0)


CASES = [
    (title, players, seed, moves)
    for title in ("havana", "pointcity")
    for players, seed, moves in ((2, 3, 0), (2, 11, 45), (3, 5, 30), (4, 8, 60))
]


@pytest.mark.parametrize(("title", "players", "seed", "moves"), CASES)
def test_every_seat_and_a_spectator_get_a_valid_board_with_names_and_numbers(
    title, players, seed, moves
):
    engine, state = played(title, players, seed, moves)
    for seat in [*range(players), None]:
        view = engine.view(state, seat)
        html = draw(title, engine, state, seat)
        main = svg_parts(html)[0]
        assert main.get("viewBox") and main.get("role") == "img"
        assert main.find(f"{XMLNS}title").text
        for index in range(players):
            assert NAMES[index] in panel(html, index)
        if title == "havana":
            for s in view["seats"]:
                assert f'data-pesos="{s["pesos"]}"' in panel(html, s["seat"])
                assert f'data-vp="{s["vp"]}"' in panel(html, s["seat"])
            assert f'data-centre-pesos="{view["centre"]["pesos"]}"' in html
            for bid in (b for row in view["rows"] for b in row):
                assert f'data-building="{bid}"' in html
        else:
            for s in view["seats"]:
                assert f'data-score="{s["score"]["total"]}"' in panel(html, s["seat"])
            assert f'data-pile="{view["pile"]["count"]}"' in html
            assert html.count('class="space ') == 16


def test_the_svg_has_no_fixed_size_and_names_its_text_alternative():
    for title in ("havana", "pointcity"):
        engine, state = played(title, 2, 3, 10)
        main = svg_parts(draw(title, engine, state, 0))[0]
        assert main.get("width") in (None, "100%") and main.get("height") is None
        labelled = main.get("aria-labelledby").split()
        ids = {el.get("id") for el in main.iter() if el.get("id")}
        assert set(labelled) <= ids


def havana_after_first_choice(cards: list[str]):
    """A fresh 2-player Havana in which seat 0 has chosen face down, seat 1 not yet."""
    engine = base.get("havana")
    state = engine.setup(2, {}, 3)
    return engine, engine.apply(state, 0, {"type": "choose", "cards": cards})


def test_havana_shows_a_face_down_choice_only_to_its_owner():
    engine, state = havana_after_first_choice(["0", "7"])
    own = draw("havana", engine, state, 0)
    assert "Your face-down choice: 0 Siesta and 7 Black Market" in own
    for seat in (1, None):
        html = draw("havana", engine, state, seat)
        assert "face-down choice" not in html and "data-choice" not in html
        assert "Has chosen (face down)." in panel(html, 0)
        assert "Still choosing." in panel(html, 1)


def test_havana_board_for_another_seat_does_not_depend_on_a_hidden_choice():
    engine, first = havana_after_first_choice(["0", "7"])
    _, second = havana_after_first_choice(["8", "9"])
    for seat in (1, None):
        assert draw("havana", engine, first, seat) == draw("havana", engine, second, seat)
    assert draw("havana", engine, first, 0) != draw("havana", engine, second, 0)


@pytest.mark.parametrize("title", ["havana", "pointcity"])
def test_the_pile_order_and_the_bag_order_never_reach_the_board(title):
    engine, state = played(title, 3, 5, 30)
    shuffled = engine.copy_state(state)
    # Only hidden data differ: the pile below its top card (and Havana's bag).
    shuffled["pile"] = [*state["pile"][:1], *reversed(state["pile"][1:])]
    if title == "havana":
        shuffled["bag"] = list(reversed(state["bag"]))
    assert shuffled["pile"] != state["pile"]
    for seat in (0, 1, None):
        assert draw(title, engine, state, seat) == draw(title, engine, shuffled, seat)


def test_havana_never_names_a_building_still_in_the_pile():
    engine, state = played("havana", 2, 11, 45)
    html = draw("havana", engine, state, 1)
    assert state["pile"]
    for bid in state["pile"]:
        assert not re.search(rf"\bB{bid}\b", html)
        assert f'data-building="{bid}"' not in html


def test_point_city_solo_board_shows_the_opponent():
    engine, state = played("pointcity", 1, 4, 12)
    html = draw("pointcity", engine, state, 0)
    svg_parts(html)
    opponent = engine.view(state, 0)["opponent"]
    assert 'data-seat="opponent"' in html
    assert " and ".join(opponent["next_spaces"]) in html
    assert html.count('class="marker"') == len(opponent["next_spaces"])


@pytest.mark.parametrize(
    ("title", "over"), [("havana", "game over"), ("pointcity", "game is over")]
)
def test_a_finished_game_still_draws(title, over):
    engine, state = played(title, 2, 2, 3000)
    assert engine.is_over(state)
    for seat in (0, 1, None):
        html = draw(title, engine, state, seat)
        svg_parts(html)
        assert over in html


@pytest.mark.parametrize("title", ["havana", "pointcity"])
def test_the_game_page_draws_the_board(page_as, alice, bob, title):
    game = do_create_game(title=title, players=[alice, bob], seed=7)
    for user in (alice, bob):
        response = page_as(user).get(f"/games/{game.pk}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert f"board-{title}" in html and "<svg" in html
        svg_parts(html)


def test_havana_writes_the_number_two_face_up_cards_make():
    engine, state = havana_after_first_choice(["0", "7"])
    state = engine.apply(state, 1, {"type": "choose", "cards": ["8", "9"]})
    html = draw("havana", engine, state, None)
    assert "0 Siesta, 7 Black Market (number 07)" in panel(html, 0)
    assert "8 Pesos, 9 Mama (number 89)" in panel(html, 1)
