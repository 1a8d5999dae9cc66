"""The 2-player easy game on one part of the map (draft X).

The draft: "Use the red and the dark green track tile to demarcate the playing
area. These two track tiles now form the edge of the map. The red tile
symbolizes an off-board area and is treated like a city. The values increase
with the different phases, indicated on the tile. Only normal trains may run
to it. The dark green tile symbolizes a sugar cane field with the value 20.
Only narrow gauge trains may run to it." Eastern part: red on C15 (arrows E
and SE), dark green on B16 (arrow E); NPP, TSS, SdC, FEC. Western part: red
on C19 (arrows W and SW), dark green on D18 (arrow W); Oe, MS, CVC, StSp.

Our grid has none of those four hexes: the tiles lie one row lower (see
README "The 2-player easy map"), and the western red points W and NW.
"""

from __future__ import annotations

import random

import pytest

from games.engines import typed
from games.engines.base import IllegalAction
from games.engines.cuba import setup
from games.engines.cuba.data import variants
from games.engines.cuba.data.companies import BY_SYM, MAJORS, majors_in_play
from games.engines.cuba.data.hexes import (
    HAVANA,
    HEXES,
    LAND,
    MAJOR_HOMES,
    NEIGHBOURS,
    coord_of,
    harbor_accepts,
    parse_coord,
)
from games.engines.cuba.data.tiles import exits, rotated_paths
from games.engines.cuba.map.board import PARTS, buildable, edge_tile, in_play, new_board, side_open
from games.engines.cuba.map.graph import build
from games.engines.cuba.map.laying import Layer, check_lay, legal_lays
from games.engines.cuba.map.optimiser import check_claim, optimise
from games.engines.cuba.map.routes import Train, enumerate_routes, route_of_paths
from games.engines.cuba.map.tokens import (
    check_token,
    choose_minor_home,
    fec_home_options,
    home_token,
    legal_tokens,
    minor_home_options,
)
from games.engines.cuba.play.simulate import MINOR_SYMS, one_round, phase_for_round
from games.engines.cuba.state import CubaState
from games.engines.cuba.words.mapview import map_view

from ..helpers import put, token

SIDES = {"SW": 0, "W": 1, "NW": 2, "NE": 3, "E": 4, "SE": 5}
# Our reading of the red tile's printed values, phases 1 to 7 (README).
RED_VALUES = (20, 20, 30, 30, 40, 50, 60)
# The draft's placements: (red hex, its arrows), (dark green hex, its arrow).
DRAFT = {
    "east": (("C15", {"E", "SE"}), ("B16", {"E"})),
    "west": (("C19", {"W", "SW"}), ("D18", {"W"})),
}


def tile_on(part: str, colour: str) -> tuple[str, set[int]]:
    """The hex and the arrow sides of the red or dark green tile of a part."""
    for coord, (name, rot) in PARTS[part].tiles.items():
        if (name == "RED") == (colour == "red"):
            return coord, set(exits(rotated_paths(name, rot)))
    raise AssertionError(colour)


def one_row_down(coord: str) -> str:
    x, y = parse_coord(coord)
    return coord_of(x, y + 1)


# --- where the parts lie ---------------------------------------------------


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_the_draft_hexes_lie_one_row_lower_in_our_grid(part) -> None:
    (red, red_arrows), (green, green_arrows) = DRAFT[part]
    assert not {red, green} & set(HEXES)  # the draft's numbering is not ours
    assert tile_on(part, "red")[0] == one_row_down(red)
    assert tile_on(part, "dark green")[0] == one_row_down(green)
    assert tile_on(part, "dark green")[1] == {SIDES[a] for a in green_arrows}
    if part == "east":
        assert tile_on(part, "red")[1] == {SIDES[a] for a in red_arrows}


def test_x_the_western_red_cannot_point_sw_into_the_dark_green_tile() -> None:
    red, arrows = tile_on("west", "red")
    green, _ = tile_on("west", "dark green")
    assert NEIGHBOURS[red][SIDES["SW"]] == green  # the draft's SW arrow would end there
    assert arrows == {SIDES["W"], SIDES["NW"]}
    east_red = tile_on("east", "red")[1]
    assert arrows == {(e + 3) % 6 for e in east_red}  # the eastern tile turned round


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_the_two_tiles_form_the_edge_between_the_parts(part) -> None:
    p = PARTS[part]
    inside = {c for c in p.hexes if c in LAND and c not in p.tiles}
    outside = LAND - p.hexes
    assert outside  # something is cut off
    for coord in inside:
        assert not set(NEIGHBOURS[coord]) & outside, coord  # only the tiles touch the far side
    # every arrow runs into the part
    for coord, (name, rot) in p.tiles.items():
        for e in exits(rotated_paths(name, rot)):
            assert NEIGHBOURS[coord][e] in inside


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_the_part_is_connected(part) -> None:
    hexes = PARTS[part].hexes
    start = min(hexes)
    seen, todo = {start}, [start]
    while todo:
        for other in NEIGHBOURS[todo.pop()]:
            if other in hexes and other not in seen:
                seen.add(other)
                todo.append(other)
    assert seen == hexes


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_a_harbor_is_in_play_when_its_arrows_touch_the_part(part) -> None:
    p = PARTS[part]
    for coord, h in HEXES.items():
        if h.is_harbor:
            ends = {NEIGHBOURS[coord][e] for e in range(6) if harbor_accepts(coord, e)}
            inside = {c for c in ends if c in p.hexes and c not in p.tiles}
            assert (coord in p.hexes) == bool(inside), coord


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_homes_of_majors_in_play_lie_inside_and_the_others_outside(part) -> None:
    b = new_board(part)
    playing = set(majors_in_play(part))
    for sym, (coord, _city) in MAJOR_HOMES.items():
        assert buildable(b, coord) == (sym in playing), sym


def test_x_havana_is_in_the_western_part_only() -> None:
    assert HAVANA in PARTS["west"].hexes
    assert HAVANA not in PARTS["east"].hexes


def test_x_each_red_tile_covers_the_home_of_a_major_of_the_other_part() -> None:
    for part, other in (("east", "west"), ("west", "east")):
        red, _ = tile_on(part, "red")
        homes = {c for sym, (c, _i) in MAJOR_HOMES.items() if sym in majors_in_play(other)}
        assert red in homes
        green, _ = tile_on(part, "dark green")
        assert HEXES[green].kind == "sugar"  # the sugar cane field stands on one


# --- majors in play ----------------------------------------------------------


def test_x_four_majors_play_on_each_part() -> None:
    assert majors_in_play("east") == ("NPP", "TSS", "SdC", "FEC")
    assert majors_in_play("west") == ("Oe", "MS", "CVC", "StSp")
    assert set(majors_in_play(None)) == {c.sym for c in MAJORS}
    with pytest.raises(ValueError, match="no part 'north'"):
        majors_in_play("north")


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_homes_of_majors_not_in_play_are_released(part) -> None:
    b = new_board(part)
    held = {sym for owners in b["reserved"].values() for sym in owners}
    assert held == {s for s in majors_in_play(part) if s in MAJOR_HOMES}


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_fc_markers_outside_the_part_stay_off_the_board(part) -> None:
    b = new_board(part)
    marked = {c for c, h in HEXES.items() if h.fc_marker and c != HAVANA}
    assert set(b["fc_pending"]) == {c for c in marked if buildable(b, c)}
    assert (HAVANA in b["tokens"]) == (HAVANA in PARTS[part].hexes)


# --- the red off-board -----------------------------------------------------


def east_line() -> dict:
    """East: red D15 - D17 (plain) - NPP's Camagüey D19 (20) - D21 (plain) -
    Las Tunas E22 (20) - harbor D23 (10)."""
    b = new_board("east")
    put(b, "D17", "9", 1)  # W (red's E arrow) - E
    put(b, "D19", "57", 1)  # W - E
    token(b, "D19", "NPP")
    put(b, "D21", "8", 5)  # W - SE
    put(b, "E22", "5", 2)  # NW - NE (the harbor's arrow)
    return b


def test_x_only_standard_track_runs_to_the_red_tile() -> None:
    red, _ = tile_on("east", "red")
    # HG's mill on Camagüey, narrow track W up to the red's E arrow
    narrow = new_board("east")
    put(narrow, "D19", "L59", 0)  # narrow W, standard NW and SE
    token(narrow, "D19", "HG")
    put(narrow, "D17", "79", 1)  # narrow W - E
    assert (red, 0) not in build(narrow, "n").stop_ids
    assert enumerate_routes(narrow, "HG", "minor", 3, phase=3) == []
    # NPP's standard track on the same hexes reaches it
    standard = new_board("east")
    put(standard, "D19", "57", 1)  # W - E
    token(standard, "D19", "NPP")
    put(standard, "D17", "9", 1)  # W - E
    assert (red, 0) in build(standard, "s").stop_ids
    plan = optimise(standard, "NPP", "major", [Train("2", 2)], phase=3)
    assert plan.revenue == 20 + RED_VALUES[2]


@pytest.mark.parametrize("phase", range(1, 8))
def test_x_the_red_tile_is_worth_its_value_in_the_phase(phase) -> None:
    red = RED_VALUES[phase - 1]
    b = east_line()
    two = [Train("2", 2)]
    assert optimise(b, "NPP", "major", two, phase=phase).revenue == red + 20
    assert optimise(b, "NPP", "major", [Train("3", 3)], phase=phase).revenue == red + 40
    assert optimise(b, "NPP", "major", [Train("4", 4)], phase=phase).revenue == red + 50
    both = optimise(b, "NPP", "major", [Train("2", 2), Train("2", 2)], phase=phase)
    assert both.revenue == (red + 20) + (20 + 20)  # shared stop Camagüey, separate track
    claim = [["D19:e1-s0", "D17:e1-e4", "D15:e4-s0"]]
    assert check_claim(b, "NPP", "major", two, claim, phase=phase).revenue == red + 20


def test_x_the_red_values_rise_with_the_phases() -> None:
    assert list(RED_VALUES) == sorted(RED_VALUES) and RED_VALUES[0] < RED_VALUES[-1]
    view = map_view(new_board("east"), phase=6)
    red = next(h for h in view["hexes"] if h["tile"] == "RED")
    assert red["stops"][0]["phase_revenues"] == list(RED_VALUES)
    assert red["stops"][0]["revenue"] == RED_VALUES[5]


def test_x_the_red_tile_needs_the_phase_to_be_valued() -> None:
    with pytest.raises(ValueError, match="phase"):
        optimise(east_line(), "NPP", "major", [Train("2", 2)])


def test_x_the_red_tile_is_a_route_end() -> None:
    b = east_line()
    # a line on past the red's other arrow (SE) to Bayamo F21
    put(b, "E16", "8", 2)  # NW (the red's SE arrow) - E
    put(b, "E18", "9", 1)  # W - E
    put(b, "E20", "8", 5)  # W - SE
    put(b, "F21", "57", 2)  # NW - SE
    through = [
        "D19:e1-s0",
        "D17:e1-e4",
        "D15:e4-s0",
        "D15:e5-s0",
        "E16:e2-e4",
        "E18:e1-e4",
        "E20:e1-e5",
        "F21:e2-s0",
    ]
    with pytest.raises(IllegalAction, match="cannot run through D15"):
        route_of_paths(b, "NPP", "major", through, phase=3)
    red_stop = build(b, "s").stop_ids[("D15", 0)]
    for route in enumerate_routes(b, "NPP", "major", 4, phase=3):
        assert red_stop not in route.stops[1:-1]


def test_x_the_red_tile_is_no_harbor_for_wagons() -> None:
    """HG's mill on Camagüey holds 2 cubes; NPP shares the mill city."""
    b = east_line()
    put(b, "D19", "L58", 5)  # a mill: standard W and E, narrow NW
    b["tokens"]["D19"] = [["NPP", "HG"]]
    b["tiles"].pop("D21")  # only the red off-board is left as an end
    three = [Train("3", 3)]
    plan = optimise(b, "NPP", "major", three, wagons=[2], cubes={"HG": 2}, phase=3)
    assert (plan.revenue, plan.sugar) == (RED_VALUES[2] + 20, 0)
    put(b, "D21", "8", 5)  # on to Las Tunas and harbor D23
    four = [Train("4", 4)]
    plan = optimise(b, "NPP", "major", four, wagons=[2], cubes={"HG": 2}, phase=3)
    assert plan.sugar == 2 * 30  # red - Camagüey - Las Tunas - harbor


# --- the dark green sugar cane field ----------------------------------------


def east_field() -> dict:
    """East: HG's mill on Camagüey D19 - sugar field C18 (10) - dark green C16 (20)."""
    b = new_board("east")
    put(b, "D19", "L56", 0)  # narrow NW, standard W and SE
    token(b, "D19", "HG")
    put(b, "C18", "L49", 0)  # narrow W (the dark green arrow) - SE
    return b


def test_x_the_dark_green_field_is_worth_20_to_narrow_trains() -> None:
    b = east_field()
    assert optimise(b, "HG", "minor", [Train("2n", 2)]).revenue == 20 + 10
    assert optimise(b, "HG", "minor", [Train("3n", 3)]).revenue == 20 + 10 + 20


def test_x_only_narrow_track_runs_to_the_dark_green_field() -> None:
    green, _ = tile_on("east", "dark green")
    assert (green, 0) in build(east_field(), "n").stop_ids
    # NPP's standard track from Camagüey up to the same arrow is a dead end
    b = new_board("east")
    put(b, "D19", "6", 0)  # SW and NW
    token(b, "D19", "NPP")
    put(b, "C18", "8", 5)  # SE - W (the dark green arrow)
    assert (green, 0) not in build(b, "s").stop_ids
    assert optimise(b, "NPP", "major", [Train("2", 2)], phase=3).revenue == 0


def route_hexes(board: dict, route, gauge: str = "s") -> set[str]:
    net = build(board, gauge)
    return {net.path_hex[p] for p in route.paths}


# --- nothing outside the part ----------------------------------------------


def test_x_nothing_is_laid_outside_the_part() -> None:
    b = new_board("east")
    b = home_token(b, "NPP", "D19", 0)
    npp = Layer("NPP", "major", home="D19")
    with pytest.raises(IllegalAction, match="outside the part"):
        check_lay(b, npp, "C14", "57", 0, 1)
    with pytest.raises(IllegalAction, match="edge of the map"):
        check_lay(b, npp, "D15", "57", 1, 1)
    b["tiles"]["D19"] = ["57", 1]  # W - E
    check_lay(b, npp, "D17", "9", 1, 1)  # W runs into the red's arrow
    with pytest.raises(IllegalAction, match="off the part of the map in play at side 2"):
        check_lay(b, npp, "D17", "8", 2, 1)  # NW faces the dark green's side without arrow


def test_x_nothing_is_tokened_outside_the_part() -> None:
    b = new_board("east")
    b = home_token(b, "NPP", "D19", 0)
    with pytest.raises(IllegalAction, match="outside the part"):
        check_token(b, "NPP", "B9", 0)
    with pytest.raises(IllegalAction, match="edge of the map"):
        check_token(b, "NPP", "D15", 0)
    with pytest.raises(IllegalAction, match="outside the part"):
        home_token(b, "MS", "B9", 0)
    with pytest.raises(IllegalAction, match="edge of the map"):
        home_token(b, "StSp", "D15", 0)
    assert all(buildable(b, o["hex"]) for o in fec_home_options(b))
    assert all(buildable(b, c) for c in minor_home_options(b))
    assert {"F21", "G26"} <= {o["hex"] for o in fec_home_options(b)}


def test_x_a_route_cannot_leave_the_part() -> None:
    """The same track on the whole map and on the eastern part: Cienfuegos D13
    - Sancti Spiritus D15 - D17 - NPP's Camagüey D19, cities worth 20."""
    tiles = {"D13": ("57", 1), "D15": ("57", 1), "D17": ("9", 1), "D19": ("57", 1)}
    whole, east = new_board(), new_board("east")
    for b in (whole, east):
        for coord, (tile, rot) in tiles.items():
            put(b, coord, tile, rot)
        token(b, "D19", "NPP")
    four = [Train("4", 4)]
    assert optimise(whole, "NPP", "major", four, phase=3).revenue == 20 + 20 + 20
    assert optimise(east, "NPP", "major", four, phase=3).revenue == 20 + RED_VALUES[2]
    beyond = ["D19:e1-s0", "D17:e1-e4", "D15:e4-s0", "D15:e1-s0", "D13:e4-s0"]
    route_of_paths(whole, "NPP", "major", beyond)
    with pytest.raises(IllegalAction, match="no usable track"):
        route_of_paths(east, "NPP", "major", beyond, phase=3)
    for route in enumerate_routes(east, "NPP", "major", 5, phase=3):
        assert all(in_play(east, c) for c in route_hexes(east, route))


@pytest.mark.slow
@pytest.mark.parametrize("part", ["east", "west"])
@pytest.mark.parametrize("seed", range(3))
def test_x_random_legal_building_stays_inside_the_part(part, seed) -> None:
    rng = random.Random(seed)
    b = new_board(part)
    layers = []
    for sym in majors_in_play(part):
        if sym in MAJOR_HOMES:
            coord, city = MAJOR_HOMES[sym]
            b = home_token(b, sym, coord, city)
            layers.append(Layer(sym, "major", home=coord, first_turn=True))
    for sym in rng.sample(MINOR_SYMS, 2):
        home = rng.choice(minor_home_options(b))
        b = choose_minor_home(b, sym, home)
        layers.append(Layer(sym, "minor", home=home, first_turn=True))
    rounds = 30
    for n in range(rounds):
        phase = phase_for_round(n, rounds)
        for who in layers:
            assert all(buildable(b, lay["hex"]) for lay in legal_lays(b, who, phase))
            if who.kind == "major":
                assert all(buildable(b, t["hex"]) for t in legal_tokens(b, who.sym))
        b, layers = one_round(b, layers, phase, rng)
    assert b["tiles"]
    for coord, (tile, rot) in b["tiles"].items():
        assert buildable(b, coord)
        assert all(side_open(b, coord, e) for e in exits(rotated_paths(tile, rot)))
    for coord in b["tokens"]:
        assert buildable(b, coord)
    for who in layers:
        trains = [Train("4", 4)] if who.kind == "major" else [Train("3n", 3)]
        plan = optimise(b, who.sym, who.kind, trains, phase=7)
        for route in plan.routes:
            if route is not None:
                assert all(in_play(b, c) for c in route_hexes(b, route, who.gauge))


# --- setup and view --------------------------------------------------------


def test_x_the_two_player_easy_game_needs_a_part() -> None:
    easy = variants.variant(2, "easy")
    with pytest.raises(ValueError, match="east or west"):
        setup.new_game(easy, seed=1)
    with pytest.raises(ValueError, match="no part 'north'"):
        setup.new_game(easy, seed=1, part="north")


@pytest.mark.parametrize("variant", [v for v in variants.VARIANTS if not v.partial_map])
def test_x_other_games_refuse_a_part(variant) -> None:
    with pytest.raises(ValueError, match="whole map"):
        setup.new_game(variant, seed=1, part="east")


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_majors_not_in_play_have_no_charter_and_no_certificates(part) -> None:
    state = setup.new_game(variants.variant(2, "easy"), seed=1, part=part)
    playing = set(majors_in_play(part))
    others = {sym for sym, c in BY_SYM.items() if c.kind != "major"}
    assert set(state["companies"]) == playing | others
    assert set(state["certificates"]) == playing | others
    assert state["board"]["part"] == part
    assert state["board"] == new_board(part)
    assert typed.problems(state, CubaState) == []


def test_x_the_map_view_marks_the_part() -> None:
    b = new_board("west")
    view = map_view(b, phase=2)
    assert view["part"] == "west"
    by_hex = {h["hex"]: h for h in view["hexes"]}
    for coord, h in by_hex.items():
        assert h["in_play"] == (coord in PARTS["west"].hexes)
        assert h["edge"] == (edge_tile(b, coord) is not None)
    red, _ = tile_on("west", "red")
    green, _ = tile_on("west", "dark green")
    assert (by_hex[red]["color"], by_hex[green]["color"]) == ("red", "darkgreen")
    assert by_hex[green]["stops"] == [{"type": "town", "revenue": 20}]
    assert {t["gauge"] for t in by_hex[red]["track"]} == {"standard"}
    assert {t["gauge"] for t in by_hex[green]["track"]} == {"narrow"}
    assert len(view["provisional"]) >= 3 and all(isinstance(s, str) for s in view["provisional"])
    whole = map_view(new_board())
    assert whole["part"] is None and whole["provisional"] == []
    assert all(h["in_play"] and not h["edge"] for h in whole["hexes"])


def test_x_the_special_tiles_are_never_in_the_supply() -> None:
    b = new_board("east")
    assert not {"RED", "DG"} & set(b["supply"])
    with pytest.raises(IllegalAction, match="no tile"):
        check_lay(b, Layer("NPP", "major"), "D17", "RED", 0, 1)


@pytest.mark.parametrize("part", ["east", "west"])
def test_x_the_fc_counts_only_its_markers_in_play(part):
    state = setup.new_game(variants.BY_ID["2e"], 1, part)
    on_board = sum(
        owners.count("FC") for cities in state["board"]["tokens"].values() for owners in cities
    ) + len(state["board"]["fc_pending"])
    assert 0 < on_board < 8
    assert state["companies"]["FC"]["tokens_placed"] == on_board
