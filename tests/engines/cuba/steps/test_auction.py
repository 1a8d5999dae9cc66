"""The commissioners' auction (draft IV.1, VI.6) and the new playing order
after it, played through the engine."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.rules import cash

from ..opening import ENGINE, FUNDING, auction_data, money, new, play, sell_cheaply, to_act


def test_c1_to_c6_are_auctioned_in_ascending_order():
    state = new(4, None)
    seen = []
    while state["round"]["kind"] == "auction":
        seen.append(auction_data(state)["card"])
        state = sell_cheaply(state)
    assert seen == [f"C{k}" for k in range(1, 7)]
    assert all(state["privates"][card]["owner"] is not None for card in FUNDING)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_auction_of_card_k_is_opened_by_the_player_at_position_k_minus_1(players):
    state = new(players, "hard" if players <= 3 else None, seed=players)
    order = list(state["order"])
    for k in range(1, 7):
        assert auction_data(state)["card"] == f"C{k}"
        assert to_act(state) == order[(k - 1) % players]
        state = sell_cheaply(state)


def test_the_starter_may_not_pass():
    state = new()
    starter = to_act(state)
    assert {"type": "pass"} not in ENGINE.legal_actions(state, starter)
    with pytest.raises(IllegalAction, match="may not pass"):
        ENGINE.apply(state, starter, {"type": "pass"})
    assert ENGINE.skip_action(state, starter) is None


def test_the_minimum_bid_is_0():
    state = new()
    starter = to_act(state)
    state = play(state, "bid C1 0")
    assert auction_data(state)["bid"] == 0
    assert auction_data(state)["leader"] == starter


def test_the_starters_timeout_is_the_lowest_bid():
    state = new()
    assert ENGINE.timeout_action(state, to_act(state)) == {
        "type": "bid",
        "card": "C1",
        "amount": 0,
    }


def test_bids_are_multiples_of_5():
    state = new()
    with pytest.raises(IllegalAction, match="multiples of \\$5"):
        play(state, "bid C1 7")
    assert all(a["amount"] % 5 == 0 for a in ENGINE.legal_actions(state, to_act(state)))


def test_a_bid_must_be_above_the_high_bid():
    state = play(new(), "bid C1 20")
    with pytest.raises(IllegalAction, match="lowest bid is \\$25"):
        play(state, "bid C1 20")
    state = play(state, "bid C1 25")
    assert auction_data(state)["bid"] == 25


def test_a_bid_is_at_most_the_bidders_cash():
    state = play(new(), "bid C1 0")
    bidder = to_act(state)
    have = money(state, bidder)
    with pytest.raises(IllegalAction, match=f"you have \\${have}"):
        play(state, f"bid C1 {have + 5}")
    state = play(state, f"bid C1 {have}")
    assert auction_data(state)["bid"] == have


def test_a_bid_names_the_card_under_auction():
    state = new()
    with pytest.raises(IllegalAction, match="C1 is being auctioned"):
        play(state, "bid C2 10")


def test_legal_lists_every_allowed_bid():
    state = play(new(), "bid C1 40")
    bidder = to_act(state)
    # An odd balance: the highest bid is the multiple of 5 below it.
    state["cash"] = cash.transfer(state["cash"], cash.player(bidder), cash.BANK, 3)
    have = money(state, bidder)
    legal = ENGINE.legal_actions(state, bidder)
    bids = [a["amount"] for a in legal if a["type"] == "bid"]
    assert bids == list(range(45, have + 1, 5))
    assert bids[-1] > have - 5
    assert {"type": "pass"} in legal
    for action in legal:
        ENGINE.apply(state, bidder, action)  # each one is postable


def test_a_player_who_cannot_outbid_may_only_pass():
    state = play(new(2, "easy"), "bid C1 10")
    other = to_act(state)
    state["cash"] = cash.transfer(
        state["cash"], cash.player(other), cash.BANK, money(state, other) - 12
    )
    assert ENGINE.legal_actions(state, other) == [{"type": "pass"}]


def test_bidding_goes_round_in_playing_order():
    state = new(4, None)
    order = state["order"]
    seen = []
    for amount in (0, 5, 10, 15, 20, 25):
        seen.append(to_act(state))
        state = play(state, f"bid C1 {amount}")
    assert seen == [order[i % 4] for i in range(6)]


def test_a_player_who_passes_is_out_of_that_auction():
    state = new(4, None)
    order = state["order"]
    state = play(state, "bid C1 0")
    state = play(state, "pass")  # order[1] is out
    state = play(state, "bid C1 5")  # order[2]
    state = play(state, "bid C1 10")  # order[3]
    assert to_act(state) == order[0]
    state = play(state, "bid C1 15")
    assert to_act(state) == order[2]  # order[1] is skipped
    assert auction_data(state)["passed"] == [order[1]]


def test_a_player_who_passed_bids_again_on_the_next_card():
    state = new(3, "easy")
    order = state["order"]
    state = play(state, "bid C1 0")
    state = play(state, "pass")  # order[1]
    state = play(state, "pass")  # order[2]: C1 is sold
    assert auction_data(state)["card"] == "C2"
    assert auction_data(state)["passed"] == []
    state = play(state, "bid C2 0")  # order[1] opens C2
    assert to_act(state) == order[2]


def test_the_starter_may_pass_once_outbid():
    state = play(new(2, "easy"), "bid C1 10")
    starter = auction_data(state)["starter"]
    state = play(state, "bid C1 15")
    assert to_act(state) == starter
    assert {"type": "pass"} in ENGINE.legal_actions(state, starter)
    state = play(state, "pass")
    assert state["privates"]["C1"]["owner"] != cash.player(starter)


def test_when_all_others_have_passed_the_high_bidder_pays_the_bank_and_owns_the_card():
    state = new(3, "easy")
    order = state["order"]
    state = play(state, "bid C1 0")
    state = play(state, "bid C1 35")  # order[1]
    state = play(state, "pass")  # order[2]
    before_bank, before_winner = state["cash"]["bank"], money(state, order[1])
    assert state["privates"]["C1"]["owner"] is None
    state = play(state, "pass")  # order[0]: only the high bidder is left
    assert state["privates"]["C1"]["owner"] == cash.player(order[1])
    assert money(state, order[1]) == before_winner - 35
    assert state["cash"]["bank"] == before_bank + 35
    assert cash.total(state["cash"]) == 8000
    assert auction_data(state)["card"] == "C2"


def test_a_bid_nobody_tops_wins_the_card_for_the_starter():
    state = new(2, "easy")
    starter = to_act(state)
    state = play(state, "bid C1 0")
    state = play(state, "pass")
    assert state["privates"]["C1"]["owner"] == cash.player(starter)


def test_bid_and_pass_lines():
    state = new()
    seat = to_act(state)
    bid = {"type": "bid", "card": "C1", "amount": 35}
    assert ENGINE.text(bid) == "bid C1 35"
    assert ENGINE.parse("bid C1 35", state, seat) == bid
    assert ENGINE.parse("BID c1 35", state, seat) == bid
    assert ENGINE.text({"type": "pass"}) == "pass"
    assert ENGINE.parse("pass", state, seat) == {"type": "pass"}
    for line in ("bid c1", "bid c1 thirty", "bid c1 -5"):
        with pytest.raises(IllegalAction, match="a bid reads"):
            ENGINE.parse(line, state, seat)


def test_after_c6_the_least_money_takes_the_first_place_in_playing_order():
    state = new(4, None, seed=5)
    order = list(state["order"])
    # C1..C4 to their starters at different prices, C5 and C6 for nothing.
    for k, price in zip(range(1, 5), (60, 10, 100, 35), strict=True):
        state = play(state, f"bid C{k} {price}")
        while auction_data(state)["card"] == f"C{k}":
            state = play(state, "pass")
    while state["round"]["kind"] == "auction":
        state = sell_cheaply(state)
    assert state["round"]["kind"] == "concessions"
    # C5 went to order[0] and C6 to order[1] for $0.
    paid = {order[0]: 60, order[1]: 10, order[2]: 100, order[3]: 35}
    expected = sorted(order, key=lambda seat: 680 - paid[seat])
    assert state["order"] == expected
    assert state["priority"] == expected[0]
    assert to_act(state) == expected[0]


def test_ties_in_money_keep_the_old_playing_order():
    state = new(4, None, seed=2)
    old = list(state["order"])
    for _ in range(3):
        state = sell_cheaply(state)
    state = play(state, "bid C4 50")  # old[3] opens C4 and pays 50
    while auction_data(state)["card"] == "C4":
        state = play(state, "pass")
    while state["round"]["kind"] == "auction":
        state = sell_cheaply(state)
    assert (
        money(state, old[3]) < money(state, old[0]) == money(state, old[1]) == money(state, old[2])
    )
    assert state["order"] == [old[3], old[0], old[1], old[2]]
    assert state["priority"] == old[3]


def test_ties_keep_the_old_order_even_behind_a_richer_player():
    state = new(3, "easy", seed=4)
    old = list(state["order"])
    state = play(state, "bid C1 0")
    state = play(state, "bid C1 20")  # old[1]
    state = play(state, "bid C1 25")  # old[2], the only one who pays
    state = play(state, "pass")
    state = play(state, "pass")
    while state["round"]["kind"] == "auction":
        state = sell_cheaply(state)
    # old[2] has least and leads; old[0] and old[1] are equal and keep their order.
    state_money = {seat: money(state, seat) for seat in old}
    assert state_money[old[0]] == state_money[old[1]] > state_money[old[2]]
    assert state["order"] == [old[2], old[0], old[1]]
