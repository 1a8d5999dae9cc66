"""The static data agrees with itself, with the map and with the draft."""

from __future__ import annotations

import json
from pathlib import Path

from games.engines.cuba import board, companies, hexes, phases, routes, trains, variants

GAMEDATA = Path(__file__).resolve().parents[4] / "shared" / "gamedata" / "18cuba.json"


def test_companies_match_the_map_homes_and_the_board():
    majors = {c.sym for c in companies.MAJORS}
    assert majors == set(board.MAJORS)
    assert {c.sym for c in companies.MINORS} == set(board.MINORS)
    for company in companies.MAJORS:
        assert company.home == hexes.MAJOR_HOMES.get(company.sym)
    assert companies.BY_SYM["FEC"].home is None
    assert companies.BY_SYM["FEC"].available_from_phase == 4


def test_every_company_has_exactly_one_hundred_percent():
    for company in companies.BY_SYM.values():
        split = companies.shares_of(company)
        assert split.director_percent + split.ordinary_count * split.ordinary_percent == 100


def test_components_count_82_major_and_fc_shares_and_24_minor_shares():
    """Draft II: 82 large share cards (8 majors + the FC), 24 small ones (6 minors)."""
    large = sum(companies.shares_of(c).certificates for c in (*companies.MAJORS, companies.FC))
    small = sum(companies.shares_of(c).certificates for c in companies.MINORS)
    assert (large, small) == (82, 24)


def test_train_names_are_read_by_the_route_rules():
    for card in trains.BY_NAME.values():
        assert routes.train_from_name(card.name).distance == card.distance
        if card.obsolete_as:
            assert routes.train_from_name(card.obsolete_as).distance == card.distance - 1


def test_standard_counts_cover_every_variant_and_the_40_cards_of_the_largest_box():
    for stack, counts in trains.STANDARD_COUNTS.items():
        assert tuple(counts) == variants.VARIANT_IDS, stack
    six = trains.STANDARD_COUNTS
    finite = sum(c["6"] for s, c in six.items() if c["6"] is not None)
    assert finite == 12 + 9 + 6 + 4 + 3


def test_wagons_make_the_18_wagon_cards_of_the_box():
    assert sum(w.count for w in trains.WAGONS) == 18


def test_machines_make_the_24_machine_tokens_of_the_box():
    assert [m.count for m in trains.MACHINES] == [12, 8, 4]
    assert [m.bonus for m in trains.MACHINES] == [10, 20, 40]


def test_phase_table_rusts_and_obsoletes_trains_that_exist():
    names = set(trains.BY_NAME)
    for phase in phases.PHASES:
        assert set(phase.rusts) <= names
        assert set(phase.obsolete) <= names
        if phase.trigger is not None:
            assert phase.trigger in trains.STANDARD_COUNTS
    for card in (*trains.STANDARD, *trains.NARROW):
        if card.rusts_in_phase is not None:
            assert card.name in phases.phase(card.rusts_in_phase).rusts, card.name


def test_phase_table_as_the_draft_gives_it():
    table = [
        (p.number, p.tiles[-1], p.operating_rounds, p.major_train_limit) for p in phases.PHASES
    ]
    assert table == [
        (1, "yellow", 1, 4), (2, "yellow", 1, 4), (3, "green", 2, 4), (4, "green", 2, 3),
        (5, "brown", 3, 2), (6, "brown", 3, 2), (7, "gray", 3, 2),
    ]  # fmt: skip


def test_variants_follow_the_draft_summary_table():
    data = json.loads(GAMEDATA.read_text())
    for row in data["players"]["variants"]:
        v = variants.BY_ID[row["id"]]
        assert (v.players, v.starting_cash, v.certificate_limit) == (
            row["players"], row["starting_cash"], row["certificate_limit"],
        )  # fmt: skip
        assert v.concessions_per_player == row["concessions_per_player"]
    assert data["players"]["bank"]["value"] == variants.BANK
    assert variants.variant(2, "easy").partial_map
