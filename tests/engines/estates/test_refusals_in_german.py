"""The Estates' refusals in a German reply mail: real illegal moves and
unreadable lines, each said in German (``said("de")``) while the message the
API answers with stays the English one, word for word."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.base import IllegalAction
from games.engines.estates import ENGINE

from .helpers import ALICE, BOB, CAROL, auction, build, new_game, passes, put_display

CUBE = {"type": "auction", "piece": "cube", "at": "row1-left"}


def refused(state: dict[str, Any], seat: int, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, action)
    return info.value


def unread(line: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        ENGINE.parse(line, new_game(), ALICE)
    return info.value


def says(refusal: IllegalAction, english: str, german: str) -> None:
    assert refusal.message == english
    assert refusal.said("en") == english
    assert refusal.said("de") == german
    assert refusal.kept()["domain"] == "estates"


def bidding() -> dict[str, Any]:
    """Alice has auctioned a cube; Bob is to bid."""
    return auction(new_game(), CUBE)


def resolving(high: int = 3) -> dict[str, Any]:
    """Bob bid ``high``, Carol passed: Alice gives or keeps."""
    return auction(new_game(), CUBE, [high, None])


def placing_cube() -> dict[str, Any]:
    """Alice won skyline-3 for nothing and places it."""
    game = put_display(new_game(), 1, ["skyline-3", "heather-6"])
    return auction(game, CUBE, passes(3))


def placing(piece: str, game: dict[str, Any] | None = None) -> dict[str, Any]:
    return auction(game or new_game(), {"type": "auction", "piece": piece}, passes(3))


# -- the engine's own checks ---------------------------------------------------


def test_moving_out_of_turn():
    says(refused(new_game(), BOB, CUBE), "it is not your turn", "du bist nicht am Zug")


def test_moving_after_the_game_is_over():
    over = ENGINE.resign(new_game(players=2), BOB)
    assert ENGINE.is_over(over)
    says(refused(over, ALICE, CUBE), "the game is over", "das Spiel ist zu Ende")


def test_an_action_without_a_type():
    says(
        refused(new_game(), ALICE, {"piece": "roof"}),
        'an action is an object with a "type"',
        'eine Aktion ist ein Objekt mit einem "type"',
    )


def test_an_action_that_is_not_plain_json():
    says(
        refused(new_game(), ALICE, {**CUBE, "at": {"row1-left"}}),
        "an action must be plain JSON data",
        "eine Aktion muss aus einfachen JSON-Daten bestehen",
    )


# -- the wrong phase -----------------------------------------------------------


def test_bidding_before_a_piece_is_chosen():
    says(
        refused(new_game(), ALICE, {"type": "bid", "amount": 2}),
        'choose a piece to auction, e.g. "auction cube row1-left"',
        'wähle ein Teil zum Versteigern, z. B. "auction cube row1-left"',
    )


def test_choosing_a_piece_while_the_auction_runs():
    says(
        refused(bidding(), BOB, {"type": "auction", "piece": "roof"}),
        'it is your turn to bid: "bid N" or "pass"',
        'du bist mit Bieten dran: "bid N" oder "pass"',
    )


def test_bidding_once_the_bidding_is_over():
    says(
        refused(resolving(), ALICE, {"type": "bid", "amount": 5}),
        'the bidding is over: "give" or "keep"',
        'das Bieten ist vorbei: "give" oder "keep"',
    )


def test_passing_instead_of_using_the_piece():
    says(
        refused(placing_cube(), ALICE, {"type": "pass"}),
        'use the piece: "place lot b3", "mayor row a", "cancel permit 2" or "discard"',
        'setze das Teil ein: "place lot b3", "mayor row a", "cancel permit 2" oder "discard"',
    )


# -- cheques -------------------------------------------------------------------


def test_bidding_more_cheques_than_in_hand():
    says(
        refused(bidding(), BOB, {"type": "bid", "amount": 13}),
        "you cannot bid 13: more than the cheques in your hand",
        "du kannst nicht 13 bieten: mehr als die Schecks auf deiner Hand",
    )


def test_bidding_no_more_than_the_high_bid():
    state = auction(new_game(), CUBE, [4])
    says(
        refused(state, CAROL, {"type": "bid", "amount": 4}),
        "bid more than 4",
        "biete mehr als 4",
    )


def test_keeping_the_piece_without_the_cheques_to_pay():
    state = resolving(high=5)
    state["money"][ALICE] = 2
    says(
        refused(state, ALICE, {"type": "keep"}),
        "you cannot keep it: you hold fewer than 5 cheques",
        "du kannst das Teil nicht behalten: du hast weniger als 5 Schecks",
    )


def test_stashing_with_no_cheque_in_hand():
    state = new_game()
    state["money"][ALICE] = 0
    says(
        refused(state, ALICE, {**CUBE, "stash": True}),
        "you have no cheque in hand to stash",
        "du hast keinen Scheck auf der Hand zum Bunkern",
    )


# -- fields and pieces ---------------------------------------------------------


def test_an_unexpected_field():
    says(
        refused(new_game(), ALICE, {**CUBE, "colour": "red"}),
        "unexpected field(s) in the action: colour",
        "unerwartete(s) Feld(er) in der Aktion: colour",
    )


def test_a_missing_field():
    says(
        refused(bidding(), BOB, {"type": "bid"}),
        "missing field(s) in the action: amount",
        "fehlende(s) Feld(er) in der Aktion: amount",
    )


def test_a_display_end_that_does_not_exist():
    says(
        refused(new_game(), ALICE, {**CUBE, "at": "row4-left"}),
        'name a display end like "row2-left" or "row3-right"',
        'nenne ein Ende der Auslage wie "row2-left" oder "row3-right"',
    )


def test_a_cube_from_an_empty_display_row():
    state = put_display(new_game(), 2, [])
    says(
        refused(state, ALICE, {**CUBE, "at": "row2-right"}),
        "display row 2 is empty",
        "Auslage row2 ist leer",
    )


def test_a_special_already_on_the_board():
    state = new_game()
    state["specials"]["permit2"] = "board"
    says(
        refused(state, ALICE, {"type": "auction", "piece": "permit2"}),
        "permit2 is not available: it is on the board",
        "permit2 ist nicht zu haben: schon auf dem Spielplan",
    )


def test_a_roof_with_no_roofless_building():
    says(
        refused(new_game(), ALICE, {"type": "auction", "piece": "roof"}),
        "a roof may only be chosen while some building lacks one",
        "ein Dach darf nur gewählt werden, solange noch einem Haus eins fehlt",
    )


# -- using the piece -----------------------------------------------------------


def test_a_lot_that_is_not_on_the_board():
    says(
        refused(placing_cube(), ALICE, {"type": "place", "lot": "d4"}),
        'name a lot like "b3" (row a, b or c, lot 1-10)',
        'nenne einen Bauplatz wie "b3" (Reihe a, b oder c, Bauplatz 1-10)',
    )


def test_a_cube_on_a_lot_it_cannot_go_on():
    says(
        refused(placing_cube(), ALICE, {"type": "place", "lot": "a9"}),
        "the cube cannot go on lot a9",
        "der Würfel kann nicht auf Bauplatz a9",
    )


def test_discarding_a_cube_that_fits():
    says(
        refused(placing_cube(), ALICE, {"type": "discard"}),
        "a cube that fits on the board must be placed",
        "ein Würfel, der auf den Spielplan passt, muss gesetzt werden",
    )


def test_a_mayor_placed_on_a_lot():
    says(
        refused(placing("mayor"), ALICE, {"type": "place", "lot": "a1"}),
        "that is not how a mayor is used",
        "so wird der Bürgermeister nicht eingesetzt",
    )


def test_cancelling_a_permit_that_would_strand_a_building():
    game = new_game()
    game["board"][0]["permits"] = [2]
    game["specials"]["permit2"] = "board"
    for n in range(1, 6):
        build(game, f"a{n}", ["golden-1"] if n != 1 else ["skyline-2"])
    says(
        refused(placing("cancel", game), ALICE, {"type": "cancel", "permit": 2}),
        "that permit is not on the board, or removing it would strand a building",
        "diese Genehmigung liegt nicht auf dem Spielplan, oder ohne sie stünde ein Haus "
        "außerhalb seiner Reihe",
    )


# -- unreadable lines ----------------------------------------------------------


def test_a_line_that_is_not_understood():
    says(
        unread("build a castle"),
        "not understood: 'build a castle'",
        "nicht verstanden: 'build a castle'",
    )


def test_a_stash_without_a_piece():
    says(
        unread("stash"),
        'stash on the same line as the piece you choose, e.g. "stash, auction roof"',
        'bunkere in derselben Zeile wie das Teil, das du wählst, z. B. "stash, auction roof"',
    )
