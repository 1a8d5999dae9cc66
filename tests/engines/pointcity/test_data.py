"""The component data file: complete, validated at import, shipped in the package."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games.engines.pointcity import data
from games.engines.pointcity.data import CARDS, TOKENS, DataError, load


def test_the_deck_has_160_cards_in_tiers_of_65_50_45():
    tiers = Counter(c.tier for c in CARDS.values() if c.tier)
    assert tiers == {1: 65, 2: 50, 3: 45}


def test_four_ingenuity_starting_cards_one_with_the_first_player_mark():
    starts = [c for c in CARDS.values() if not c.tier]
    assert len(starts) == 4
    assert all(c.resource == "ingenuity" and c.symbols == 1 for c in starts)
    assert [c.id for c in starts if c.first_player] == [data.FIRST_PLAYER_CARD]


def test_five_resource_types_plus_ingenuity_on_resource_sides():
    sides = {c.resource for c in CARDS.values()}
    assert sides == {"community", "economy", "energy", "ecology", "industry", "ingenuity"}


def test_double_symbols_only_in_tiers_two_and_three():
    assert all(c.symbols == 1 for c in CARDS.values() if c.tier <= 1)
    assert any(c.symbols == 2 for c in CARDS.values() if c.tier == 2)


def test_22_civic_tokens_of_seven_kinds():
    assert len(TOKENS) == 22
    assert Counter(t.kind for t in TOKENS.values()) == {
        "per_full_set": 1,
        "flat": 2,
        "per_type_with_at_least": 2,
        "per_missing_type": 1,
        "per_unspent_ingenuity_card": 1,
        "per_permanent_resource": 5,
        "per_pair_set": 10,
    }


def test_civic_and_points_only_buildings_produce_nothing():
    for card in CARDS.values():
        if card.building in ("civic", "points_only"):
            assert card.produces is None
        if card.building == "civic":
            assert card.points == 0


def test_data_file_lives_in_the_package():
    assert data.DATA_FILE.parent == Path(data.__file__).parent
    assert data.DATA_FILE.name == "cards.json"


def _broken(tmp_path: Path, change) -> Path:
    raw = json.loads(data.DATA_FILE.read_text(encoding="utf-8"))
    change(raw)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda raw: raw["cards"].pop(), id="missing-card"),
        pytest.param(lambda raw: raw["cards"][0].update(resource="gold"), id="unknown-resource"),
        pytest.param(lambda raw: raw["cards"][0].update(cost={}), id="free-building"),
        pytest.param(lambda raw: raw["cards"][0].update(produces=None), id="producer-no-output"),
        pytest.param(lambda raw: raw["civic_tokens"].pop(), id="21-tokens"),
        pytest.param(
            lambda raw: raw["setup"]["3"].update(remove_per_tier=[13, 14, 16]), id="odd-pile"
        ),
    ],
)
def test_a_broken_data_file_is_rejected_at_load(tmp_path, change):
    with pytest.raises(DataError):
        load(_broken(tmp_path, change))


def test_the_shipped_data_file_loads():
    assert len(load()["cards"]) == 164
