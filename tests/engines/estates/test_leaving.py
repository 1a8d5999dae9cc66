"""A player who leaves: the others play on (our rule; the rules text is silent)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.estates import ENGINE

from .helpers import ALICE, BOB, CAROL, DAVE, act, auction, new_game, put_display
from .test_playouts import check_money, check_pieces, check_result

CUBE = {"type": "auction", "piece": "cube", "at": "row1-left"}


def test_a_leaving_seat_is_skipped_when_its_turn_comes():
    state = ENGINE.resign(new_game(players=3), BOB)
    state = auction(state, CUBE, [None])  # only carol bids now
    state = act(state, ALICE, {"type": "place", "lot": "a1"})
    assert state["active"] == CAROL


def test_the_active_player_leaving_passes_the_turn():
    state = ENGINE.resign(new_game(players=3), ALICE)
    assert ENGINE.to_act(state) == {BOB}
    assert state["phase"] == "start"


def test_a_leaving_bidder_is_skipped():
    state = act(new_game(players=4), ALICE, CUBE)
    state = ENGINE.resign(state, BOB)
    assert ENGINE.to_act(state) == {CAROL}
    state = ENGINE.resign(state, DAVE)
    state = act(state, CAROL, {"type": "bid", "amount": 2})
    assert state["phase"] == "resolve"


def test_the_bid_of_a_leaving_high_bidder_is_withdrawn():
    state = auction(new_game(players=4), CUBE, [2, 5])
    state = ENGINE.resign(state, CAROL)
    assert (state["auction"]["high"], state["auction"]["high_bidder"]) == (2, BOB)
    state = act(state, DAVE, {"type": "pass"})
    state = act(state, ALICE, {"type": "give"})
    assert state["money"][BOB] == 10
    assert ENGINE.to_act(state) == {BOB}


def test_a_leaving_auctioneer_gives_the_piece_to_the_high_bidder():
    state = auction(new_game(players=3), CUBE, [3])
    state = ENGINE.resign(state, ALICE)
    state = act(state, CAROL, {"type": "pass"})
    assert state["phase"] == "place"
    assert ENGINE.to_act(state) == {BOB}
    assert state["money"][:2] == [15, 9]


def test_a_piece_nobody_takes_is_used_by_the_house_without_a_certificate():
    game = put_display(new_game(players=3), 1, ["sienna-4", "skyline-1"])
    state = auction(game, CUBE, [None])
    state = ENGINE.resign(state, ALICE)
    state = act(state, CAROL, {"type": "pass"})
    assert state["board"][0]["floors"][0] == ["sienna-4"]
    assert state["certificates"]["sienna"] is None
    assert state["phase"] == "start"
    assert state["active"] == BOB


def test_a_permit_won_by_a_leaving_player_returns_to_the_supply():
    state = auction(new_game(players=3), {"type": "auction", "piece": "permit2"}, [None, None])
    state = ENGINE.resign(state, ALICE)
    assert state["specials"]["permit2"] == "supply"
    assert state["active"] == BOB


def test_the_game_ends_when_one_player_is_left_and_leavers_rank_last():
    game = new_game(players=3)
    game["stash"] = [5, 0, 0]
    game["money"] = [7, 12, 12]
    state = ENGINE.resign(ENGINE.resign(game, ALICE), BOB)
    assert state["phase"] == "over"
    result = ENGINE.result(state)
    assert result["winners"] == [CAROL]
    # Leavers rank below her, between themselves by score (alice's stash of 5).
    assert result["places"] == [2, 3, 1]
    assert result["scores"] == [5, 0, 0]
    assert result["ended_by"] == "resignation"
    assert state["resigned"] == [ALICE, BOB]


def test_resigning_twice_or_after_the_end_changes_nothing():
    state = ENGINE.resign(new_game(), BOB)
    assert ENGINE.resign(state, BOB) == state
    with pytest.raises(IllegalAction):
        ENGINE.resign(state, 7)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_with_leavers_still_end_and_keep_their_invariants(players):
    for seed in range(25):
        rng = random.Random(seed)
        state = ENGINE.setup(players, {"rounds": 1 + seed % 2}, seed)
        leave_at = {rng.randrange(150): rng.randrange(players) for _ in range(players - 1)}
        steps = 0
        while ENGINE.result(state) is None:
            if steps in leave_at:
                state = ENGINE.resign(state, leave_at[steps])
                check_money(state)
                if state["phase"] != "over":
                    check_pieces(state)
                if ENGINE.result(state) is not None:
                    break
            (seat,) = ENGINE.to_act(state)
            assert seat not in state["resigned"]
            state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            steps += 1
        check_result(state)
        assert all(s not in ENGINE.result(state)["winners"] for s in state["resigned"])
