"""The share price chart (draft IX.1-IX.3) cell by cell, and the stacking of
markers on `state["market"]`.

The chart is printed as two zig-zag rows. They are transcribed here as
printed; the expected move of every cell follows from the drawing alone: a
right or left move stays on the row, an up or down move goes diagonally to
the neighbouring cell of the other row.
"""

from __future__ import annotations

import pytest

from games.engines.cuba.data import market
from games.engines.cuba.steps import buy_sell_par

from ..stockgame import give, play, start_major, stock_game

LOWER = (50, 60, 70, 80, 90, 100, 110, 120, 132, 144, 158, 180, 196, 213, 231, 250, 275, 300)
UPPER = (55, 65, 75, 85, 95, 105, 115, 126, 138, 151, 172, 188, 204, 222, 240, 260, 290)

# The zig-zag: the lower row's k-th cell in column 2k, the upper row's in 2k+1.
COLUMN = {
    **{price: 2 * k for k, price in enumerate(LOWER)},
    **{price: 2 * k + 1 for k, price in enumerate(UPPER)},
}
AT = {column: price for price, column in COLUMN.items()}
INDEX = {c.price: c.index for c in market.CELLS}
ALL = sorted(COLUMN)


def moved(move, price):
    return market.CELLS[move(INDEX[price])].price


def test_the_two_rows_are_the_whole_chart():
    assert sorted(c.price for c in market.CELLS) == ALL
    assert len(ALL) == len(LOWER) + len(UPPER) == 35


@pytest.mark.parametrize("price", ALL)
def test_ix2_right_is_the_next_cell_on_the_same_row(price):
    column = COLUMN[price]
    if price == 290:
        expected = 300  # IX.1: the arrow up at the end of the row
    elif price == 300:
        expected = 300  # IX.1: it does not move
    else:
        expected = AT[column + 2]
    assert moved(market.right, price) == expected


@pytest.mark.parametrize("price", ALL)
def test_ix2_left_is_the_previous_cell_on_the_same_row(price):
    column = COLUMN[price]
    if price == 55:
        expected = 50  # IX.1: the arrow down at the start of the row
    elif price == 50:
        expected = 50
    else:
        expected = AT[column - 2]
    assert moved(market.left, price) == expected


@pytest.mark.parametrize("price", ALL)
def test_ix3_up_is_the_next_cell_diagonally_on_the_other_row(price):
    column = COLUMN[price]
    expected = AT.get(column + 1, price)  # 300 is the top: it stays
    assert moved(market.up, price) == expected


@pytest.mark.parametrize("price", ALL)
def test_ix3_down_is_the_previous_cell_diagonally_on_the_other_row(price):
    column = COLUMN[price]
    expected = AT.get(column - 1, price)  # 50 is the bottom: it stays
    assert moved(market.down, price) == expected


@pytest.mark.parametrize("price", ALL)
def test_ix3_several_shares_sold_move_down_once_per_share(price):
    expected = price
    for _ in range(3):
        expected = AT.get(COLUMN[expected] - 1, expected)
    assert market.CELLS[market.down(INDEX[price], 3)].price == expected


# -- stacking (IX.1) -------------------------------------------------------------


def empty():
    return [[] for _ in market.CELLS]


def test_ix1_a_marker_moving_onto_an_occupied_cell_goes_under_the_others():
    stacks = market.place(empty(), "MS", 5)
    stacks = market.place(stacks, "CVC", 5)
    stacks = market.place(stacks, "SdC", 7)
    stacks = market.place(stacks, "SdC", 5)
    assert stacks[5] == ["MS", "CVC", "SdC"]
    assert stacks[7] == []
    assert market.cell_of(stacks, "SdC") == 5


def test_ix1_a_marker_leaving_a_stack_lets_the_others_close_up():
    stacks = market.place(market.place(market.place(empty(), "A", 3), "B", 3), "C", 3)
    stacks = market.place(stacks, "A", 4)
    assert stacks[3] == ["B", "C"]
    stacks = market.place(stacks, "A", 3)  # back: it arrives last, so it goes under
    assert stacks[3] == ["B", "C", "A"]


def test_ix1_a_marker_that_cannot_move_keeps_its_place_in_the_stack():
    # A left move on 50 and an up move on 300 move nothing: the marker has
    # not moved onto the cell, so it is not put under the others.
    stacks = market.place(market.place(empty(), "FC", 0), "HG", 0)
    stacks = market.place(stacks, "FC", market.left(0))
    assert stacks[0] == ["FC", "HG"]
    top = market.TOP
    stacks = market.place(market.place(stacks, "MS", top), "CVC", top)
    stacks = market.place(stacks, "MS", market.up(top))
    assert stacks[top] == ["MS", "CVC"]


def test_placing_never_changes_its_input():
    stacks = market.place(empty(), "MS", 5)
    before = [list(on) for on in stacks]
    market.place(stacks, "CVC", 5)
    market.remove(stacks, "MS")
    assert stacks == before


def test_a_removed_marker_is_off_the_chart():
    stacks = market.remove(market.place(empty(), "HG", 4), "HG")
    assert market.cell_of(stacks, "HG") is None
    assert stacks == empty()


def test_majors_in_price_order_highest_first_and_the_top_of_a_stack_first():
    stacks = empty()
    for sym, cell in (("MS", 6), ("CVC", 8), ("SdC", 6), ("Oe", 2), ("HG", 6)):
        stacks = market.place(stacks, sym, cell)
    assert market.by_price(stacks, ["Oe", "MS", "SdC", "CVC"]) == ["CVC", "MS", "SdC", "Oe"]
    assert market.by_price(stacks, ["SdC", "MS", "Oe"], descending=False) == ["Oe", "MS", "SdC"]


def test_ix1_a_sale_onto_an_occupied_cell_puts_the_marker_under_the_others():
    state = stock_game(number=2)
    start_major(state, "CVC", 95)
    start_major(state, "MS", 100)
    seat = state["order"][0]
    give(state, "MS", seat, 20, 10)
    give(state, "MS", state["order"][1], 10)
    state = play(state, "sell MS 1")
    assert state["market"][INDEX[95]] == ["CVC", "MS"]
    assert state["companies"]["MS"]["price"] == INDEX[95]


def test_ix1_a_par_on_an_occupied_cell_puts_the_marker_under_the_others():
    state = stock_game()
    state = play(state, "par MS 80")
    state = play(state, "par CVC 80")
    assert state["market"][INDEX[80]] == ["MS", "CVC"]
    # The step keeps the price and the marker together.
    for sym in ("MS", "CVC"):
        assert market.cell_of(state["market"], sym) == state["companies"][sym]["price"]
    buy_sell_par.move_marker(state, "MS", INDEX[80])
    assert state["market"][INDEX[80]] == ["MS", "CVC"]
