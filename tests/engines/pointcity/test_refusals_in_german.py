"""Point City's refusals in a German reply mail: real illegal moves and
unreadable lines, each said in German (``said("de")``) while the message the
API answers with stays the English one, word for word."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.base import IllegalAction
from games.engines.pointcity import ENGINE
from games.engines.pointcity.moves import HELP

from .helpers import ALICE, BOB, act, empty_stock, give, move_to, new_game, set_market, set_space
from .test_civic import civic_pair
from .test_payment import COMMUNITY, COMMUNITY_DOUBLE, ENERGY, INGENUITY, mini_golf_next_to

HELP_DE = "Befehle: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | civic 8 | pass"


def refused(state: dict[str, Any], seat: int, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, action)
    return info.value


def unread(state: dict[str, Any], seat: int, line: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        ENGINE.parse(line, state, seat)
    return info.value


def says(refusal: IllegalAction, english: str, german: str) -> None:
    assert refusal.message == english
    assert refusal.said("en") == english
    assert refusal.said("de") == german
    assert refusal.kept()["domain"] == "pointcity"


def final_turn(stock: list[int] | None = None) -> dict[str, Any]:
    """The pile empty, the market all tier-3 buildings; Alice to play."""
    state = new_game(2, seed=8)
    for card in list(state["pile"]):
        move_to(state, card, state["removed"])
    set_market(state, "building", list(range(116, 132)))
    empty_stock(state, ALICE)
    give(state, ALICE, stock or [])
    return state


# -- the engine's own checks ---------------------------------------------------


def test_moving_out_of_turn():
    refusal = refused(new_game(2), BOB, {"type": "draw"})
    says(refusal, "it is not your turn", "du bist nicht am Zug")


def test_moving_after_the_game_is_over():
    over = act(final_turn(), ALICE, "pass")
    says(refused(over, ALICE, {"type": "draw"}), "the game is over", "die Partie ist zu Ende")


def test_an_action_without_a_type():
    says(
        refused(new_game(2), ALICE, {"kind": "draw"}),
        'an action is an object with a "type", e.g. {"type": "draw"}',
        'ein Spielzug ist ein Objekt mit einem "type", z. B. {"type": "draw"}',
    )


def test_an_action_that_is_not_plain_json():
    says(
        refused(new_game(2), ALICE, {"type": "draw", "times": {1, 2}}),
        "that action is not plain JSON",
        "dieser Spielzug ist kein reines JSON",
    )


def test_an_unknown_action():
    says(
        refused(new_game(2), ALICE, {"type": "dance"}),
        f"unknown action 'dance'; {HELP}",
        f"unbekannter Spielzug 'dance'; {HELP_DE}",
    )


# -- the wrong step of the turn ----------------------------------------------------


def test_drafting_while_a_civic_token_is_to_be_chosen():
    state = act(civic_pair(), ALICE, "take c2 c3 pay industry industry industry")
    tokens = ", ".join(str(t) for t in sorted(state["display"]))
    says(
        refused(state, ALICE, {"type": "draw"}),
        f"first choose a civic token for your civic building: civic <id> ({tokens})",
        f"wähle zuerst ein Bürgerplättchen für dein Bürgergebäude: civic <id> ({tokens})",
    )


def test_a_second_flip_in_one_turn():
    state = ENGINE.apply(new_game(2), ALICE, {"type": "flip", "space": "a1"})
    says(
        refused(state, ALICE, {"type": "flip", "space": "d4"}),
        "you have already flipped a card this turn",
        "du hast in diesem Zug schon eine Karte umgedreht",
    )


def test_passing_while_a_draft_is_possible():
    says(
        refused(new_game(2), ALICE, {"type": "pass"}),
        "you may pass only when no draft is possible",
        "du darfst nur passen, wenn kein Kartenpaar genommen werden kann",
    )


def test_drawing_from_a_pile_of_fewer_than_two_cards():
    state = final_turn(stock=INGENUITY[:2])
    says(
        refused(state, ALICE, {"type": "draw"}),
        "the pile has fewer than two cards; take from the market",
        "der Stapel hat weniger als zwei Karten; nimm vom Markt",
    )


def test_a_move_of_a_known_type_that_is_not_legal_now():
    # A civic token outside the civic step: known, but never legal in a turn.
    says(
        refused(new_game(2), ALICE, {"type": "civic", "token": 8}),
        f"that action is not legal now; {HELP}",
        f"dieser Spielzug ist jetzt nicht erlaubt; {HELP_DE}",
    )


# -- flipping a card that may not turn ------------------------------------------------


def test_flipping_outside_the_market():
    says(
        refused(new_game(2), ALICE, {"type": "flip", "space": "e5"}),
        "flip needs a market space, e.g.: flip b3",
        "flip braucht ein Marktfeld, z. B.: flip b3",
    )


def test_flipping_a_building_back():
    state = ENGINE.apply(new_game(2), ALICE, {"type": "flip", "space": "c3"})
    state = ENGINE.apply(state, ALICE, {"type": "draw"})
    says(
        refused(state, BOB, {"type": "flip", "space": "c3"}),
        "c3 already shows its building side",
        "c3 zeigt schon die Gebäudeseite",
    )


def test_flipping_a_card_whose_row_and_column_hold_buildings():
    state = new_game(2)
    set_space(state, "b1", state["market"][1]["card"], "building")
    set_space(state, "a3", state["market"][8]["card"], "building")
    says(
        refused(state, ALICE, {"type": "flip", "space": "a1"}),
        "a1 can be flipped only when its whole row or column shows resources",
        "a1 kann nur umgedreht werden, wenn seine ganze Reihe oder Spalte Ressourcen zeigt",
    )


# -- taking from the market ----------------------------------------------------------


def test_taking_cards_that_are_not_neighbours():
    says(
        refused(new_game(2), ALICE, {"type": "take", "spaces": ["a1", "c1"], "pay": []}),
        "take two orthogonally adjacent cards, first in reading order, e.g.: take a1 b1",
        "nimm zwei waagrecht oder senkrecht benachbarte Karten, in Leserichtung genannt, "
        "z. B.: take a1 b1",
    )


def test_taking_without_two_market_spaces():
    says(
        refused(new_game(2), ALICE, {"type": "take", "spaces": ["a1"], "pay": []}),
        "take names two market spaces, e.g.: take a1 b1",
        "take nennt zwei Marktfelder, z. B.: take a1 b1",
    )


def test_taking_a_building_one_cannot_afford():
    state = mini_golf_next_to(ENERGY[0], [COMMUNITY[0]])
    says(
        refused(state, ALICE, {"type": "take", "spaces": ["a1", "b1"], "pay": ["community"]}),
        "you cannot pay for every building in a1 and b1",
        "du kannst nicht alle Gebäude in a1 und b1 bezahlen",
    )


def test_paying_with_cards_the_building_does_not_take():
    state = mini_golf_next_to(COMMUNITY[0], [COMMUNITY[1], INGENUITY[0]])
    action = {"type": "take", "spaces": ["a1", "b1"], "pay": ["energy"]}
    ways = "take a1 b1 pay community community | take a1 b1 pay community ingenuity"
    says(
        refused(state, ALICE, action),
        f"that payment does not fit; the ways to pay are: {ways}",
        f"diese Bezahlung passt nicht; so kannst du bezahlen: {ways}",
    )


def test_paying_with_something_that_is_not_a_list_of_card_kinds():
    state = mini_golf_next_to(COMMUNITY[0], [COMMUNITY[1]])
    says(
        refused(state, ALICE, {"type": "take", "spaces": ["a1", "b1"], "pay": "community"}),
        "pay is a list of card kinds, e.g. ['energy', 'ingenuity']",
        "pay ist eine Liste von Kartenarten, z. B. ['energy', 'ingenuity']",
    )


# -- lines the parser cannot read ---------------------------------------------------


def test_a_line_the_parser_cannot_read():
    says(
        unread(new_game(2), ALICE, "  build a park "),
        f"cannot read 'build a park'; {HELP}",
        f"'build a park' ist nicht lesbar; {HELP_DE}",
    )


@pytest.mark.parametrize("line", ["", "   ", None])
def test_an_empty_line_gets_the_list_of_commands(line):
    says(unread(new_game(2), ALICE, line), HELP, HELP_DE)


def test_a_space_outside_the_market():
    says(
        unread(new_game(2), ALICE, "flip z9"),
        "'z9' is not a market space (a1 to d4)",
        "'z9' ist kein Marktfeld (a1 bis d4)",
    )


def test_take_with_one_space():
    says(
        unread(new_game(2), ALICE, "take a1"),
        "take two market spaces, e.g.: take a1 b1 pay energy",
        "nenne zwei Marktfelder, z. B.: take a1 b1 pay energy",
    )


def test_paying_with_a_card_kind_that_does_not_exist():
    kinds = (
        "community, economy, energy, ecology, industry, "
        "community2, economy2, energy2, ecology2, industry2, ingenuity"
    )
    says(
        unread(new_game(2), ALICE, "take a1 b1 pay gold"),
        f"cannot pay with 'gold'; card kinds are: {kinds}",
        f"mit 'gold' kannst du nicht bezahlen; die Kartenarten heißen: {kinds}",
    )


def test_take_without_pay_when_there_are_several_ways_to_pay():
    state = mini_golf_next_to(ENERGY[0], [*COMMUNITY[:2], COMMUNITY_DOUBLE[0]])
    ways = "take a1 b1 pay community2 | take a1 b1 pay community community"
    says(
        unread(state, ALICE, "take a1 b1"),
        f"say how to pay, one of: {ways}",
        f"sag, wie du bezahlst, mit einer dieser Zeilen: {ways}",
    )
