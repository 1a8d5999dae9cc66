"""Every entry of the FAQ in the rules text (section 7), one test each."""

from __future__ import annotations

from games.engines.estates import ENGINE
from games.engines.estates.scoring import score_round

from .helpers import ALICE, BOB, CAROL, act, auction, build, new_game, passes, put_display, rejects

CUBE = {"type": "auction", "piece": "cube", "at": "row1-left"}


def test_faq_a_roof_may_go_on_a_house_i_did_not_build_and_top_colour_scores():
    game = build(new_game(), "a1", ["golden-3"])
    game["certificates"]["golden"] = BOB
    game["roofs"][0] = 4
    state = auction(game, {"type": "auction", "piece": "roof"}, [None, None])
    state = act(state, ALICE, {"type": "place", "lot": "a1"})
    assert state["board"][0]["roofs"][0] == 4
    # Row a is incomplete (one of four lots): bob, not alice, loses the 7.
    assert score_round(state)["scores"][:2] == [0, -7]


def test_faq_different_colours_may_stack_only_pips_matter():
    game = build(new_game(), "b1", ["sienna-5"])
    put_display(game, 1, ["heather-2", "heather-6"])
    state = auction(game, CUBE, passes(3))
    assert {"type": "place", "lot": "b1"} in ENGINE.legal_actions(state, ALICE)


def test_faq_a_permit_cannot_shorten_a_completed_row_past_its_buildings():
    game = new_game()
    for n in range(1, 5):
        build(game, f"c{n}", ["emerald-3"] if n != 2 else ["skyline-3"], roof=1)
    state = auction(game, {"type": "auction", "piece": "permit1"}, passes(3))
    c_spots = [a["lot"] for a in ENGINE.legal_actions(state, ALICE) if a.get("lot", "")[:1] == "c"]
    # Every lot up to the limit is built, so the row can only be lengthened.
    assert c_spots == ["c6"]
    rejects(state, ALICE, {"type": "place", "lot": "c4"})
    state = act(state, ALICE, {"type": "place", "lot": "c6"})
    assert not ENGINE.view(state, None)["board"][2]["complete"]


def test_faq_a_special_cube_or_the_mayor_may_be_discarded_after_winning():
    for piece in ("permit1", "permit2", "permit3", "cancel", "mayor"):
        state = auction(new_game(), {"type": "auction", "piece": piece}, [1, None], "give")
        assert {"type": "discard"} in ENGINE.legal_actions(state, BOB)
        state = act(state, BOB, {"type": "discard"})
        assert state["specials"][piece] == "gone"


def test_faq_a_blank_roof_is_discarded_at_once_the_turn_ends_and_nothing_is_placed():
    game = build(new_game(edition="neue-heimat"), "a1", ["golden-3"])
    game["roofs"] = [0, 3]
    state = act(game, ALICE, {"type": "auction", "piece": "roof"})
    assert state["auction"] is None
    assert state["board"][0]["roofs"][0] is None
    assert ENGINE.to_act(state) == {BOB}
    assert ENGINE.view(state, CAROL)["blank_roofs_discarded"] == 1


def test_faq_the_mayor_can_be_auctioned_several_times():
    # The rules text is Neue Heimat's; The Estates does not auction a placed
    # mayor again (test_turn.py).
    game = new_game(edition="neue-heimat")
    state = auction(game, {"type": "auction", "piece": "mayor"}, passes(3))
    state = act(state, ALICE, {"type": "mayor", "row": "a"})
    state = auction(state, {"type": "auction", "piece": "mayor"}, [None, 2], "give")
    state = act(state, ALICE, {"type": "mayor", "row": "c"})
    assert ENGINE.view(state, None)["mayor"] == "c"


def test_faq_a_cube_that_cannot_stack_may_still_start_a_building_on_an_empty_lot():
    game = build(new_game(), "a1", ["skyline-2"])
    put_display(game, 1, ["golden-5"])
    state = auction(game, CUBE, passes(3))
    spots = [a["lot"] for a in ENGINE.legal_actions(state, ALICE)]
    assert "a1" not in spots
    assert spots == ["a2", "b1", "c1"]


def test_faq_a_cube_with_no_legal_placement_is_discarded():
    # Cubes that fit nowhere are never offered for auction (so this cannot
    # arise in play); if the board changed under one, it would be discarded.
    state = auction(new_game(), CUBE, passes(3))
    for row in "abc":
        for n in range(1, 5):
            build(state, f"{row}{n}", ["emerald-1"])
    state["auction"]["piece"]["cube"] = "heather-6"
    assert ENGINE.legal_actions(state, ALICE) == [{"type": "discard"}]
    state = act(state, ALICE, {"type": "discard"})
    assert state["active"] == BOB
    assert all(not row["floors"][4] for row in state["board"])
