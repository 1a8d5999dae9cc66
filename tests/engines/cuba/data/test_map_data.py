"""The transcribed map and tile data match the team's gamedata and the draft."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engines.cuba.data import hexes, tiles
from games.engines.cuba.data.hexes import HEXES, NEIGHBOURS, edge_open
from games.engines.cuba.data.tiles import MANIFEST, TILES
from games.engines.cuba.map.upgrades import upgrade_fault

# The team's component facts, copied into the repository with their sources
# (docs/sources.md), so these checks run on every clone.
SOURCE = Path(__file__).resolve().parents[4] / "docs/sources/gamedata/18cuba.json"


@pytest.fixture(scope="module")
def source() -> dict:
    return json.loads(SOURCE.read_text(encoding="utf-8"))


def test_the_map_has_58_hexes_by_kind() -> None:
    kinds: dict[str, int] = {}
    for h in HEXES.values():
        kinds[h.kind] = kinds.get(h.kind, 0) + 1
    assert kinds == {"harbor": 14, "blank": 11, "city": 12, "havana": 1, "sugar": 20}


def test_every_harbor_is_worth_10_and_only_a_route_end() -> None:
    for h in HEXES.values():
        if h.is_harbor:
            assert [(s.type, s.revenue) for s in h.stops] == [("offboard", 10)]


def test_fc_markers_lie_on_the_eight_marked_hexes() -> None:
    assert sorted(hexes.FC_MARKER_HEXES) == sorted(
        ["B7", "B9", "B11", "C14", "D15", "D19", "E22", "G24"]
    )


def test_havana_has_two_one_slot_cities_oe_home_and_fc() -> None:
    h = HEXES["B7"]
    assert [(s.revenue, s.slots) for s in h.stops] == [(20, 1), (30, 1)]
    assert h.homes == {"Oe": 0, "FC": 1}
    assert h.label == "H"


def test_y_cities_are_holguin_and_santiago() -> None:
    assert sorted(c for c, h in HEXES.items() if h.label == "Y") == ["E24", "G24"]


def test_major_homes() -> None:
    assert hexes.MAJOR_HOMES == {
        "Oe": ("B7", 0),
        "MS": ("B9", 0),
        "CVC": ("C14", 0),
        "StSp": ("D15", 0),
        "NPP": ("D19", 0),
        "TSS": ("E22", 0),
        "SdC": ("G24", 0),
    }


def test_barriers_close_both_sides() -> None:
    for a, b in (("C8", "D9"), ("F19", "G20"), ("E26", "F27")):
        ea = hexes.edge_between(a, b)
        assert ea is not None
        assert not edge_open(a, ea)
        assert not edge_open(b, (ea + 3) % 6)


def test_neighbours_match_the_gamedata(source: dict) -> None:
    for h in source["hexes"]:
        for edge, other in h["neighbors"].items():
            assert NEIGHBOURS[h["coord"]][int(edge)] == other


def test_off_map_edges_match_the_gamedata(source: dict) -> None:
    for h in source["hexes"]:
        mine = [e for e in range(6) if NEIGHBOURS[h["coord"]][e] is None]
        assert mine == sorted(h["off_map_edges"])


def test_manifest_counts_physical_tiles_by_colour() -> None:
    by_color: dict[str, int] = {}
    for group, count in MANIFEST.items():
        color = TILES[group.split("/")[0]].color
        by_color[color] = by_color.get(color, 0) + count
    assert by_color == {"yellow": 47, "green": 47, "brown": 30, "gray": 5}
    assert len(TILES) == 94
    assert sum(1 for g in MANIFEST if "/" in g) == 41


def test_double_sided_faces_share_one_group() -> None:
    assert TILES["8"].group == TILES["9"].group == "8/9"
    assert TILES["77"].group == TILES["L50"].group


def test_sugar_mills_are_the_mixed_gauge_city_tiles() -> None:
    mills = sorted(n for n, t in TILES.items() if t.is_mill)
    expected = [f"L{i}" for i in (*range(52, 62), 66, 67, 72, 73, 76, 77)]
    assert mills == sorted(expected)
    assert all(TILES[n].stops[0].slots == 2 for n in mills if TILES[n].color == "yellow")


def test_derived_upgrades_agree_with_the_gamedata(source: dict) -> None:
    """Our upgrade test reproduces the gamedata's derived chart (minus 18Cuba's blocks)."""
    for t in source["tiles"]:
        ours = set()
        for new in TILES:
            if any(upgrade_fault(t["name"], 0, new, r) is None for r in range(6)):
                ours.add(new)
        theirs = set(t["upgrades_to"]) - set(t.get("upgrades_to_blocked_in_18cuba", []))
        assert ours == theirs, t["name"]


def test_rotation_turns_clockwise() -> None:
    assert {p.a for p in tiles.rotated_paths("7", 2)} | {
        p.b for p in tiles.rotated_paths("7", 2)
    } == {("e", 2), ("e", 3)}


@pytest.mark.parametrize(
    ("raw", "stops"),
    [
        ([["e6", "s0", "s"]], 1),
        ([["e0", "s1", "s"]], 1),
        ([["x0", "e1", "s"]], 0),
        ([["e0", "e1", "broad"]], 0),
    ],
)
def test_bad_track_data_is_refused_at_load(raw, stops) -> None:
    with pytest.raises(hexes.DataError):
        hexes.parse_paths(raw, stops, "test")


def test_bad_coordinates_are_refused() -> None:
    for bad in ("", "7B", "B", "Bx"):
        with pytest.raises(hexes.DataError):
            hexes.parse_coord(bad)
    assert hexes.parse_coord("B7") == (6, 1)
    assert hexes.coord_of(6, 1) == "B7"


def test_symmetric_tiles_are_offered_once_per_distinct_rotation() -> None:
    assert tiles.distinct_rotations("L44") == (0,)
    assert len(tiles.distinct_rotations("9")) == 3
    assert len(tiles.distinct_rotations("L45")) == 2  # three equal cities
    assert len(tiles.distinct_rotations("7")) == 6
