"""Station tokens and homes, draft VII.3.2 and VII.3.6."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.map.board import new_board
from games.engines.cuba.map.tokens import (
    check_token,
    choose_minor_home,
    fec_home_options,
    home_token,
    legal_tokens,
    minor_home_options,
    place_token,
    token_cost,
    tokens_available,
)

from ..helpers import empty_board, put, token


@pytest.fixture
def line():
    """MS in Matanzas with track on to an empty Cardenas (B11)."""
    b = empty_board()
    put(b, "B9", "57", 1)
    token(b, "B9", "MS")
    put(b, "B11", "57", 1)
    return b


def illegal(fn, *args, **kw) -> str:
    with pytest.raises(IllegalAction) as exc:
        fn(*args, **kw)
    return exc.value.message


def test_station_on_a_connected_city(line) -> None:
    assert check_token(line, "MS", "B11", 0) == 0
    b = place_token(line, "MS", "B11", 0)
    assert b["tokens"]["B11"] == [["MS"]]
    assert line["tokens"]["B11"] == [[]]  # the given board is untouched


def test_station_needs_a_connection(line) -> None:
    put(line, "C4", "57", 0)
    assert "not connected" in illegal(check_token, line, "MS", "C4", 0)


def test_only_one_station_per_hex_for_a_company(line) -> None:
    put(line, "B9", "14", 0)
    assert "already" in illegal(check_token, line, "MS", "B9", 0)


def test_station_needs_a_free_space(line) -> None:
    token(line, "B11", "CVC")
    assert "no free" in illegal(check_token, line, "MS", "B11", 0)


def test_a_home_not_yet_placed_keeps_its_space(line) -> None:
    line["reserved"] = {"B11": {"CVC": 0}}
    assert "kept" in illegal(check_token, line, "MS", "B11", 0)
    put(line, "B11", "14", 0)
    line["tokens"]["B11"] = [[]]
    assert check_token(line, "MS", "B11", 0) == 0


def test_station_not_past_a_blocked_city(line) -> None:
    token(line, "B11", "CVC")
    put(line, "B13", "9", 1)
    put(line, "C14", "57", 1)  # C14 side 1 faces C12, not B13; use side 2
    put(line, "C14", "6", 2)  # sides 2 (B13) and 4
    assert "not connected" in illegal(check_token, line, "MS", "C14", 0)


def test_paying_20_passes_an_fc_token_to_place_a_station(line) -> None:
    line["tokens"]["B11"] = [["FC"]]  # Cardenas full with the FC
    put(line, "B13", "9", 1)  # sides 1 (B11) and 4 (B15)
    put(line, "B15", "7", 0)  # sides 1 (B13) and 0 (C14)
    put(line, "C14", "57", 3)  # sides 3 (B15) and 0
    assert "not connected" in illegal(check_token, line, "MS", "C14", 0)
    assert check_token(line, "MS", "C14", 0, fc_new=["B11"]) == 20
    assert check_token(line, "MS", "C14", 0, fc_paid=["B11"]) == 0
    assert {"hex": "C14", "city": 0, "fc_passes": ["B11"]} in legal_tokens(line, "MS")


def test_fc_pass_for_a_station_only_when_needed(line) -> None:
    assert "not needed" in illegal(check_token, line, "MS", "B11", 0, fc_new=["B7"])
    assert "does not block" in illegal(check_token, line, "MS", "B11", 0, fc_new=["C4"])


def test_legal_tokens_are_exactly_the_checked_ones(line) -> None:
    options = legal_tokens(line, "MS")
    assert options == [{"hex": "B11", "city": 0, "fc_passes": []}]
    for o in options:
        check_token(line, "MS", o["hex"], o["city"], fc_new=o["fc_passes"])


def test_station_costs_40_then_60_then_80() -> None:
    assert [token_cost(n) for n in range(3)] == [40, 60, 80]
    assert "no station" in illegal(token_cost, 3)


def test_tokens_become_available_as_treasury_shares_sell() -> None:
    assert tokens_available(80) == 2
    assert tokens_available(40) == 2
    assert tokens_available(30) == 3
    assert tokens_available(10) == 3
    assert tokens_available(0) == 4


def test_home_station_is_free_and_releases_the_reservation() -> None:
    b = new_board()
    assert b["reserved"]["B9"] == {"MS": 0}
    b = home_token(b, "MS", "B9", 0)
    assert b["tokens"]["B9"] == [["MS"]]
    assert "B9" not in b["reserved"]


def test_oe_home_is_havana_west_city_and_fc_holds_the_east_city() -> None:
    b = new_board()
    assert b["tokens"]["B7"] == [[], ["FC"]]
    b = home_token(b, "Oe", "B7", 0)
    assert b["tokens"]["B7"] == [["Oe"], ["FC"]]


def test_fec_home_is_any_empty_city_space_not_kept_for_a_home() -> None:
    b = new_board()
    options = {(o["hex"], o["city"]) for o in fec_home_options(b)}
    assert ("C4", 0) in options
    assert ("B9", 0) not in options  # MS's home
    assert ("B7", 1) not in options  # the FC
    assert ("B11", 0) in options


def test_minor_home_is_any_untiled_city_but_y_cities_and_havana() -> None:
    b = new_board()
    options = minor_home_options(b)
    assert "B7" not in options and "E24" not in options and "G24" not in options
    assert "B9" in options  # a major's home may be chosen
    b = choose_minor_home(b, "HG", "C4")
    assert "C4" not in minor_home_options(b)
    assert "home" in illegal(choose_minor_home, b, "JU", "C4")


@pytest.mark.parametrize(
    ("coord", "city", "passes"),
    [
        (None, 0, []),
        (["B11"], 0, []),
        ("B11", "0", []),
        ("B11", 1, []),
        ("B11", True, []),
        ("B11", 0, "B7"),
        ("B11", 0, [None]),
        ("Q1", 0, []),
    ],
)
def test_stations_of_any_shape_raise_illegal_action(line, coord, city, passes) -> None:
    illegal(check_token, line, "MS", coord, city, fc_new=passes)


def test_a_major_out_of_the_game_keeps_no_home() -> None:
    from games.engines.cuba.map.tokens import release_home

    b = release_home(new_board(), "MS")
    assert "B9" not in b["reserved"]
    assert ("B9", 0) in {(o["hex"], o["city"]) for o in fec_home_options(b)}
