"""Takeback: a move may be taken back only if it revealed nothing."""

from __future__ import annotations

import pytest

from games.engines.estates import ENGINE

from .helpers import ALICE, BOB, CAROL, act, auction, build, new_game, own, passes, random_game

ROOF = {"type": "auction", "piece": "roof"}
CUBE = {"type": "auction", "piece": "cube", "at": "row1-left"}


def try_takeback(state, seat, action):
    after = act(state, seat, action)
    return after, ENGINE.takeback_allowed(state, seat, action, after)


def end_of_round_position(rounds: int = 1):
    """Alice to place the last roof: rows a and b are one lot each (two
    permits III), a1 roofed, b1 built, so roofing b1 completes two rows."""
    game = own(new_game(rounds=rounds), "skyline", BOB)
    for row in (0, 1):
        game["board"][row]["permits"] = [-3]
    game["specials"]["permit3"] = "board"
    build(game, "a1", ["skyline-6"], roof=1)
    build(game, "b1", ["skyline-5"])
    game["roofs"] = [3, *game["roofs"][1:]]
    return auction(game, ROOF, passes(3))


def test_choosing_a_cube_may_be_taken_back_with_or_without_a_stash():
    for choice in (CUBE, {**CUBE, "stash": True}):
        _, allowed = try_takeback(new_game(), ALICE, choice)
        assert allowed


def test_choosing_a_special_piece_may_be_taken_back():
    _, allowed = try_takeback(new_game(), ALICE, {"type": "auction", "piece": "permit2"})
    assert allowed


def test_choosing_a_roof_turns_it_over_and_stands():
    game = build(new_game(), "a1", ["skyline-3"])
    after, allowed = try_takeback(game, ALICE, ROOF)
    assert after["auction"]["piece"]["value"] == game["roofs"][0]
    assert not allowed


def test_a_blank_roof_turned_over_stands_too():
    game = build(new_game(edition="neue-heimat"), "a1", ["skyline-3"])
    game["roofs"] = [0, 4]
    after, allowed = try_takeback(game, ALICE, ROOF)
    assert after["blanks"] == 1
    assert not allowed


def test_a_bid_or_a_pass_may_be_taken_back_even_the_one_that_closes_the_bidding():
    state = auction(new_game(), CUBE)
    _, allowed = try_takeback(state, BOB, {"type": "bid", "amount": 3})
    assert allowed
    _, allowed = try_takeback(state, BOB, {"type": "pass"})
    assert allowed
    state = act(state, BOB, {"type": "bid", "amount": 3})
    after, allowed = try_takeback(state, CAROL, {"type": "pass"})
    assert after["phase"] == "resolve"
    assert allowed


def test_give_or_keep_may_be_taken_back():
    state = auction(new_game(), CUBE, [2, None])
    for decision in ("give", "keep"):
        _, allowed = try_takeback(state, ALICE, {"type": decision})
        assert allowed


def test_a_placement_that_does_not_end_the_round_may_be_taken_back():
    state = auction(new_game(), CUBE, passes(3))
    place = next(a for a in ENGINE.legal_actions(state, ALICE) if a["type"] == "place")
    after, allowed = try_takeback(state, ALICE, place)
    assert after["phase"] == "start" and after["active"] == BOB
    assert allowed


def test_the_placement_that_ends_the_game_stands():
    state = end_of_round_position()
    after, allowed = try_takeback(state, ALICE, {"type": "place", "lot": "b1"})
    assert after["phase"] == "over"
    assert not allowed


def test_the_placement_that_ends_a_round_shows_the_stashes_and_the_next_display_and_stands():
    state = end_of_round_position(rounds=2)
    after, allowed = try_takeback(state, ALICE, {"type": "place", "lot": "b1"})
    assert after["round"] == 2 and after["round_results"]
    assert not allowed


@pytest.mark.slow
def test_on_random_playouts_an_allowed_takeback_turned_over_no_roof_and_ended_no_round():
    kinds = set()
    for players, seed in ((2, 1), (3, 2), (5, 3)):
        previous = None
        for state, seat, _legal, action in random_game(players, seed, rounds=2):
            if previous is not None:
                before, mover, move = previous
                if ENGINE.takeback_allowed(before, mover, move, state):
                    kinds.add(move["type"])
                    assert state["roofs"] == before["roofs"]
                    assert state["round"] == before["round"] and state["result"] is None
            previous = (state, seat, action)
    assert {"auction", "bid", "pass", "place"} <= kinds
