"""What a lay opens (map.prospects, said by words.prospects): the stops the
company's legal partial routes reach only after the lay (draft VII.2), and
what the laid hex's stops are worth before and after (VII.3.5, an upgrade)."""

from __future__ import annotations

from games.engines.cuba.data.tiles import TILES
from games.engines.cuba.map.graph import build, reach
from games.engines.cuba.map.laying import Layer, apply_lay, legal_lays
from games.engines.cuba.map.prospects import lay_prospects
from games.engines.cuba.words.prospects import said

from ..helpers import empty_board, put, token

MS = Layer("MS", "major", home="B9")


def matanzas():
    """MS in Matanzas (B9) on a yellow city with track towards Havana (B7)
    and Cardenas (B11)."""
    board = empty_board()
    put(board, "B9", "57", 1)
    token(board, "B9", "MS")
    return board


def opened(board, phase=3):
    lays = legal_lays(board, MS, phase)
    return {(lay["hex"], lay["tile"], lay["rotation"]): p for lay, p in zip(
        lays, lay_prospects(board, MS, phase, (), lays), strict=True)}  # fmt: skip


def stops_reached(board):
    net = build(board, "s")
    return {net.stops[v][:2] for v in reach(board, net, "MS").stops}


def test_a_first_tile_on_a_city_hex_says_the_city_it_reaches_and_its_value():
    prospect = opened(matanzas())[("B11", "57", 1)]
    assert prospect.stops == (("B11", "city", TILES["57"].stops[0].revenue),)
    assert said(prospect) == "reaches Cardenas (B11), city $20"


def test_each_lay_opens_exactly_the_stops_reached_after_it_and_not_before():
    board = matanzas()
    before = stops_reached(board)
    for (coord, tile, rotation), prospect in opened(board).items():
        after = stops_reached(apply_lay(board, MS, coord, tile, rotation))
        # an upgrade renumbers its hex's stops: reached before is not new
        on_before = any(h == coord for h, _i in before)
        new = {(h, i) for h, i in after - before if not (h == coord and on_before)}
        assert {h for h, _kind, _rev in prospect.stops} == {h for h, _i in new}, (coord, tile)


def test_an_upgrade_says_what_the_hexs_stops_pay_before_and_after():
    lays = opened(matanzas())
    upgrade = lays[("B9", "15", 4)]
    assert upgrade.hex_revenue == ((20,), (TILES["15"].stops[0].revenue,))
    assert said(upgrade) == "the hex pays $30 instead of $20"
    havana = lays[("B7", "L45", 0)]
    assert said(havana) == "the hex pays $40, $40, $40 instead of $20, $30"


def test_a_harbor_is_named_once_with_its_value():
    assert said(opened(matanzas())[("B9", "15", 1)]) == (
        "reaches A10 (harbor) $10, A8 (harbor) $10; the hex pays $30 instead of $20"
    )


def test_track_that_reaches_no_stop_says_so():
    board = matanzas()
    put(board, "B11", "57", 1)  # Cardenas already reached, nothing beyond
    said_lays = {said(p) for (coord, *_), p in opened(board, phase=1).items()}
    assert "reaches no new stop" in said_lays
