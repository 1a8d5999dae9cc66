"""A new game of 18Cuba (draft III.2, IV.5): one test per rule of the setup."""

from __future__ import annotations

import pytest

from games.engines import typed
from games.engines.cuba import setup
from games.engines.cuba.data import market, variants
from games.engines.cuba.rules import cash, shares
from games.engines.cuba.state import CubaState, copy_state


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.id)
def test_iii2_starting_capital_comes_out_of_the_8000_bank(variant):
    state = setup.new_game(variant, seed=1, part="east" if variant.partial_map else None)
    ledger = state["cash"]
    assert cash.total(ledger) == 8000
    for seat in range(variant.players):
        assert ledger[cash.player(seat)] == variant.starting_cash
    assert ledger["bank"] == 8000 - variant.players * variant.starting_cash


def test_iii2_playing_order_cards_are_dealt_at_random_from_the_seed():
    six = variants.variant(6, None)
    orders = {tuple(setup.new_game(six, seed)["order"]) for seed in range(20)}
    assert all(sorted(order) == list(range(6)) for order in orders)
    assert len(orders) > 10
    assert setup.new_game(six, 7) == setup.new_game(six, 7)


def test_iii2_the_lowest_playing_order_card_takes_priority_and_opens_the_auction():
    state = setup.new_game(variants.variant(4, None), seed=3)
    assert state["priority"] == state["order"][0]
    assert state["round"]["kind"] == "auction"
    assert state["round"]["entity"] == cash.player(state["order"][0])


def test_iii2_the_train_stacks_follow_the_variant():
    depot = setup.new_game(variants.variant(4, None), seed=1)["depot"]
    assert (depot["2"], depot["3"], depot["4"], depot["5"], depot["6"]) == (8, 7, 5, 4, 3)
    assert depot["8/4D"] is None  # unlimited
    assert (depot["1-wagon"], depot["2-wagon"], depot["3-wagon"]) == (8, 6, 4)
    assert (depot["machine-1"], depot["machine-2"], depot["machine-3"]) == (12, 8, 4)
    assert setup.new_game(variants.variant(2, "easy"), seed=1, part="west")["depot"]["2"] == 6


def test_iii2_every_certificate_starts_in_its_initial_offering():
    certs = setup.new_game(variants.variant(3, "hard"), seed=1)["certificates"]
    for company, held in certs.items():
        assert list(held) == [shares.IPO], company
        assert sum(held[shares.IPO]) == 100, company


def test_iv5_the_fc_starts_on_50_with_its_preprinted_1_train():
    state = setup.new_game(variants.variant(5, None), seed=1)
    fc = state["companies"]["FC"]
    assert market.CELLS[fc["price"]].price == 50
    assert state["market"][fc["price"]] == ["FC"]
    assert fc["trains"] == ["1"]
    assert fc["tokens_placed"] == 8  # on the marked hexes from the start
    assert all(not c["floated"] for sym, c in state["companies"].items() if sym != "FC")


def test_the_state_matches_its_declaration_and_its_copy_is_independent():
    state = setup.new_game(variants.variant(4, None), seed=2)
    assert typed.problems(state, CubaState) == []
    copied = copy_state(state)
    assert copied == state
    copied["order"].append(9)
    copied["companies"]["MS"]["trains"].append("2")
    copied["market"][0].append("MS")
    copied["certificates"]["MS"]["ipo"].pop()
    copied["board"]["tiles"]["B9"] = ["57", 0]
    assert state == setup.new_game(variants.variant(4, None), seed=2)
