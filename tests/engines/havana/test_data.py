"""Component data: validated at import, provisional building list flagged."""

from __future__ import annotations

import pytest

from games.engines.havana import data


def test_the_shipped_building_list_has_36_cards_worth_1_to_7_and_is_marked_provisional():
    assert len(data.BUILDINGS) == 36
    assert {b["vp"] for b in data.BUILDINGS.values()} <= set(range(1, 8))
    assert any(b["vp"] <= 3 for b in data.BUILDINGS.values())
    assert any(b["architect"] for b in data.BUILDINGS.values())
    assert data.PROVISIONAL is True


def test_the_cards_are_one_set_of_thirteen():
    assert [c["value"] for c in data.CARDS] == [0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]
    optional = {c["key"] for c in data.CARDS if c["kind"] == "optional"}
    assert optional == {"refreshment", "conservation"}


GOOD = {"id": 1, "vp": 2, "cost": {"red": 1}, "architect": False}


@pytest.mark.parametrize(
    "bad",
    [
        {**GOOD, "vp": 0},
        {**GOOD, "vp": 8},
        {**GOOD, "id": "1"},
        {**GOOD, "architect": "no"},
        {**GOOD, "cost": {"purple": 1}},
        {**GOOD, "cost": {"red": -1}},
        {**GOOD, "cost": {}},
        {"id": 1, "vp": 2, "cost": {"red": 1}},
    ],
)
def test_a_bad_building_record_is_refused(bad):
    with pytest.raises(data.DataError):
        data.validate_buildings([bad], full_set=False)


def test_a_full_set_must_have_36_distinct_cards():
    with pytest.raises(data.DataError):
        data.validate_buildings([GOOD])
    with pytest.raises(data.DataError):
        data.validate_buildings([GOOD, GOOD], full_set=False)


def test_all_36_buildings_together_ask_no_more_than_the_box_holds_10_per_colour_and_40_gray():
    """The rules' box: 10 cubes of each colour, 40 gray.  The whole provisional
    list fits in it, so spent cubes alone can never leave a building unpayable
    (only the Tax Collector's cubes, sent to the box, can)."""
    demand = dict.fromkeys(data.CUBES, 0)
    for building in data.BUILDINGS.values():
        for colour in data.CUBES:
            demand[colour] += building["cost"].get(colour, 0)
        assert "any_colored" not in building["cost"]
    assert data.TOTAL_CUBES == {"red": 10, "yellow": 10, "blue": 10, "brown": 10, "gray": 40}
    for colour in data.CUBES:
        assert demand[colour] <= data.TOTAL_CUBES[colour], (colour, demand[colour])


def test_the_provisional_list_costs_more_for_more_vp_and_mixes_every_kind_of_cost():
    """What the reviews say of the printed cards: costlier cards give more VP,
    costs mix coloured cubes, gray, workers and pesos, some need the Architect."""

    def size(cost):  # the rules' exchange rates: 5 gray = 1 coloured, 5 pesos = 1 worker
        coloured = sum(cost.get(c, 0) for c in data.COLOURED)
        workers = cost.get("workers", 0)
        return 5 * coloured + cost.get("gray", 0) + 5 * workers + cost.get("pesos", 0)

    by_vp: dict[int, list[int]] = {}
    for building in data.BUILDINGS.values():
        by_vp.setdefault(building["vp"], []).append(size(building["cost"]))
    means = [sum(sizes) / len(sizes) for _, sizes in sorted(by_vp.items())]
    assert sorted(by_vp) == [1, 2, 3, 4, 5, 6, 7]
    assert means == sorted(means)
    fields = {f for b in data.BUILDINGS.values() for f in b["cost"]}
    assert fields == {*data.CUBES, "workers", "pesos"}
    assert 0 < sum(b["architect"] for b in data.BUILDINGS.values()) < 36
