"""The end of a round, scoring, ties, the result, and several rounds."""

from __future__ import annotations

import pytest

from games.engines.estates import ENGINE
from games.engines.estates.rounds import end_reason
from games.engines.estates.scoring import score_round

from .helpers import ALICE, BOB, CAROL, act, auction, build, new_game, passes

ROOF = {"type": "auction", "piece": "roof"}


def short_row(state, row: str, permit: int = 3):
    """Shorten a row to 4 - permit lots (a position, not a move)."""
    state["board"]["abc".index(row)]["permits"] = [-permit]
    state["specials"][f"permit{permit}"] = "board"
    return state


def roof_and_place(state, lot: str, value: int = 2, players: int = 3):
    """Alice draws a roof of ``value``, nobody bids, she puts it on ``lot``."""
    state["roofs"] = [value, *state["roofs"][1:]] if state["roofs"] else [value]
    state = auction(state, ROOF, passes(players))
    return act(state, ALICE, {"type": "place", "lot": lot})


def own(state, company, seat):
    state["certificates"][company] = seat
    return state


# --- the data notes' example --------------------------------------------------


def nine_point_building(complete: bool, mayor: bool):
    """Blue (skyline) 5 + 3 floors under a 1 roof: worth 9, owned by bob."""
    game = own(new_game(), "skyline", BOB)
    short_row(game, "a")  # row a is one lot long
    build(game, "a1", ["skyline-5", "skyline-3"], roof=1)
    if not complete:
        game["board"][0]["permits"] = []  # four lots again: incomplete
    game["mayor"] = 0 if mayor else None
    return score_round(game)


@pytest.mark.parametrize(
    ("complete", "mayor", "points"),
    [(True, False, 9), (False, False, -9), (True, True, 18), (False, True, -18)],
)
def test_scoring_example_nine_point_building(complete, mayor, points):
    scores = nine_point_building(complete, mayor)
    assert scores["scores"][BOB] == points
    (building,) = scores["rows"][0]["buildings"]
    assert building == {
        "lot": "a1",
        "floors": ["skyline-5", "skyline-3"],
        "roof": 1,
        "value": 9,
        "company": "skyline",
        "owner": BOB,
        "points": points,
    }


def test_a_building_scores_for_the_owner_of_its_top_floor_colour():
    game = own(own(new_game(), "skyline", ALICE), "golden", CAROL)
    short_row(game, "b")
    build(game, "b1", ["skyline-6", "golden-2"], roof=3)
    scores = score_round(game)
    assert scores["scores"] == [0, 0, 11]


def test_unroofed_buildings_in_an_incomplete_row_count_negative():
    game = own(new_game(), "emerald", ALICE)
    build(game, "c1", ["emerald-4"])
    build(game, "c2", ["emerald-2"], roof=5)
    assert score_round(game)["scores"][ALICE] == -(4 + 7)


def test_each_stashed_cheque_is_one_point_and_cheques_in_hand_score_nothing():
    game = new_game()
    game["money"], game["stash"] = [9, 12, 15], [3, 0, 0]
    assert score_round(game)["scores"] == [3, 0, 0]


def test_ties_go_to_the_most_cheques_in_hand_and_stash():
    game = new_game()
    game["money"], game["stash"] = [10, 13, 10], [2, 0, 3]
    scores = score_round(game)
    # alice 2 points (12 cheques), bob 0, carol 3 (13 cheques) -> carol, alice, bob.
    assert scores["ranking"] == [CAROL, ALICE, BOB]
    game["money"], game["stash"] = [10, 12, 11], [2, 0, 2]
    scores = score_round(game)
    # alice and carol both score 2: carol holds 13 cheques, alice 12.
    assert scores["ranking"][:2] == [CAROL, ALICE]
    assert scores["winners"] == [CAROL]


def test_a_full_tie_shares_the_win():
    scores = score_round(new_game())
    assert scores["winners"] == [ALICE, BOB, CAROL]


# --- the end of the game -----------------------------------------------------


def test_game_ends_at_once_when_two_rows_are_complete():
    game = own(new_game(), "skyline", ALICE)
    short_row(short_row(game, "a", 3), "b", 2)
    game["specials"]["permit2"] = "board"
    build(game, "a1", ["skyline-6"], roof=1)
    build(game, "b1", ["skyline-5"], roof=6)
    build(game, "b2", ["skyline-4"])
    assert end_reason(game) is None
    state = roof_and_place(game, "b2", value=3)
    assert state["phase"] == "over"
    result = ENGINE.result(state)
    assert state["round_results"][0]["reason"] == "two rows complete"
    assert result["ended_by"] == "two_rows_complete"
    assert result["scores"] == [7 + 11 + 7, 0, 0]
    assert ENGINE.to_act(state) == set()
    assert ENGINE.legal_actions(state, ALICE) == []


def test_one_complete_row_does_not_end_the_game():
    game = short_row(new_game(), "a")
    build(game, "a1", ["skyline-6"])
    state = roof_and_place(game, "a1")
    assert state["phase"] == "start"


def test_game_ends_when_the_last_numbered_roof_is_used():
    game = build(new_game(edition="the-estates"), "c1", ["sienna-3"])
    game["roofs"] = [4]
    state = roof_and_place(game, "c1", value=4)
    assert state["phase"] == "over"
    assert ENGINE.result(state)["ended_by"] == "no_numbered_roof"


def test_neue_heimat_ends_when_only_blank_roofs_are_left():
    game = build(new_game(edition="neue-heimat"), "c1", ["sienna-3"])
    game["roofs"] = [4, 0, 0]
    state = roof_and_place(game, "c1", value=4)
    assert state["phase"] == "over"


def test_game_ends_when_no_cube_is_left_and_every_building_has_a_roof():
    game = new_game()
    game["display"] = [["skyline-3"], [], []]
    state = auction(game, {"type": "auction", "piece": "cube", "at": "row1-left"}, passes(3))
    state = act(state, ALICE, {"type": "place", "lot": "a1"})
    assert state["phase"] == "start"  # a1 still needs its roof
    state["active"] = ALICE
    state = roof_and_place(state, "a1")
    assert state["phase"] == "over"
    assert ENGINE.result(state)["ended_by"] == "nothing_to_build"


def test_result_is_none_while_the_game_runs():
    assert ENGINE.result(new_game()) is None


def parts(a, b, c, *, mayor, stash):
    return {"row a": a, "row b": b, "row c": c, "mayor": mayor, "stash": stash}


def two_rows_for_bob(mayor=None):
    game = own(new_game(), "skyline", BOB)
    short_row(short_row(game, "a", 3), "b", 2)
    game["specials"]["permit2"] = "board"
    game["mayor"] = mayor
    game["stash"], game["money"] = [0, 2, 0], [12, 10, 12]
    build(game, "a1", ["skyline-6"], roof=1)
    build(game, "b1", ["skyline-5"], roof=6)
    build(game, "b2", ["skyline-4"])
    build(game, "c1", ["skyline-1"])
    return roof_and_place(game, "b2", value=3)


def test_result_has_winners_places_and_a_breakdown_per_row():
    state = two_rows_for_bob()
    result = ENGINE.result(state)
    assert result["winners"] == [BOB]
    assert result["places"] == [2, 1, 2]
    rows = state["round_results"][0]["rows"]
    assert [r["complete"] for r in rows] == [True, True, False]
    assert [b["points"] for r in rows for b in r["buildings"]] == [7, 11, 7, -1]
    assert result["scores"] == [0, 24 + 2, 0]
    assert result["breakdown"][BOB] == parts(7, 18, -1, mayor=0, stash=2)
    assert result["breakdown"][ALICE] == parts(0, 0, 0, mayor=0, stash=0)
    # The final tie-breaker, hidden while the game ran, is open at the end.
    assert ENGINE.view(state, ALICE)["cheques"] == [12, 12, 12]


def test_the_breakdown_shows_what_the_mayors_doubling_added():
    result = ENGINE.result(two_rows_for_bob(mayor=1))  # row b: 11 + 7, doubled
    assert result["scores"][BOB] == 7 + 2 * 18 - 1 + 2
    assert result["breakdown"][BOB] == parts(7, 18, -1, mayor=18, stash=2)


# --- several rounds ----------------------------------------------------------


def end_round_now(state):
    """From alice's turn, end the round: two short rows, the last roof goes on."""
    own(state, "skyline", BOB)
    short_row(short_row(state, "a", 3), "b", 3)
    build(state, "a1", ["skyline-6"], roof=1)
    build(state, "b1", ["skyline-5"])
    state["active"] = ALICE
    return roof_and_place(state, "b1", value=3)


def test_rounds_option_plays_again_with_a_fresh_board_and_kept_cheques():
    game = new_game(rounds=2)
    game["money"], game["stash"] = [8, 13, 12], [4, 0, 0]
    state = end_round_now(game)
    assert state["round"] == 2
    assert state["phase"] == "start"
    assert state["display"] == state["setups"][1]["display"]
    assert state["active"] == state["setups"][1]["start"]
    assert all(not any(r["floors"]) for r in state["board"])
    assert set(state["specials"].values()) == {"supply"}
    assert set(state["certificates"].values()) == {None}
    # Cheques carry over; the stash was scored and goes back into the hand.
    assert state["money"] == [12, 13, 12]
    assert state["stash"] == [0, 0, 0]
    assert state["round_results"][0]["scores"] == [4, 7 + 8, 0]
    assert ENGINE.result(state) is None


def test_totals_over_all_rounds_decide():
    state = end_round_now(new_game(rounds=2))
    own(state, "golden", CAROL)
    short_row(short_row(state, "a", 3), "b", 3)
    build(state, "a1", ["golden-6"], roof=6)
    build(state, "b1", ["golden-5"], roof=6)
    build(state, "c1", ["golden-4"])
    state["active"] = ALICE
    state = roof_and_place(state, "c1", value=1)
    result = ENGINE.result(state)
    assert result["scores"] == [0, 15, 12 + 11 - 5]
    assert result["winners"] == [CAROL]
    assert result["places"] == [3, 2, 1]
    assert state["wins"] == [0, 1, 1]
    assert result["breakdown"][BOB] == parts(7, 8, 0, mayor=0, stash=0)


def test_two_round_wins_win_at_once():
    state = end_round_now(new_game(rounds=3))
    state = end_round_now(state)
    assert state["phase"] == "over"
    result = ENGINE.result(state)
    assert len(state["round_results"]) == 2
    assert result["winners"] == [BOB]
    assert result["ended_by"] == "two_round_wins"
    assert state["wins"] == [0, 2, 0]
