"""Point City in a mail: describe, narrate, gloss and move_group.

Golden texts of two fixed seeded games are compared exactly, in English
and in German (set UPDATE_GOLDEN=1 to write them again, then read the diff);
random playouts hold every line to the mail's limits in both languages;
hidden cards never change a word.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from games.engines.base import clone
from games.engines.pointcity import ENGINE
from games.engines.pointcity.data import CARDS
from games.engines.pointcity.describe import kind_name
from games.engines.pointcity.market import BUILDING, INDEX

from .helpers import ALICE, act, new_game, seat_to_act
from .test_view import scramble_hidden

GOLDEN = Path(__file__).with_name("golden_describe")
NAMES = ("alice", "bob", "carol", "dave")
RAW = ("{", "}", '":', "True", "False", "None", "true", "false", "_")
LANGUAGES = ("en", "de")
# The golden files' own scaffolding (not the title's words).
OTHER_MOVES = {"en": "Other moves", "de": "Andere Züge"}


def play(players: int, seed: int, steps: int | None = None) -> list[dict[str, Any]]:
    """The states of a seeded random game, from the setup to `steps` moves
    (the end when None)."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, {}, seed)
    states = [state]
    while not ENGINE.is_over(state) and (steps is None or len(states) <= steps):
        seat = seat_to_act(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        states.append(state)
    return states


def viewers(state: dict[str, Any]) -> list[int | None]:
    return [*range(len(state["seats"])), None]


def describe(state: dict[str, Any], seat: int | None, language: str = "en") -> list[str]:
    names = NAMES[: len(state["seats"])]
    return ENGINE.describe(ENGINE.view(state, seat), seat, names, language=language)


def moves(state: dict[str, Any], language: str = "en") -> list[str]:
    """The moves as a mail lists them: under their headings (in the order a
    heading first comes up), each with its gloss."""
    if ENGINE.is_over(state):
        return []
    seat = seat_to_act(state)
    groups: dict[str, list[str]] = {}
    for action in ENGINE.legal_actions(state, seat):
        group = ENGINE.move_group(state, seat, action, language=language)
        group = group or OTHER_MOVES[language]
        gloss = ENGINE.gloss(state, seat, action, language=language)
        line = f"  {ENGINE.text(action)}" + (f"  ({gloss})" if gloss else "")
        groups.setdefault(group, []).append(line)
    return [line for group, lines in groups.items() for line in (f"{group}:", *lines)]


def render(states: list[dict[str, Any]], at: int, language: str = "en") -> str:
    state = states[at]
    out = []
    for seat in viewers(state):
        who = "spectator" if seat is None else NAMES[seat]
        out += [f"=== describe for {who}", *describe(state, seat, language)]
    out += ["=== moves", *moves(state, language)]
    return "\n".join(out) + "\n"


def positions(players: int, seed: int) -> dict[str, int]:
    states = play(players, seed)
    civic = next((i for i, s in enumerate(states) if s["phase"] == "civic"), len(states) // 2)
    return {"start": 0, "civic": civic, "mid": len(states) // 2, "end": len(states) - 1}


GAMES = {"solo": (1, 3), "three": (3, 7)}
CASES = [(game, where) for game in GAMES for where in ("start", "civic", "mid", "end")]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "where"), CASES)
def test_golden_texts(game: str, where: str, language: str) -> None:
    """English in golden_describe/, every other language in its own folder."""
    players, seed = GAMES[game]
    states = play(players, seed)
    text = render(states, positions(players, seed)[where], language)
    folder = GOLDEN if language == "en" else GOLDEN / language
    path = folder / f"{game}_{where}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def check_lines(lines: list[str], limit: int = 72) -> None:
    for line in lines:
        assert len(line) <= limit, line
        assert not any(token in line for token in RAW), line


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_read_cleanly(players: int, language: str) -> None:
    for seed in range(3):
        states = play(players, 100 + seed)
        for i, state in enumerate(states):
            if i % 3 and i != len(states) - 1:
                continue
            names = NAMES[:players]
            for seat in viewers(state):
                lines = describe(state, seat, language)
                check_lines(lines)
                text = "\n".join(lines)
                assert all(name in text for name in names)
            if ENGINE.is_over(state):
                continue
            seat = seat_to_act(state)
            for action in ENGINE.legal_actions(state, seat):
                check_lines([ENGINE.narrate(action, seat, names, language=language)])
                gloss = ENGINE.gloss(state, seat, action, language=language)
                if gloss is not None:
                    check_lines([gloss], limit=50)
                group = ENGINE.move_group(state, seat, action, language=language)
                if group is not None:
                    check_lines([group], limit=30)


def vary(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same game as far as anyone sees: unseen cards shuffled, and market
    cards swapped for unseen cards with the same face up (so their hidden
    building side differs)."""
    other = scramble_hidden(state, rng.randrange(1000))
    unseen = [(other["pile"], i) for i in range(1, len(other["pile"]))]
    unseen += [(other["removed"], i) for i in range(len(other["removed"]))]
    for slot_index, slot in enumerate(other["market"]):
        if slot is None or slot["side"] == BUILDING:
            continue
        face = CARDS[slot["card"]].stock_kind
        same = [(w, i) for w, i in unseen if CARDS[w[i]].stock_kind == face]
        if same:
            where, i = rng.choice(same)
            where[i], card = slot["card"], where[i]
            other["market"][slot_index] = {"card": card, "side": slot["side"]}
    return other


def test_hidden_cards_never_change_describe_or_gloss() -> None:
    rng = random.Random(5)
    changed = 0
    for players, seed in ((1, 11), (2, 12), (3, 13)):
        for state in play(players, seed)[::7]:
            other = vary(state, rng)
            changed += other["market"] != state["market"]
            for seat in viewers(state):
                assert describe(other, seat) == describe(state, seat)
            assert moves(other) == moves(state)
    assert changed  # the variation did swap market cards


def test_describe_shows_mine_first_then_the_market_then_the_others() -> None:
    state = act(new_game(3, seed=5), ALICE, "draw")
    lines = describe(state, 1)
    starts = [
        next(i for i, line in enumerate(lines) if line.startswith(p))
        for p in ("bob (you):", "Market", "Pile:", "Civic tokens", "carol:", "alice:")
    ]
    assert starts == sorted(starts)
    assert lines[0] == "bob to play."


def test_a_flip_is_glossed_without_its_hidden_building() -> None:
    state = new_game(2, seed=5)
    card = CARDS[state["market"][INDEX["a1"]]["card"]]
    gloss = ENGINE.gloss(state, ALICE, {"type": "flip", "space": "a1"})
    assert gloss == f"{kind_name(card.stock_kind)} card; its building is unseen"
    assert card.name not in gloss
    flipped = ENGINE.apply(state, ALICE, {"type": "flip", "space": "a1"})
    assert any(card.name in line for line in describe(flipped, 1))


def test_a_take_is_glossed_with_what_it_gets_and_grouped_by_row() -> None:
    state = new_game(2, seed=5)
    take = {"type": "take", "spaces": ["a1", "b1"], "pay": []}
    faces = [CARDS[state["market"][i]["card"]].stock_kind for i in (0, 1)]
    expected = " + ".join(kind_name(face) for face in faces)
    assert ENGINE.gloss(state, ALICE, take) == expected
    assert ENGINE.move_group(state, ALICE, take) == "Take from row 1"
    down = {"type": "take", "spaces": ["a1", "a2"], "pay": []}
    assert ENGINE.move_group(state, ALICE, down) == "Take from rows 1-2"


def test_narrate_names_the_player_and_what_they_did() -> None:
    names = ("alice", "bob")
    assert ENGINE.narrate({"type": "draw"}, 1, names) == "bob draws the top two cards of the pile"
    take = {"type": "take", "spaces": ["a2", "a3"], "pay": ["energy2", "ingenuity"]}
    assert ENGINE.narrate(take, 0, names) == (
        "alice takes a2 and a3, paying double energy, ingenuity"
    )
    assert ENGINE.narrate({"type": "civic", "token": 8}, 0, names) == (
        "alice takes civic token 8 (2 per economy)"
    )
    assert ENGINE.narrate({"type": "flip", "space": "b3"}, 1, names) == (
        "bob flips b3 to its building side"
    )


def test_narrate_holds_only_what_the_public_action_holds() -> None:
    # No Point City action is redacted; a flip's narration cannot name the
    # building it turns up because the action does not hold it.
    state = new_game(2, seed=5)
    for action in ENGINE.legal_actions(state, ALICE):
        assert ENGINE.public_action(state, ALICE, action) is None
    flip = {"type": "flip", "space": "a1"}
    hidden = CARDS[state["market"][0]["card"]].name
    assert hidden not in ENGINE.narrate(flip, ALICE, NAMES)
    assert ENGINE.narrate({"type": "take"}, 0, NAMES) == "alice takes two market cards"
    assert ENGINE.narrate({"type": "civic"}, 0, NAMES) == "alice takes a civic token"


def test_a_spectator_sees_every_seat_and_no_you() -> None:
    state = clone(new_game(3, seed=5))
    lines = describe(state, None)
    assert not any("(you)" in line for line in lines)
    assert [line.split(":")[0] for line in lines if line[:1].islower() and ":" in line][:3] == [
        "alice",
        "bob",
        "carol",
    ]


def test_a_seat_that_left_reads_so() -> None:
    state = ENGINE.resign(new_game(3, seed=5), 1)
    assert "bob: 0 points, 0 turns taken, left the game" in describe(state, 0)


def test_a_long_payment_is_narrated_within_the_width() -> None:
    pay = ["community", "community", "ecology", "community2", "ingenuity", "ingenuity"]
    take = {"type": "take", "spaces": ["c3", "d3"], "pay": pay}
    assert ENGINE.narrate(take, 0, NAMES) == (
        "alice takes c3 d3, paying 2 community, ecology, community2, 2 ingenuity"
    )
    pay = ["economy2", "economy2", "energy2", "ecology2", "industry2", "ingenuity", "ecology"]
    take = {"type": "take", "spaces": ["c3", "d3"], "pay": pay}
    assert ENGINE.narrate(take, 0, NAMES) == "alice takes c3 and d3, paying 7 cards"


def test_german_says_the_expected_words() -> None:
    """Known moves and a known position in German (``de-at`` reads the
    German catalogue too); card names and commands stay as printed."""
    names = ("alice", "bob")
    take = {"type": "take", "spaces": ["a2", "a3"], "pay": ["energy2", "ingenuity"]}
    said = {
        "draw": ENGINE.narrate({"type": "draw"}, 1, names, language="de"),
        "take": ENGINE.narrate(take, 0, names, language="de-at"),
        "civic": ENGINE.narrate({"type": "civic", "token": 8}, 0, names, language="de"),
        "flip": ENGINE.narrate({"type": "flip", "space": "b3"}, 1, names, language="de"),
    }
    assert said == {
        "draw": "bob zieht die obersten zwei Karten vom Stapel",
        "take": "alice nimmt a2 und a3 für Doppel-Energie, Erfindergeist",
        "civic": "alice nimmt Bürgerplättchen 8 (2 je Wirtschaft)",
        "flip": "bob dreht b3 auf die Gebäudeseite um",
    }
    state = new_game(2, seed=5)  # a1 community, b1 industry; the pile's top: energy
    take = {"type": "take", "spaces": ["a1", "b1"], "pay": []}
    flip = {"type": "flip", "space": "a1"}
    assert ENGINE.gloss(state, ALICE, take, language="de") == "Gemeinschaft + Industrie"
    assert ENGINE.move_group(state, ALICE, take, language="de") == "Aus Reihe 1 nehmen"
    assert ENGINE.gloss(state, ALICE, flip, language="de") == (
        "Gemeinschaft; Gebäudeseite noch verdeckt"
    )
    assert ENGINE.move_group(state, ALICE, flip, language="de") == "Karte umdrehen"
    assert ENGINE.gloss(state, ALICE, {"type": "draw"}, language="de") == (
        "oberste: Energie, dazu eine verdeckte"
    )
    lines = ENGINE.describe(ENGINE.view(state, 1), 1, names, language="de")
    assert lines[:4] == [
        "alice ist am Zug.",
        "bob (du): 0 Punkte, 0 Züge gespielt",
        "  Dauerhaft: noch nichts",
        "  Vorrat: Erfindergeist",
    ]
    assert "Markt (Spalten a-d, Reihe 1 oben; * ein Gebäude):" in lines
    left = ENGINE.resign(new_game(3, seed=5), 1)
    lines = ENGINE.describe(ENGINE.view(left, 0), 0, NAMES[:3], language="de")
    assert "bob: 0 Punkte, 0 Züge gespielt, hat die Partie verlassen" in lines
    # The English is unchanged by it.
    assert ENGINE.narrate({"type": "draw"}, 1, names) == "bob draws the top two cards of the pile"
