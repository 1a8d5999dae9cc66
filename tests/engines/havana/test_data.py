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
