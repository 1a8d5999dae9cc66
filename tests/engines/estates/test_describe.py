"""The Estates in words: describe, narrate and gloss for the mails.

Golden texts pin a seeded game at a few positions; random playouts hold every
line to 72 characters without raw data; varying what a seat may not see
leaves its description unchanged.  UPDATE_GOLDEN=1 rewrites the golden files.
The German texts have their own goldens (golden_describe/de/) and playouts.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from games.engines.base import clone
from games.engines.estates import ENGINE

from .helpers import ALICE, BOB, CAROL, act, auction, build, new_game, own, passes, random_game

NAMES = ["alice", "bob", "carol", "dave", "erin"]
GOLDEN = Path(__file__).with_name("golden_describe")
RAW = ("{", "}", '":', "True", "False", "None", "true", "false", "_")

State = dict[str, Any]


def _seeded_positions() -> dict[str, State]:
    """A 4-player Neue Heimat game, a seeded random playout, at four points."""
    state = ENGINE.setup(4, {"edition": "neue-heimat", "rounds": 2}, 11)
    rng = random.Random(5)
    marks = {0: "start", 41: "auction", 140: "mid"}
    found: dict[str, State] = {}
    step = 0
    while not ENGINE.is_over(state):
        if step in marks:
            found[marks[step]] = state
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        step += 1
    found["end"] = state
    return found


def _render(state: State, seat: int | None, language: str = "en") -> str:
    lines = ENGINE.describe(ENGINE.view(state, seat), seat, NAMES, language=language)
    return "\n".join(lines) + "\n"


POSITIONS = _seeded_positions()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.parametrize("seat", [0, 2, None])
def test_golden_descriptions(position: str, seat: int | None, language: str) -> None:
    text = _render(POSITIONS[position], seat, language)
    folder = GOLDEN if language == "en" else GOLDEN / language
    path = folder / f"{position}-{'spectator' if seat is None else f'seat{seat}'}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        folder.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_the_seeded_positions_show_what_they_are_named_for() -> None:
    assert POSITIONS["auction"]["phase"] in ("bid", "resolve")
    assert POSITIONS["mid"]["round"] == 1 and not ENGINE.is_over(POSITIONS["mid"])
    assert ENGINE.is_over(POSITIONS["end"])


def _clean(line: str) -> None:
    assert len(line) <= 72, line
    for token in RAW:
        assert token not in line, (token, line)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "de"])
def test_random_playouts_read_cleanly(language: str) -> None:
    for players, seed, edition in [
        (2, 1, "the-estates"),
        (3, 2, "neue-heimat"),
        (5, 3, "neue-heimat"),
    ]:
        for step, (state, seat, legal, action) in enumerate(random_game(players, seed, edition)):
            if step % 3 == 0 or action is None:
                for viewer in [*range(players), None]:
                    lines = ENGINE.describe(
                        ENGINE.view(state, viewer), viewer, NAMES, language=language
                    )
                    for line in lines:
                        _clean(line)
                    text = "\n".join(lines)
                    others = [NAMES[s] for s in range(players) if s != viewer]
                    assert all(name in text for name in others)
            if action is None:
                continue
            for move in legal:
                gloss = ENGINE.gloss(state, seat, move, language=language)
                if gloss is not None:
                    assert len(gloss) <= 50, gloss
                    _clean(gloss)
            line = ENGINE.narrate(action, seat, NAMES, language=language)
            assert line.startswith(NAMES[seat])
            _clean(line)
            public = ENGINE.public_action(state, seat, action)
            if public is not None:
                told = ENGINE.narrate(public, seat, NAMES, language=language)
                assert "stash" not in told and "bunkert" not in told


def _vary(state: State, viewer: int | None, rng: random.Random) -> State:
    """Change only what ``viewer`` may not see: others' cheques and stash
    (their sum stays, as at the end it shows), the order of the roofs and
    the later rounds' setups (as tests/api/test_redaction.py does)."""
    varied = clone(state)
    for seat in range(state["players"]):
        if seat == viewer:
            continue
        total = state["money"][seat] + state["stash"][seat]
        varied["stash"][seat] = rng.randint(0, total)
        varied["money"][seat] = total - varied["stash"][seat]
    rng.shuffle(varied["roofs"])
    for later in varied["setups"][state["round"] :]:
        cubes = [cube for row in later["display"] for cube in row]
        rng.shuffle(cubes)
        later["display"] = [[cubes.pop() for _ in row] for row in later["display"]]
        rng.shuffle(later["roofs"])
        later["start"] = rng.randrange(state["players"])
    return varied


def test_describe_shows_only_what_the_view_shows() -> None:
    rng = random.Random(3)
    for step, (state, _seat, _legal, _action) in enumerate(random_game(4, 9, rounds=2)):
        if step % 5:
            continue
        for viewer in [0, 3, None]:
            assert _render(state, viewer) == _render(_vary(state, viewer, rng), viewer)


def test_my_money_first_and_others_hidden_while_the_game_runs() -> None:
    game = new_game()
    game["money"], game["stash"] = [9, 10, 11], [3, 2, 1]
    lines = ENGINE.describe(ENGINE.view(game, BOB), BOB, NAMES)
    assert lines[1] == "bob (you): 10 cheques in hand, 2 stashed"
    assert "alice: cheques hidden" in lines and "carol: cheques hidden" in lines
    assert not any("9" in line or "11" in line for line in lines if "cheque" in line)


def test_the_board_names_floors_roofs_owners_permits_and_the_mayor() -> None:
    game = build(new_game(), "b1", ["sienna-5", "collar-3"], roof=4)
    game = own(game, "collar", CAROL)
    game["board"][1]["permits"] = [2]
    game["specials"]["permit2"] = "board"
    game["mayor"], game["specials"]["mayor"] = 1, "board"
    lines = ENGINE.describe(ENGINE.view(game, ALICE), ALICE, NAMES)
    assert "Row b: 1 of 6 lots built, mayor (x2)" in lines
    assert "  permit II +2 on b7" in lines
    assert "  b1 sienna 5/collar 3 roof 4 (carol)" in lines
    # The Estates does not auction a placed mayor again; Neue Heimat does.
    assert "The mayor stands at row b" in lines
    assert "  certificates: collar (gray)" in lines
    game["edition"] = "neue-heimat"
    lines = ENGINE.describe(ENGINE.view(game, ALICE), ALICE, NAMES)
    assert "The mayor stands at row b (up for auction too)" in lines


def test_an_auction_in_progress_says_who_leads_and_who_still_bids() -> None:
    game = new_game(players=4)
    cube = game["display"][0][0]
    game = act(game, ALICE, {"type": "auction", "piece": "cube", "at": "row1-left"})
    game = act(game, BOB, {"type": "bid", "amount": 3})
    game = act(game, CAROL, {"type": "pass"})
    lines = ENGINE.describe(ENGINE.view(game, BOB), BOB, NAMES)
    company, pips = cube.split("-")
    assert f"Auction: alice auctions the {company} {pips} cube" in lines
    assert "  bids: bob 3, carol passed" in lines
    assert "  high bid 3 by bob" in lines
    assert "  still to bid: dave" in lines
    game = act(game, 3, {"type": "pass"})
    lines = ENGINE.describe(ENGINE.view(game, None), None, NAMES)
    assert "  alice decides: give to bob or keep" in lines


def test_glosses_name_the_piece_and_the_lot() -> None:
    game = new_game()
    cube = game["display"][0][0]
    company, pips = cube.split("-")
    colour = ENGINE.view(game, None)["colours"][company]
    choose = {"type": "auction", "piece": "cube", "at": "row1-left"}
    assert ENGINE.gloss(game, ALICE, choose) == f"{company} {pips} cube ({colour})"
    permit = {"type": "auction", "piece": "permit2"}
    assert ENGINE.gloss(game, ALICE, permit) == "permit II: a row 2 lots longer or shorter"
    game = auction(game, choose, bids=[2, None], decision="give")
    assert (
        ENGINE.gloss(game, BOB, {"type": "place", "lot": "a1"})
        == f"{company} {pips}: new building"
    )


def test_give_and_keep_glosses_say_the_price() -> None:
    game = new_game()
    choose = {"type": "auction", "piece": "mayor"}
    game = auction(game, choose, bids=[4, None])
    assert ENGINE.gloss(game, ALICE, {"type": "give"}) == "sell the mayor for 4"
    assert ENGINE.gloss(game, ALICE, {"type": "keep"}) == "pay 4, keep the mayor"


def test_narrate_names_the_player_and_the_public_form_hides_the_stash() -> None:
    game = new_game()
    mine = {"type": "auction", "piece": "roof", "stash": True}
    public = ENGINE.public_action(game, ALICE, mine)
    assert ENGINE.narrate(mine, ALICE, NAMES) == "alice stashes a cheque, auctions a roof"
    assert ENGINE.narrate(public, ALICE, NAMES) == "alice auctions a roof"
    assert ENGINE.narrate({"type": "bid", "amount": 3}, BOB, NAMES) == "bob bids 3"
    assert ENGINE.narrate({"type": "pass"}, CAROL, NAMES) == "carol passes"
    assert ENGINE.narrate({"type": "place", "lot": "b3"}, BOB, NAMES) == "bob places it on lot b3"


def test_the_full_pass_round_gives_the_piece_free() -> None:
    game = auction(new_game(), {"type": "auction", "piece": "mayor"}, bids=passes(3))
    lines = ENGINE.describe(ENGINE.view(game, ALICE), ALICE, NAMES)
    assert "  alice now places it" in lines


def test_a_seat_that_left_reads_cleanly_to_the_end() -> None:
    state = ENGINE.setup(3, {"edition": "neue-heimat"}, 4)
    rng = random.Random(4)
    for _ in range(12):
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    left = ENGINE.resign(state, next(iter(ENGINE.to_act(state))))
    assert left is not None
    state = left
    while not ENGINE.is_over(state):
        for viewer in [0, 1, 2, None]:
            for line in ENGINE.describe(ENGINE.view(state, viewer), viewer, NAMES):
                _clean(line)
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    lines = ENGINE.describe(ENGINE.view(state, None), None, NAMES)
    assert any("left the game" in line for line in lines)


# -- German ------------------------------------------------------------------


def test_german_describe_says_the_board_in_the_german_edition_s_words() -> None:
    game = build(new_game(), "b1", ["sienna-5", "collar-3"], roof=4)
    game = own(game, "collar", CAROL)
    game["money"], game["stash"] = [9, 1, 11], [3, 2, 1]
    game["board"][1]["permits"] = [2]
    game["specials"]["permit2"] = "board"
    game["mayor"], game["specials"]["mayor"] = 1, "board"
    lines = ENGINE.describe(ENGINE.view(game, BOB), BOB, NAMES, language="de")
    assert lines[0] == "The Estates, Runde 1 von 1"
    assert lines[1] == "bob (du): 1 Scheck auf der Hand, 2 gebunkert"
    assert "Jetzt: alice wählt ein Teil zum Versteigern" in lines
    assert "Reihe b: 1 von 6 Bauplätzen bebaut, Bürgermeister (x2)" in lines
    assert "  Genehmigung II +2 auf b7" in lines
    assert "  b1 sienna 5/collar 3 Dach 4 (carol)" in lines
    # The Estates: a mayor on the board stays (Neue Heimat's may be moved).
    assert "Der Bürgermeister steht an Reihe b" in lines
    assert "alice: Schecks verdeckt" in lines
    assert "  Zertifikate: collar (grau)" in lines


def test_one_cheque_is_a_cheque_in_english_too() -> None:
    game = new_game()
    game["money"], game["stash"] = [9, 1, 11], [3, 2, 1]
    lines = ENGINE.describe(ENGINE.view(game, BOB), BOB, NAMES)
    assert lines[1] == "bob (you): 1 cheque in hand, 2 stashed"


def test_german_auction_lines_name_bids_and_who_decides() -> None:
    game = new_game(players=4)
    cube = game["display"][0][0]
    company, pips = cube.split("-")
    game = act(game, ALICE, {"type": "auction", "piece": "cube", "at": "row1-left"})
    game = act(game, BOB, {"type": "bid", "amount": 3})
    game = act(game, CAROL, {"type": "pass"})
    game = act(game, 3, {"type": "pass"})
    lines = ENGINE.describe(ENGINE.view(game, None), None, NAMES, language="de")
    assert f"Versteigerung: alice versteigert den Würfel {company} {pips}" in lines
    assert "  Gebote: bob 3, carol passte, dave passte" in lines
    assert "  Höchstgebot 3 von bob" in lines
    assert "  alice entscheidet: an bob abgeben oder behalten" in lines


def test_german_narration_and_glosses() -> None:
    def narrate(action: dict[str, Any], seat: int) -> str:
        return ENGINE.narrate(action, seat, NAMES, language="de")

    mine = {"type": "auction", "piece": "roof", "stash": True}
    assert narrate(mine, ALICE) == "alice bunkert einen Scheck, versteigert ein Dach"
    left = {"type": "auction", "piece": "cube", "at": "row2-left"}
    assert narrate(left, BOB) == "bob versteigert den linken Würfel von row2"
    assert narrate({"type": "auction", "piece": "mayor"}, BOB) == (
        "bob versteigert den Bürgermeister"
    )
    assert narrate({"type": "bid", "amount": 3}, BOB) == "bob bietet 3"
    assert narrate({"type": "pass"}, CAROL) == "carol passt"
    assert narrate({"type": "keep"}, ALICE) == (
        "alice behält das Teil und zahlt dem Höchstbietenden"
    )
    assert narrate({"type": "place", "lot": "b3"}, BOB) == "bob setzt das Teil auf Bauplatz b3"
    assert narrate({"type": "mayor", "row": "c"}, BOB) == (
        "bob stellt den Bürgermeister an Reihe c"
    )

    game = new_game()
    permit = {"type": "auction", "piece": "permit3"}
    assert ENGINE.gloss(game, ALICE, permit, language="de") == (
        "Genehmigung III: Reihe um 3 länger oder kürzer"
    )
    game = auction(game, {"type": "auction", "piece": "mayor"}, bids=[4, None])
    assert ENGINE.gloss(game, ALICE, {"type": "give"}, language="de") == (
        "den Bürgermeister für 4 abgeben"
    )
    assert ENGINE.gloss(game, ALICE, {"type": "keep"}, language="de") == (
        "4 zahlen, den Bürgermeister behalten"
    )


def test_english_is_what_a_reader_without_a_language_gets() -> None:
    game = new_game()
    view = ENGINE.view(game, ALICE)
    assert ENGINE.describe(view, ALICE, NAMES, language="en") == ENGINE.describe(
        view, ALICE, NAMES
    )
    assert ENGINE.narrate({"type": "pass"}, BOB, NAMES, language="xx") == "bob passes"
