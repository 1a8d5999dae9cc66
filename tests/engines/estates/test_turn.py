"""A turn: illegal earnings, choosing a piece, the one-round auction, give or keep."""

from __future__ import annotations

import pytest

from games.engines.estates import ENGINE

from .helpers import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    act,
    auction,
    build,
    new_game,
    passes,
    put_display,
    rejects,
)

CUBE = {"type": "auction", "piece": "cube", "at": "row1-left"}
DISCARD = {"type": "discard"}


# --- illegal earnings -------------------------------------------------------


def test_stash_moves_one_cheque_from_hand_to_stash_with_the_choice():
    state = act(new_game(), ALICE, {**CUBE, "stash": True})
    assert state["money"][ALICE] == 11
    assert state["stash"][ALICE] == 1
    assert state["phase"] == "bid"


def test_stash_is_optional_and_at_most_one_per_turn():
    game = new_game()
    legal = ENGINE.legal_actions(game, ALICE)
    assert CUBE in legal
    assert {**CUBE, "stash": True} in legal
    assert all(a.get("stash") in (None, True) for a in legal)
    rejects(game, ALICE, {**CUBE, "stash": 2})


def test_no_stash_without_a_cheque_in_hand():
    game = new_game()
    game["money"][ALICE] = 0
    assert all("stash" not in a for a in ENGINE.legal_actions(game, ALICE))
    assert "no cheque" in rejects(game, ALICE, {**CUBE, "stash": True})


def test_stashed_cheques_cannot_be_bid():
    game = new_game(players=2)
    game["money"][BOB], game["stash"][BOB] = 2, 10
    state = act(game, ALICE, CUBE)
    amounts = [a["amount"] for a in ENGINE.legal_actions(state, BOB) if a["type"] == "bid"]
    assert amounts == [1, 2]
    assert "more than the cheques" in rejects(state, BOB, {"type": "bid", "amount": 3})


# --- choosing a piece -------------------------------------------------------


def test_at_the_start_six_cube_ends_roof_permits_cancel_and_mayor_are_offered():
    game = new_game()
    pieces = [
        a.get("at", a["piece"]) for a in ENGINE.legal_actions(game, ALICE) if "stash" not in a
    ]
    assert pieces == [
        "row1-left",
        "row1-right",
        "row2-left",
        "row2-right",
        "row3-left",
        "row3-right",
        "permit1",
        "permit2",
        "permit3",
        "cancel",
        "mayor",
    ]


def test_only_a_cube_at_either_end_of_a_display_row_may_be_chosen():
    game = put_display(new_game(), 1, ["skyline-6", "emerald-5", "golden-4"])
    state = act(game, ALICE, {"type": "auction", "piece": "cube", "at": "row1-right"})
    assert state["auction"]["piece"]["cube"] == "golden-4"
    assert state["display"][0] == ["skyline-6", "emerald-5"]
    rejects(game, ALICE, {"type": "auction", "piece": "cube", "at": "row1-middle"})
    rejects(game, ALICE, {"type": "auction", "piece": "cube", "at": "row4-left"})


def test_a_cube_that_fits_nowhere_cannot_be_chosen():
    game = new_game()
    # Every row is built up to its four lots with one-pip roofless floors:
    # a 6 can neither start a building nor go on top of a 1.
    for row in "abc":
        for lot in range(1, 5):
            build(game, f"{row}{lot}", ["heather-1"])
    put_display(game, 1, ["skyline-6", "sienna-6"])
    offered = [a.get("at") for a in ENGINE.legal_actions(game, ALICE)]
    assert "row1-left" not in offered
    assert "row1-right" not in offered
    assert "no legal place" in rejects(game, ALICE, CUBE)


def test_an_empty_display_row_offers_nothing():
    game = put_display(new_game(), 2, [])
    offered = [a.get("at") for a in ENGINE.legal_actions(game, ALICE)]
    assert "row2-left" not in offered
    assert "empty" in rejects(game, ALICE, {"type": "auction", "piece": "cube", "at": "row2-left"})


def test_a_roof_may_only_be_chosen_while_some_building_lacks_one():
    game = new_game()
    roof = {"type": "auction", "piece": "roof"}
    assert roof not in ENGINE.legal_actions(game, ALICE)
    rejects(game, ALICE, roof)
    build(game, "a1", ["skyline-3"])
    assert roof in ENGINE.legal_actions(game, ALICE)
    build(game, "a1", ["skyline-3"], roof=2)
    assert roof not in ENGINE.legal_actions(game, ALICE)


def test_a_chosen_roof_is_turned_over_before_the_auction():
    game = build(new_game(), "a1", ["skyline-3"])
    game["roofs"] = [5, 1]
    state = act(game, ALICE, {"type": "auction", "piece": "roof"})
    assert state["auction"]["piece"] == {"kind": "roof", "value": 5}
    assert ENGINE.view(state, BOB)["auction"]["piece"]["value"] == 5
    assert state["roofs"] == [1]


def test_a_blank_roof_ends_the_turn_at_once_and_is_discarded():
    game = build(new_game(edition="neue-heimat"), "a1", ["skyline-3"])
    game["roofs"] = [0, 4, 0]
    state = act(game, ALICE, {"type": "auction", "piece": "roof"})
    assert state["phase"] == "start"
    assert state["active"] == BOB
    assert state["roofs"] == [4, 0]
    assert state["blanks"] == 1
    assert state["board"][0]["roofs"][0] is None


def test_a_stash_still_counts_when_the_roof_is_blank():
    game = build(new_game(edition="neue-heimat"), "a1", ["skyline-3"])
    game["roofs"] = [0, 4]
    state = act(game, ALICE, {"type": "auction", "piece": "roof", "stash": True})
    assert state["stash"][ALICE] == 1


MAYOR = {"type": "auction", "piece": "mayor"}


def _offered(state) -> set[str]:
    return {a["piece"] for a in ENGINE.legal_actions(state, state["active"]) if "at" not in a}


@pytest.mark.parametrize("edition", ["the-estates", "neue-heimat"])
def test_permits_and_the_cancel_cube_are_auctioned_only_while_not_on_the_board_and_not_discarded(
    edition,
):
    """The data notes' sentence, for both editions: a permit on the board, a
    discarded permit, a cancelled permit and the used cancel cube are never
    put up again; a permit still in the supply is."""
    game = new_game(edition=edition)
    state = auction(game, {"type": "auction", "piece": "permit2"}, passes(3))
    state = act(state, ALICE, {"type": "place", "lot": "b7"})  # on the board
    assert "permit2" not in _offered(state)
    assert "on the board" in rejects(state, BOB, {"type": "auction", "piece": "permit2"})
    state = auction(state, {"type": "auction", "piece": "permit1"}, passes(3))
    state = act(state, BOB, {"type": "discard"})  # discarded
    assert "permit1" not in _offered(state)
    assert "out of the game" in rejects(state, CAROL, {"type": "auction", "piece": "permit1"})
    state = auction(state, {"type": "auction", "piece": "cancel"}, passes(3))
    state = act(state, CAROL, {"type": "cancel", "permit": 2})  # both leave the game
    assert _offered(state) == {"permit3", "mayor"}
    for piece in ("permit2", "cancel"):
        assert "out of the game" in rejects(state, ALICE, {"type": "auction", "piece": piece})


def test_the_estates_auctions_the_mayor_only_while_not_on_the_board_and_not_discarded():
    state = auction(new_game(edition="the-estates"), MAYOR, passes(3))
    state = act(state, ALICE, {"type": "mayor", "row": "b"})
    assert "mayor" not in _offered(state)
    assert "on the board" in rejects(state, BOB, MAYOR)
    discarded = act(auction(new_game(edition="the-estates"), MAYOR, passes(3)), ALICE, DISCARD)
    assert "mayor" not in _offered(discarded)
    assert "out of the game" in rejects(discarded, BOB, MAYOR)


def test_neue_heimat_lets_the_mayor_on_the_board_be_auctioned_again_to_move_it():
    state = auction(new_game(edition="neue-heimat"), MAYOR, passes(3))
    state = act(state, ALICE, {"type": "mayor", "row": "b"})
    assert "mayor" in _offered(state)
    state = auction(state, MAYOR, [2, None], "give")  # bob sells it to carol
    state = act(state, CAROL, {"type": "mayor", "row": "c"})
    assert ENGINE.view(state, None)["mayor"] == "c"
    # Discarded, it is out of the game in Neue Heimat too.
    state = act(auction(state, MAYOR, passes(3)), CAROL, DISCARD)
    assert state["mayor"] is None
    assert "mayor" not in _offered(state)
    assert "out of the game" in rejects(state, ALICE, MAYOR)


# --- the auction ------------------------------------------------------------


def test_bidding_runs_clockwise_from_the_auctioneers_left_each_player_once():
    game = new_game(players=4)
    game["active"] = CAROL
    state = act(game, CAROL, CUBE)
    order = []
    while state["phase"] == "bid":
        (seat,) = ENGINE.to_act(state)
        order.append(seat)
        state = act(state, seat, {"type": "pass"})
    assert order == [DAVE, ALICE, BOB]
    assert CAROL not in order


def test_first_bid_is_at_least_one_and_each_later_bid_higher():
    state = act(new_game(players=4), ALICE, CUBE)
    bids = [a["amount"] for a in ENGINE.legal_actions(state, BOB) if a["type"] == "bid"]
    assert bids == list(range(1, 13))
    rejects(state, BOB, {"type": "bid", "amount": 0})
    state = act(state, BOB, {"type": "bid", "amount": 4})
    bids = [a["amount"] for a in ENGINE.legal_actions(state, CAROL) if a["type"] == "bid"]
    assert bids == list(range(5, 13))
    assert "more than 4" in rejects(state, CAROL, {"type": "bid", "amount": 4})


def test_a_player_who_cannot_outbid_may_only_pass():
    state = auction(new_game(players=3), CUBE, [5])
    state["money"][CAROL] = 5
    assert ENGINE.legal_actions(state, CAROL) == [{"type": "pass"}]


def test_only_the_player_whose_turn_it_is_may_bid():
    state = act(new_game(players=3), ALICE, CUBE)
    assert "not your turn" in rejects(state, CAROL, {"type": "bid", "amount": 2})
    assert "not your turn" in rejects(state, ALICE, {"type": "bid", "amount": 2})


def test_give_the_winner_pays_the_bid_to_the_auctioneer_and_gets_the_piece():
    state = auction(new_game(players=3), CUBE, [3, 5], "give")
    assert state["money"] == [17, 12, 7]
    assert state["phase"] == "place"
    assert ENGINE.to_act(state) == {CAROL}


def test_keep_the_auctioneer_pays_the_bid_to_the_winner_and_keeps_the_piece():
    state = auction(new_game(players=3), CUBE, [3, 5], "keep")
    assert state["money"] == [7, 12, 17]
    assert ENGINE.to_act(state) == {ALICE}


def test_an_auctioneer_who_cannot_pay_the_bid_must_give():
    game = new_game(players=2)
    game["money"][ALICE] = 4
    state = auction(game, CUBE, [6])
    assert ENGINE.legal_actions(state, ALICE) == [{"type": "give"}]
    assert "cannot keep" in rejects(state, ALICE, {"type": "keep"})


def test_nobody_bids_the_auctioneer_takes_the_piece_free():
    state = auction(new_game(players=4), CUBE, passes(4))
    assert state["money"] == [12, 12, 12, 12]
    assert state["phase"] == "place"
    assert ENGINE.to_act(state) == {ALICE}


def test_only_the_auctioneer_decides_give_or_keep():
    state = auction(new_game(players=3), CUBE, [2, None])
    assert ENGINE.to_act(state) == {ALICE}
    rejects(state, BOB, {"type": "give"})
    assert "give" in rejects(state, ALICE, {"type": "bid", "amount": 3})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_money_is_conserved_through_an_auction(players):
    state = auction(new_game(players=players), CUBE, list(range(1, players)), "keep")
    assert sum(state["money"]) == 12 * players


def test_the_turn_passes_clockwise_after_placement():
    state = auction(new_game(players=3), CUBE, passes(3))
    state = act(state, ALICE, ENGINE.legal_actions(state, ALICE)[0])
    assert state["phase"] == "start"
    assert state["active"] == BOB
