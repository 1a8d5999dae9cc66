"""The share price chart (draft IX), one test per rule."""

from __future__ import annotations

import pytest

from games.engines.cuba.data import market

PRICE = {c.price: c.index for c in market.CELLS}


def price(index: int) -> int:
    return market.CELLS[index].price


def test_par_prices_are_the_orange_cells_70_to_100():
    assert market.PAR_PRICES == (70, 75, 80, 85, 90, 95, 100)


def test_the_track_rises_strictly():
    prices = [c.price for c in market.CELLS]
    assert prices == sorted(set(prices))
    assert (prices[0], prices[-1], len(prices)) == (50, 300, 35)


def test_ix2_a_dividend_moves_one_space_right_on_the_same_row():
    assert price(market.right(PRICE[100])) == 110


def test_ix2_no_dividend_moves_one_space_left():
    assert price(market.left(PRICE[100])) == 90


def test_ix1_right_from_290_goes_up_to_300():
    assert price(market.right(PRICE[290])) == 300


def test_ix1_right_on_300_does_not_move():
    assert price(market.right(PRICE[300])) == 300


def test_ix1_left_from_55_goes_down_to_50():
    assert price(market.left(PRICE[55])) == 50


def test_ix1_left_on_50_does_not_move():
    assert price(market.left(PRICE[50])) == 50


@pytest.mark.parametrize(("sold", "expected"), [(1, 95), (3, 85)])
def test_ix3_each_share_sold_moves_one_space_down(sold, expected):
    assert price(market.down(PRICE[100], sold)) == expected


def test_ix3_a_sold_out_company_moves_one_space_up():
    assert price(market.up(PRICE[100])) == 105


def test_iv5_the_fc_starts_at_50():
    assert price(market.FC_START) == 50


def test_the_implementation_typos_are_marked_provisional():
    assert {c.price for c in market.CELLS if c.provisional} == {132, 138, 213}
