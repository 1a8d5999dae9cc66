"""Tile laying and upgrading, draft VII.3.4 and VII.3.5, on hand-built situations."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.data.tiles import MANIFEST, TILES
from games.engines.cuba.map.board import tiles_on_map
from games.engines.cuba.map.laying import Layer, check_lay, lay_tile, legal_lays

from ..helpers import empty_board, put, token

MS = Layer("MS", "major", home="B9")
HG = Layer("HG", "minor", home="C4")


@pytest.fixture
def ms_board():
    """MS in Matanzas (B9) on a yellow city with track to Havana (W) and Cardenas (E)."""
    b = empty_board()
    put(b, "B9", "57", 1)  # exits 1 (B7) and 4 (B11)
    token(b, "B9", "MS")
    return b


@pytest.fixture
def hg_board():
    """Minor HG with its sugar mill in Pinar del Rio (C4), narrow track towards C2."""
    b = empty_board()
    b["reserved"] = {"C4": {"HG": 0}}
    b, _ = lay_tile(b, Layer("HG", "minor", home="C4", first_turn=True), "C4", "L52", 1, 1)
    return b


def illegal(fn, *args, **kw) -> str:
    with pytest.raises(IllegalAction) as exc:
        fn(*args, **kw)
    return exc.value.message


# --- yellow lays -------------------------------------------------------------


def test_yellow_tile_only_on_an_empty_hex(ms_board) -> None:
    put(ms_board, "B11", "57", 1)
    assert "green" in illegal(check_lay, ms_board, MS, "B11", "5", 0, 3)


def test_yellow_tile_may_not_go_on_havana(ms_board) -> None:
    assert "green" in illegal(check_lay, ms_board, MS, "B7", "5", 0, 1)


def test_major_connects_a_new_tile_through_its_own_track(ms_board) -> None:
    assert check_lay(ms_board, MS, "B11", "57", 1, 1).cost == 0


def test_new_tile_must_connect_to_a_station_of_the_company(ms_board) -> None:
    assert "not connected" in illegal(check_lay, ms_board, MS, "B11", "57", 0, 1)
    assert "not connected" in illegal(check_lay, ms_board, MS, "C4", "57", 0, 1)


def test_major_lays_only_standard_gauge_yellow_tiles(ms_board) -> None:
    put(ms_board, "B11", "57", 1)
    token(ms_board, "B11", "MS")
    assert "standard" in illegal(check_lay, ms_board, MS, "C12", "79", 1, 1)


def test_major_lays_no_sugar_mill_tile(ms_board) -> None:
    assert "standard" in illegal(check_lay, ms_board, MS, "B11", "L60", 0, 1)


def test_city_hex_takes_a_city_tile_and_open_hex_plain_track(ms_board) -> None:
    assert "city tile" in illegal(check_lay, ms_board, MS, "B11", "9", 1, 1)
    b = empty_board()
    put(b, "B9", "57", 2)  # exits 2 (A8) and 5 (C10)
    token(b, "B9", "MS")
    assert "plain track" in illegal(check_lay, b, MS, "C10", "5", 2, 1)
    assert check_lay(b, MS, "C10", "9", 2, 1).cost == 0


def test_major_lays_plain_track_on_a_sugar_field_for_10(ms_board) -> None:
    put(ms_board, "B11", "57", 1)
    token(ms_board, "B11", "MS")
    result = check_lay(ms_board, MS, "B13", "9", 1, 1)
    assert result.cost == 10
    assert "standard" in illegal(check_lay, ms_board, MS, "B13", "L48", 2, 1)


def test_no_track_off_the_edge_of_the_map() -> None:
    b = empty_board()
    assert "off the map" in illegal(check_lay, b, Layer("X", "major"), "C8", "9", 0, 1)


def test_no_track_into_a_barrier() -> None:
    b = empty_board()
    put(b, "C10", "L60", 0)
    token(b, "C10", "MS")  # a station next to C8 (rules bypassed to set up)
    # C8 side 5 faces D9 across the impassable C8|D9 border
    assert "barrier" in illegal(check_lay, b, MS, "C8", "7", 4, 1)


def test_no_track_into_the_sea_where_no_harbor_arrow_is() -> None:
    b = empty_board()
    put(b, "C6", "9", 1)  # C6 sides 1 (C4) and 4 (C8)
    token(b, "C4", "MS")
    put(b, "C4", "57", 0)
    b["tokens"]["C4"] = [["MS"]]
    # B5 side 3 faces the harbor A6, whose only arrow points at Havana
    assert "sea" in illegal(check_lay, b, MS, "B5", "7", 3, 1)


def test_track_may_dead_end_against_a_neighbour(ms_board) -> None:
    put(ms_board, "C10", "9", 0)  # unrelated track that does not meet B11's exits
    assert check_lay(ms_board, MS, "B11", "57", 1, 1).cost == 0


def test_first_turn_major_must_lay_on_its_home() -> None:
    b = empty_board()
    token(b, "B9", "MS")
    first = Layer("MS", "major", home="B9", first_turn=True)
    assert check_lay(b, first, "B9", "57", 1, 1).cost == 0
    lays = legal_lays(b, first, 1)
    assert lays and {lay["hex"] for lay in lays} == {"B9"}


# --- minors ------------------------------------------------------------------


def test_minor_first_lay_is_its_sugar_mill_and_places_its_station(hg_board) -> None:
    assert hg_board["tokens"]["C4"] == [["HG"]]
    assert hg_board["tiles"]["C4"] == ["L52", 1]
    assert "C4" not in hg_board["reserved"]


def test_minor_mill_tile_only_on_its_own_home() -> None:
    b = empty_board()
    first = Layer("HG", "minor", home="C4", first_turn=True)
    assert "home" in illegal(check_lay, b, first, "D13", "L52", 0, 1)
    assert {lay["hex"] for lay in legal_lays(b, first, 1)} == {"C4"}


def test_minor_lays_only_narrow_gauge_yellow_tiles(hg_board) -> None:
    assert "narrow" in illegal(check_lay, hg_board, HG, "C2", "8", 4, 1)


def test_minor_lays_only_a_sugar_field_tile_on_sugar_cane_for_free(hg_board) -> None:
    assert check_lay(hg_board, HG, "C2", "L49", 5, 1).cost == 0
    assert "sugar field tile" in illegal(check_lay, hg_board, HG, "C2", "77", 5, 1)


def test_minor_lays_no_other_city_tile(hg_board) -> None:
    assert "home" in illegal(check_lay, hg_board, HG, "D13", "L52", 0, 1)
    assert "narrow" in illegal(check_lay, hg_board, HG, "D13", "5", 0, 1)


def test_minor_connects_only_through_narrow_gauge(hg_board) -> None:
    # the mill's standard sides (0 -> D3, 5 -> D5) do not carry a minor
    assert "not connected" in illegal(check_lay, hg_board, HG, "D3", "78", 2, 1)


def test_minor_may_not_build_in_havana() -> None:
    b = empty_board()
    token(b, "B7", "HG", 0)
    assert "major" in illegal(check_lay, b, HG, "B7", "L44", 0, 3)


# --- upgrades ----------------------------------------------------------------


def test_green_tiles_only_from_phase_3(ms_board) -> None:
    assert "phase 3" in illegal(check_lay, ms_board, MS, "B9", "14", 0, 2)
    assert check_lay(ms_board, MS, "B9", "14", 0, 3).cost == 0


def test_upgrade_goes_one_colour_up(ms_board) -> None:
    assert "green" in illegal(check_lay, ms_board, MS, "B9", "611", 0, 5)


def test_upgrade_keeps_all_existing_track(ms_board) -> None:
    # tile 14 at rotation 2 has sides 2, 3, 5, 0: loses side 1 and 4 of the 57
    assert "lose" in illegal(check_lay, ms_board, MS, "B9", "14", 2, 3)


def test_exchanged_tile_returns_to_the_supply(ms_board) -> None:
    before = dict(ms_board["supply"])
    b, result = lay_tile(ms_board, MS, "B9", "14", 0, 3)
    assert result.replaced == "57"
    assert b["supply"]["5/57"] == before["5/57"] + 1
    assert b["supply"]["14/15"] == before["14/15"] - 1
    assert ms_board["supply"] == before  # the given board is untouched


def test_a_double_sided_tile_uses_up_both_faces() -> None:
    b = empty_board()
    token(b, "B9", "MS")
    first = Layer("MS", "major", home="B9", first_turn=True)
    b["supply"]["5/57"] = 1
    b, _ = lay_tile(b, first, "B9", "5", 0, 1)
    assert b["supply"]["5/57"] == 0
    assert "left" in illegal(check_lay, b, MS, "C4", "57", 0, 1)


def test_havana_takes_a_green_h_tile_first_and_keeps_its_stations() -> None:
    b = empty_board()
    token(b, "B7", "Oe", 0)
    oe = Layer("Oe", "major", home="B7")
    assert "phase 3" in illegal(check_lay, b, oe, "B7", "L44", 0, 2)
    b2, _ = lay_tile(b, oe, "B7", "L44", 0, 3)
    assert sorted(b2["tokens"]["B7"][0]) == ["FC", "Oe"]
    b3, _ = lay_tile(b, oe, "B7", "L45", 0, 3)
    assert b3["tokens"]["B7"] == [["Oe"], ["FC"], []]


def test_h_tiles_go_only_on_havana(ms_board) -> None:
    assert "H tiles" in illegal(check_lay, ms_board, MS, "B9", "L44", 0, 3)


def test_y_cities_take_only_y_tiles() -> None:
    b = empty_board()
    token(b, "G24", "SdC")
    sdc = Layer("SdC", "major", home="G24")
    assert "label" in illegal(check_lay, b, sdc, "G24", "5", 0, 1)
    assert check_lay(b, sdc, "G24", "201", 2, 1).cost == 0


def test_major_plain_upgrade_must_extend_standard_track() -> None:
    b = empty_board()
    put(b, "B9", "57", 2)  # exits 2 and 5 (C10)
    token(b, "B9", "MS")
    put(b, "C10", "79", 1)  # narrow 1-4, crossing MS's way in at side 2
    # 711 at rotation 4 keeps narrow 1-4 and adds standard 0-2: MS extends its gauge
    assert check_lay(b, MS, "C10", "711", 4, 3).cost == 0


def test_minor_plain_upgrade_must_extend_narrow_track(hg_board) -> None:
    b, _ = lay_tile(hg_board, HG, "C2", "L49", 5, 1)
    put(b, "D3", "9", 0)  # standard 0-3 (E2 to C4), bypassing rules
    put(b, "D3", "79", 2)  # narrow 2-5 (C2 to E4)
    # green 711 at rotation 2 keeps narrow 2-5 and only adds standard: not allowed
    assert "narrow" in illegal(check_lay, b, HG, "D3", "711", 2, 3)


def test_sugar_mill_tiles_only_upgrade_sugar_mills(ms_board) -> None:
    assert "kind" in illegal(check_lay, ms_board, MS, "B9", "L66", 0, 3)


def test_major_may_upgrade_a_sugar_mill(hg_board) -> None:
    token(hg_board, "C4", "MS")
    assert check_lay(hg_board, MS, "C4", "L66", 4, 3).cost == 0


def test_minor_upgrades_no_city_but_its_home(hg_board) -> None:
    put(hg_board, "D13", "L52", 0)
    token(hg_board, "D13", "JU")
    token(hg_board, "D13", "HG")
    assert "home" in illegal(check_lay, hg_board, HG, "D13", "L66", 3, 3)


def test_minor_upgrades_sugar_field_tiles(hg_board) -> None:
    b, _ = lay_tile(hg_board, HG, "C2", "L49", 5, 1)
    assert check_lay(b, HG, "C2", "L64", 5, 3).cost == 0


def test_upgrades_cost_nothing_even_on_sugar_cane(ms_board) -> None:
    put(ms_board, "B11", "57", 1)
    token(ms_board, "B11", "MS")
    b, first = lay_tile(ms_board, MS, "B13", "9", 1, 1)
    assert first.cost == 10
    assert check_lay(b, MS, "B13", "23", 1, 3).cost == 0


def test_fc_marker_moves_into_a_slot_when_its_hex_turns_green(ms_board) -> None:
    assert "B9" in ms_board["fc_pending"]
    b, _ = lay_tile(ms_board, MS, "B9", "14", 0, 3)
    assert b["tokens"]["B9"] == [["MS", "FC"]]
    assert "B9" not in b["fc_pending"]


def test_reservations_follow_the_city_on_upgrade() -> None:
    b = empty_board()
    b["reserved"] = {"B7": {"Oe": 0}}
    token(b, "B7", "MS", 0)
    b["tokens"]["B7"] = [[], ["FC"]]
    token(b, "B9", "MS")
    put(b, "B9", "57", 1)
    b2, _ = lay_tile(b, MS, "B7", "L45", 5, 3)
    assert b2["reserved"] == {"B7": {"Oe": 0}}
    assert b2["tokens"]["B7"][2] == ["FC"]


# --- FC tokens and commissioners --------------------------------------------


@pytest.fixture
def fc_blocked():
    """MS in B9; Cardenas (B11) green and full with CVC and the FC."""
    b = empty_board()
    put(b, "B9", "57", 1)
    token(b, "B9", "MS")
    put(b, "B11", "14", 0)  # sides 0, 1, 3, 4
    b["tokens"]["B11"] = [["CVC", "FC"]]
    return b


def test_paying_20_passes_an_fc_token_for_laying(fc_blocked) -> None:
    assert "not connected" in illegal(check_lay, fc_blocked, MS, "B13", "9", 1, 3)
    result = check_lay(fc_blocked, MS, "B13", "9", 1, 3, fc_new=["B11"])
    assert (result.cost, result.fc_fee) == (10, 20)
    assert check_lay(fc_blocked, MS, "B13", "9", 1, 3, fc_paid=["B11"]).fc_fee == 0


def test_fc_pass_only_where_it_is_needed(fc_blocked) -> None:
    assert "not needed" in illegal(check_lay, fc_blocked, MS, "B9", "14", 0, 3, fc_new=["B11"])


def test_an_fc_pass_does_not_open_a_city_full_of_other_stations(fc_blocked) -> None:
    fc_blocked["tokens"]["B11"] = [["CVC", "StSp"]]
    assert "does not block" in illegal(check_lay, fc_blocked, MS, "B13", "9", 1, 3, fc_new=["B11"])


def test_minors_may_not_pay_fc_passes(hg_board) -> None:
    assert "major" in illegal(check_lay, hg_board, HG, "C2", "L49", 5, 1, fc_new=["B7"])


def test_legal_lays_offer_fc_passes(fc_blocked) -> None:
    lays = legal_lays(fc_blocked, MS, 3)
    b13 = [lay for lay in lays if lay["hex"] == "B13"]
    assert b13 and all(lay["fc_passes"] == ["B11"] for lay in b13)
    assert all(lay["fc_passes"] == [] for lay in lays if lay["hex"] == "B9")


def test_commissioner_lays_only_its_tile_kind(ms_board) -> None:
    assert "yellow city" in illegal(check_lay, ms_board, MS, "B9", "14", 0, 3, commissioner=2)
    assert check_lay(ms_board, MS, "B9", "14", 0, 3, commissioner=4).cost == 0
    assert "plain" in illegal(check_lay, ms_board, MS, "B9", "14", 0, 3, commissioner=3)


def test_commissioner_lays_no_y_city_tile() -> None:
    b = empty_board()
    token(b, "G24", "SdC")
    sdc = Layer("SdC", "major", home="G24")
    assert "Y" in illegal(check_lay, b, sdc, "G24", "201", 2, 1, commissioner=2)


def test_every_legal_lay_passes_check_lay(ms_board) -> None:
    for lay in legal_lays(ms_board, MS, 7):
        check_lay(
            ms_board, MS, lay["hex"], lay["tile"], lay["rotation"], 7, fc_new=lay["fc_passes"]
        )


def test_malformed_lays_raise_illegal_action(ms_board) -> None:
    for args in (
        ("Z99", "5", 0),
        ("B11", "nope", 0),
        ("B11", "57", 9),
        ("B11", "57", "1"),
        ("B11", "57", True),
        ("A8", "7", 0),
    ):
        illegal(check_lay, ms_board, MS, *args, 1)


def test_manifest_is_conserved_by_lays(ms_board) -> None:
    b, _ = lay_tile(ms_board, MS, "B11", "57", 1, 1)
    b, _ = lay_tile(b, MS, "B11", "14", 0, 3)
    on_map = tiles_on_map(b)
    for group, total in MANIFEST.items():
        assert b["supply"][group] + on_map.get(group, 0) == total
    assert TILES["14"].group in on_map


def test_major_may_not_upgrade_plain_track_without_more_standard_gauge() -> None:
    b = empty_board()
    put(b, "B9", "57", 2)  # exits 2 and 5 (C10)
    token(b, "B9", "MS")
    put(b, "C10", "8", 2)  # standard 2-4
    # 712 at rotation 2 keeps standard 2-4 and only adds narrow 3-5
    assert "extend" in illegal(check_lay, b, MS, "C10", "712", 2, 3)
    assert check_lay(b, MS, "C10", "24", 2, 3).cost == 0


def test_upgrade_must_leave_room_for_the_stations_already_there() -> None:
    b = empty_board()
    put(b, "B7", "L46", 0)
    b["tokens"]["B7"] = [["Oe", "FC", "MS", "CVC"]]
    oe = Layer("Oe", "major", home="B7")
    assert "no room" in illegal(check_lay, b, oe, "B7", "L47", 0, 7)
    b["tokens"]["B7"] = [["Oe", "FC", "MS"]]
    assert check_lay(b, oe, "B7", "L47", 0, 7).cost == 0


@pytest.mark.parametrize(
    ("coord", "tile", "rot", "passes"),
    [
        (None, "57", 1, []),
        (["B11"], "57", 1, []),
        ("B11", ["57"], 1, []),
        ("B11", 57, 1, []),
        ("B11", "57", 1.0, []),
        ("B11", "57", 1, "B7"),
        ("B11", "57", 1, [["B7"]]),
    ],
)
def test_lays_of_any_shape_raise_illegal_action(ms_board, coord, tile, rot, passes) -> None:
    illegal(check_lay, ms_board, MS, coord, tile, rot, 1, fc_new=passes)


@pytest.mark.parametrize(("tile", "phase"), [("14", 3), ("611", 5), ("455", 7)])
def test_each_colour_arrives_with_its_phase(tile, phase) -> None:
    b = empty_board()
    put(
        b, "B9", {"14": "57", "611": "14", "455": "611"}[tile], {"14": 1, "611": 0, "455": 0}[tile]
    )
    token(b, "B9", "MS")
    assert "phase" in illegal(check_lay, b, MS, "B9", tile, 0, phase - 1)
    assert check_lay(b, MS, "B9", tile, 0, phase).replaced is not None


def test_minor_lays_only_plain_narrow_track_on_open_hexes(hg_board) -> None:
    b = empty_board()
    b["reserved"] = {"C4": {"HG": 0}}
    b, _ = lay_tile(b, Layer("HG", "minor", home="C4", first_turn=True), "C4", "L52", 3, 1)
    # the mill's narrow side 3 faces B5, an open hex: no sugar field tile there
    assert "plain track" in illegal(check_lay, b, HG, "B5", "L50", 0, 1)
    assert check_lay(b, HG, "B5", "77", 5, 1).cost == 0


def test_a_full_sugar_mill_blocks_another_minor() -> None:
    b = empty_board()
    put(b, "B9", "L52", 4)  # JU's mill, narrow side 4 towards Cardenas
    token(b, "B9", "JU")
    put(b, "B11", "L67", 1)  # HG's green mill: narrow sides 1 (Matanzas) and 5 (C12)
    for sym in ("HG", "MS", "CVC"):
        token(b, "B11", sym)
    ju = Layer("JU", "minor", home="B9")
    assert "not connected" in illegal(check_lay, b, ju, "C12", "78", 0, 1)
    b["tokens"]["B11"] = [["HG", "MS"]]  # a free slot: JU may trace through
    assert check_lay(b, ju, "C12", "78", 0, 1).cost == 0


def test_a_city_with_a_free_slot_can_be_passed_to_build_beyond(ms_board) -> None:
    put(ms_board, "B11", "57", 1)
    token(ms_board, "B11", "CVC")  # full: one slot, CVC
    assert "not connected" in illegal(check_lay, ms_board, MS, "B13", "9", 1, 3)
    put(ms_board, "B11", "14", 0)  # green: two slots, one free
    assert check_lay(ms_board, MS, "B13", "9", 1, 3).cost == 10
