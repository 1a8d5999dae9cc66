"""Using the auctioned piece: floors, roofs, permits, the cancel cube, the mayor."""

from __future__ import annotations

from games.engines.estates import ENGINE

from .helpers import ALICE, BOB, CAROL, act, auction, build, new_game, passes, put_display, rejects

CUBE = {"type": "auction", "piece": "cube", "at": "row1-left"}


def won_cube(cube: str, game=None, players: int = 3):
    """Alice auctions ``cube`` and gets it free: the state at her placement."""
    game = put_display(game or new_game(players=players), 1, [cube, "heather-6"])
    return auction(game, CUBE, passes(players))


def won_piece(piece: str, game=None, players: int = 3):
    game = game or new_game(players=players)
    return auction(game, {"type": "auction", "piece": piece}, passes(players))


def spots(state):
    return [a.get("lot") for a in ENGINE.legal_actions(state, ALICE)]


def place(state, lot: str):
    return act(state, ALICE, {"type": "place", "lot": lot})


# --- floor cubes ------------------------------------------------------------


def test_first_cube_of_a_row_goes_on_the_lot_next_to_main_street():
    state = won_cube("skyline-3")
    assert spots(state) == ["a1", "b1", "c1"]
    assert "cannot go on lot a2" in rejects(state, ALICE, {"type": "place", "lot": "a2"})


def test_buildings_go_outward_from_the_road_without_gaps():
    game = build(new_game(), "a1", ["skyline-2"], roof=1)
    build(game, "a2", ["emerald-2"], roof=1)
    state = won_cube("golden-3", game)
    assert "a3" in spots(state)
    assert "a4" not in spots(state)
    rejects(state, ALICE, {"type": "place", "lot": "a4"})


def test_a_cube_stacks_only_on_a_higher_pip_count():
    game = build(new_game(), "c1", ["skyline-4"])
    assert "c1" in spots(won_cube("golden-3", game))
    assert "c1" not in spots(won_cube("golden-4", game))
    assert "c1" not in spots(won_cube("golden-5", game))


def test_stacking_ignores_colour_only_pips_matter():
    game = build(new_game(), "c1", ["skyline-4", "golden-3"])
    state = place(won_cube("golden-2", game), "c1")
    assert state["board"][2]["floors"][0] == ["skyline-4", "golden-3", "golden-2"]


def test_white_lots_take_one_floor_only():
    game = build(new_game(), "a1", ["skyline-6"])
    build(game, "c1", ["skyline-5"])
    build(game, "c2", ["emerald-6"])
    state = won_cube("golden-1", game)
    assert "a1" not in spots(state)  # a1 is white
    assert "c2" not in spots(state)  # c2 is white
    assert "c1" in spots(state)


def test_a_white_lot_may_start_a_building():
    game = build(new_game(), "c1", ["skyline-5"])
    assert "c2" in spots(won_cube("golden-1", game))


def test_never_on_a_roof():
    game = build(new_game(), "b1", ["skyline-6"], roof=3)
    assert "b1" not in spots(won_cube("golden-1", game))


def test_nothing_beyond_the_requirement_or_on_a_permit():
    game = new_game()
    for n in range(1, 5):
        build(game, f"b{n}", ["skyline-1"] if n != 3 else ["emerald-1"])
    state = won_cube("golden-6", game)
    assert "b5" not in spots(state)
    game["board"][1]["permits"] = [1]
    state = won_cube("golden-6", game)
    assert "b5" in spots(state)
    assert "b6" not in spots(state)


def test_first_cube_of_a_colour_takes_the_certificate():
    state = place(won_cube("sienna-4"), "a1")
    assert state["certificates"]["sienna"] == ALICE


def test_the_certificate_stays_with_its_first_holder():
    game = own(new_game(), "sienna", BOB)
    state = place(won_cube("sienna-4", game), "a1")
    assert state["certificates"]["sienna"] == BOB


def test_the_certificate_goes_to_the_placer_not_the_auctioneer():
    game = put_display(new_game(), 1, ["sienna-4"])
    state = auction(game, CUBE, [2, None], "give")
    state = act(state, BOB, {"type": "place", "lot": "a1"})
    assert state["certificates"]["sienna"] == BOB


def own(state, company, seat):
    state["certificates"][company] = seat
    return state


def test_a_cube_that_fits_must_be_placed_not_discarded():
    state = won_cube("skyline-3")
    assert {"type": "discard"} not in ENGINE.legal_actions(state, ALICE)
    assert "must be placed" in rejects(state, ALICE, {"type": "discard"})


# --- roofs ------------------------------------------------------------------


def roof_won(game, value=4, players=3):
    game["roofs"] = [value, *[v for v in game["roofs"] if v][1:]]
    return auction(game, {"type": "auction", "piece": "roof"}, passes(players))


def test_a_roof_goes_on_any_roofless_building_even_one_i_did_not_build():
    game = build(new_game(), "a1", ["skyline-3"])
    build(game, "b1", ["emerald-5"], roof=2)
    build(game, "c1", ["golden-4"])
    own(game, "skyline", BOB)
    own(game, "golden", CAROL)
    state = roof_won(game)
    assert spots(state) == ["a1", "c1"]
    state = place(state, "a1")
    assert state["board"][0]["roofs"][0] == 4


def test_a_roof_is_not_placed_on_an_empty_lot_or_on_a_roof():
    game = build(new_game(), "a1", ["skyline-3"])
    build(game, "b1", ["emerald-5"], roof=2)
    state = roof_won(game)
    rejects(state, ALICE, {"type": "place", "lot": "a2"})
    rejects(state, ALICE, {"type": "place", "lot": "b1"})
    assert "must be placed" in rejects(state, ALICE, {"type": "discard"})


# --- permits ----------------------------------------------------------------


def test_a_permit_lengthens_or_shortens_a_row_and_sits_on_the_first_lot_past_it():
    state = won_piece("permit2")
    # Row requirement 4: lot 3 (shortened to 2) or lot 7 (lengthened to 6).
    assert spots(state) == ["a3", "a7", "b3", "b7", "c3", "c7", None]
    state = place(state, "b7")
    view = ENGINE.view(state, None)
    assert view["board"][1]["requirement"] == 6
    assert view["board"][1]["permit_lot"] == "b7"
    assert state["specials"]["permit2"] == "board"


def test_permits_stack_on_the_same_row():
    game = new_game()
    game["board"][0]["permits"] = [-2]
    game["specials"]["permit2"] = "board"
    state = won_piece("permit3", game)
    # From requirement 2: +3 -> 5 (lot a6); -3 is below one lot.
    assert [s for s in spots(state) if s and s[0] == "a"] == ["a6"]
    state = place(state, "a6")
    assert ENGINE.view(state, None)["board"][0]["requirement"] == 5


def test_a_permit_cannot_shorten_a_row_below_its_buildings():
    game = new_game()
    for n in range(1, 4):
        build(game, f"a{n}", ["skyline-1"] if n != 1 else ["golden-1"])
    state = won_piece("permit2", game)
    assert "a3" not in spots(state)
    assert "a7" in spots(state)
    rejects(state, ALICE, {"type": "place", "lot": "a3"})


def test_a_permit_may_shorten_a_row_exactly_to_its_buildings():
    game = build(new_game(), "a1", ["skyline-2"], roof=3)
    build(game, "a2", ["emerald-2"], roof=3)
    build(game, "a3", ["golden-2"], roof=3)
    state = place(won_piece("permit1", game), "a4")
    assert ENGINE.view(state, None)["board"][0]["complete"]


def test_a_permit_can_make_a_complete_row_incomplete():
    game = new_game()
    for n in range(1, 5):
        build(game, f"b{n}", ["skyline-3"], roof=1)
    assert ENGINE.view(game, None)["board"][1]["complete"]
    state = place(won_piece("permit1", game), "b6")
    assert not ENGINE.view(state, None)["board"][1]["complete"]


def test_the_longest_row_is_nine_lots():
    game = new_game()
    game["board"][2]["permits"] = [3, 1]
    game["specials"]["permit3"] = game["specials"]["permit1"] = "board"
    state = won_piece("permit2", game)
    # 4 + 3 + 1 = 8: +2 would need an eleventh lot; -2 gives 6 (lot c7).
    assert [s for s in spots(state) if s and s[0] == "c"] == ["c7"]


def test_a_permit_may_be_discarded_instead():
    state = act(won_piece("permit3"), ALICE, {"type": "discard"})
    assert state["specials"]["permit3"] == "gone"
    assert {"type": "auction", "piece": "permit3"} not in ENGINE.legal_actions(state, BOB)


# --- cancel cube ------------------------------------------------------------


def test_the_cancel_cube_removes_one_permit_and_both_leave_the_game():
    game = new_game()
    game["board"][0]["permits"] = [-1, 3]
    game["specials"]["permit1"] = game["specials"]["permit3"] = "board"
    state = won_piece("cancel", game)
    assert ENGINE.legal_actions(state, ALICE) == [
        {"type": "cancel", "permit": 1},
        {"type": "cancel", "permit": 3},
        {"type": "discard"},
    ]
    state = act(state, ALICE, {"type": "cancel", "permit": 1})
    assert state["board"][0]["permits"] == [3]
    assert ENGINE.view(state, None)["board"][0]["requirement"] == 7
    assert state["specials"]["permit1"] == "gone"
    assert state["specials"]["cancel"] == "gone"


def test_cancelling_the_last_permit_returns_the_row_to_four_lots():
    game = new_game()
    game["board"][1]["permits"] = [2]
    game["specials"]["permit2"] = "board"
    state = act(won_piece("cancel", game), ALICE, {"type": "cancel", "permit": 2})
    assert ENGINE.view(state, None)["board"][1]["requirement"] == 4
    assert ENGINE.view(state, None)["board"][1]["permit_lot"] is None


def test_the_cancel_cube_cannot_strand_a_building():
    game = new_game()
    game["board"][0]["permits"] = [2]
    game["specials"]["permit2"] = "board"
    for n in range(1, 6):
        build(game, f"a{n}", ["golden-1"] if n != 1 else ["skyline-2"])
    state = won_piece("cancel", game)
    assert ENGINE.legal_actions(state, ALICE) == [{"type": "discard"}]
    assert "strand" in rejects(state, ALICE, {"type": "cancel", "permit": 2})


def test_the_cancel_cube_may_be_won_with_nothing_to_cancel_and_discarded():
    state = act(won_piece("cancel"), ALICE, {"type": "discard"})
    assert state["specials"]["cancel"] == "gone"


def test_cancelling_a_permit_by_a_non_number_is_refused():
    game = new_game()
    game["board"][0]["permits"] = [1]
    game["specials"]["permit1"] = "board"
    state = won_piece("cancel", game)
    assert "number" in rejects(state, ALICE, {"type": "cancel", "permit": True})
    rejects(state, ALICE, {"type": "cancel", "permit": "1"})


# --- mayor ------------------------------------------------------------------


def test_the_mayor_goes_in_front_of_any_row():
    state = won_piece("mayor")
    assert ENGINE.legal_actions(state, ALICE) == [
        {"type": "mayor", "row": "a"},
        {"type": "mayor", "row": "b"},
        {"type": "mayor", "row": "c"},
        {"type": "discard"},
    ]
    state = act(state, ALICE, {"type": "mayor", "row": "b"})
    assert ENGINE.view(state, None)["mayor"] == "b"


def test_neue_heimat_the_mayor_can_be_moved_by_winning_it_again():
    game = new_game(edition="neue-heimat")
    game["specials"]["mayor"], game["mayor"] = "board", 0
    state = act(won_piece("mayor", game), ALICE, {"type": "mayor", "row": "c"})
    assert state["mayor"] == 2
    assert [r["mayor"] for r in ENGINE.view(state, None)["board"]] == [False, False, True]


def test_discarding_the_mayor_from_the_board_removes_it_from_the_game():
    game = new_game(edition="neue-heimat")
    game["specials"]["mayor"], game["mayor"] = "board", 0
    state = act(won_piece("mayor", game), ALICE, {"type": "discard"})
    assert state["mayor"] is None
    assert state["specials"]["mayor"] == "gone"


def test_placement_is_done_by_the_recipient_only():
    state = won_cube("skyline-3")
    assert "not your turn" in rejects(state, BOB, {"type": "place", "lot": "a1"})
    rejects(state, ALICE, {"type": "mayor", "row": "a"})
    rejects(state, ALICE, {"type": "place", "lot": "z9"})
    rejects(state, ALICE, {"type": "place", "lot": "a11"})


def test_a_row_is_never_shortened_below_one_lot():
    state = place(won_piece("permit3"), "a2")
    assert ENGINE.view(state, None)["board"][0]["requirement"] == 1
    state["active"] = ALICE
    state = won_piece("permit1", state)
    # From one lot: -1 would leave a row of no lots; only +1 (lot a3) is offered.
    assert [s for s in spots(state) if s and s[0] == "a"] == ["a3"]
    rejects(state, ALICE, {"type": "place", "lot": "a1"})
