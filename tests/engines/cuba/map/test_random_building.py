"""Random legal track building never breaks a rule or loses a tile.

Seeded games of random legal lays and stations (``simulate``) run through all
seven phases; after every round the board is checked against rules that hold
for any legal map.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.data.hexes import HAVANA, HEXES, edge_open
from games.engines.cuba.data.tiles import MANIFEST, TILES, exits
from games.engines.cuba.map.board import MINORS, company_hexes, content, tiles_on_map
from games.engines.cuba.map.laying import check_lay, legal_lays
from games.engines.cuba.play.simulate import one_round, phase_for_round, start
from games.engines.cuba.words.mapview import map_view

# slow: builds random maps lay by lay, seconds a seed.
pytestmark = pytest.mark.slow

ROUNDS = 28


def check_board(board) -> None:
    on_map = tiles_on_map(board)
    for group, total in MANIFEST.items():
        assert board["supply"][group] >= 0
        assert board["supply"][group] + on_map.get(group, 0) == total, group
    for coord, (name, rot) in board["tiles"].items():
        tile, h = TILES[name], HEXES[coord]
        assert not h.is_harbor
        assert tile.label == h.label
        assert all(edge_open(coord, e) for e in exits(content(board, coord).paths))
        if h.kind == "blank":
            assert tile.is_plain
        if h.kind in ("city", "havana"):
            assert tile.cities >= 1
        if h.kind == "sugar":
            assert tile.is_plain or tile.is_sugar_field
        assert 0 <= rot < 6
    owners_seen: dict[str, set[str]] = {}
    for coord, cities in board["tokens"].items():
        stops = content(board, coord).stops
        assert len(cities) == len(stops)
        for stop, owners in zip(stops, cities, strict=True):
            assert len(owners) <= stop.slots
            for sym in owners:
                assert coord not in owners_seen.setdefault(sym, set()) or sym == "FC"
                owners_seen[sym].add(coord)
                if sym in MINORS:
                    assert TILES[board["tiles"][coord][0]].is_mill
                if sym == "FC" and coord != HAVANA:
                    assert TILES[board["tiles"][coord][0]].color != "yellow"
    for coord in board["fc_pending"]:
        laid = board["tiles"].get(coord)
        assert laid is None or TILES[laid[0]].color == "yellow"
    assert json.loads(json.dumps(board)) == board


@pytest.mark.parametrize("seed", range(8))
def test_random_legal_building_keeps_the_map_legal(seed: int) -> None:
    rng = random.Random(seed)
    board, layers = start(rng, majors=rng.randint(3, 7), minors=rng.randint(1, 6))
    for n in range(ROUNDS):
        phase = phase_for_round(n, ROUNDS)
        before = json.dumps(board, sort_keys=True)
        new, layers = one_round(board, layers, phase, rng)
        assert json.dumps(board, sort_keys=True) == before  # never mutated
        board = new
        check_board(board)
    assert len(board["tiles"]) > 20
    # a sample of the legal lays all pass the validator
    for who in layers:
        lays = legal_lays(board, who, 7)
        for lay in rng.sample(lays, min(5, len(lays))):
            check_lay(
                board, who, lay["hex"], lay["tile"], lay["rotation"], 7, fc_new=lay["fc_passes"]
            )


def test_every_company_keeps_its_stations() -> None:
    rng = random.Random(99)
    board, layers = start(rng, majors=7, minors=6)
    homes = {who.sym for who in layers if who.kind == "major"}
    for n in range(ROUNDS):
        board, layers = one_round(board, layers, phase_for_round(n, ROUNDS), rng)
    for sym in homes:
        assert company_hexes(board, sym)
    view = map_view(board)
    assert len(view["hexes"]) == len(HEXES)
    assert json.loads(json.dumps(view)) == view


@pytest.mark.parametrize("seed", range(4))
def test_legal_lays_are_exactly_the_lays_check_lay_accepts(seed: int) -> None:
    """On random maps, any (hex, tile, rotation) passes check_lay iff it is listed."""
    rng = random.Random(1000 + seed)
    board, layers = start(rng, majors=5, minors=3)
    rounds = rng.randint(4, 20)
    for n in range(rounds):
        board, layers = one_round(board, layers, phase_for_round(n, 24), rng)
    phase = phase_for_round(rounds, 24)
    hexes = sorted(h for h in HEXES if not HEXES[h].is_harbor)
    for who in layers:
        listed = {(x["hex"], x["tile"], x["rotation"]): x for x in legal_lays(board, who, phase)}
        for key, lay in listed.items():
            check_lay(board, who, *key, phase, fc_new=lay["fc_passes"])
        near = sorted({k[0] for k in listed}) + rng.sample(hexes, 3)
        for coord in near:
            for tile in rng.sample(sorted(TILES), 12):
                for rot in range(6):
                    try:
                        check_lay(board, who, coord, tile, rot, phase)
                    except IllegalAction:
                        continue
                    # a symmetric tile is listed under one of its equal rotations
                    same = [k for k in listed if k[:2] == (coord, tile)]
                    assert any(listed[k]["fc_passes"] == [] for k in same), (coord, tile, rot)
