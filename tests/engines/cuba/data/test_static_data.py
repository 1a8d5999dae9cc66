"""The static data agrees with itself, with the map and with the draft."""

from __future__ import annotations

from games.engines.cuba.data import companies, hexes, phases, trains, variants
from games.engines.cuba.map import board, routes


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
    """Starting cash, certificate limit (VI.3) and concessions (VI.6) per setup,
    as the draft's summary table gives them (it wins over the setup section)."""
    table = {
        "2e": (2, 720, 20, 1), "2h": (2, 880, 24, 2), "2c": (2, 1100, 35, 3),
        "3e": (3, 700, 22, 1), "3h": (3, 850, 25, 2),
        "4": (4, 680, 20, 1), "5": (5, 650, 17, 1), "6": (6, 650, 15, 1),
    }  # fmt: skip
    for vid, (players, cash, limit, concessions) in table.items():
        v = variants.BY_ID[vid]
        assert (v.players, v.starting_cash, v.certificate_limit) == (players, cash, limit)
        assert v.concessions_per_player == concessions
    assert tuple(table) == variants.VARIANT_IDS
    assert variants.BANK == 8000
    assert variants.variant(2, "easy").partial_map
    assert not any(v.partial_map for v in variants.VARIANTS if v.id != "2e")
