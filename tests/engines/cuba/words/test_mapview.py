"""The map view: everything a client needs to draw the board, as plain JSON."""

from __future__ import annotations

import json

from games.engines.cuba.data.hexes import HEXES
from games.engines.cuba.map.board import new_board
from games.engines.cuba.map.laying import Layer, lay_tile
from games.engines.cuba.map.optimiser import optimise, plan_json
from games.engines.cuba.map.routes import Train
from games.engines.cuba.map.tokens import home_token
from games.engines.cuba.words.mapview import map_view


def test_view_lists_every_hex_with_its_printing() -> None:
    view = map_view(new_board())
    assert len(view["hexes"]) == len(HEXES)
    havana = next(h for h in view["hexes"] if h["hex"] == "B7")
    assert havana["color"] == "yellow"
    assert havana["stops"][1]["tokens"] == ["FC"]
    assert {t["from"] for t in havana["track"]} | {t["to"] for t in havana["track"]} == {
        "e1",
        "s0",
        "e4",
        "s1",
    }
    matanzas = next(h for h in view["hexes"] if h["hex"] == "B9")
    assert matanzas["fc_marker"] and matanzas["reserved"] == ["MS"]
    assert ["C8", 5] in view["barriers"]


def test_view_shows_laid_tiles_rotated_with_tokens_and_routes() -> None:
    b = home_token(new_board(), "MS", "B9", 0)
    b, _ = lay_tile(b, Layer("MS", "major", home="B9", first_turn=True), "B9", "57", 1, 1)
    trains = [Train("2", 2)]
    plan = optimise(b, "MS", "major", trains)
    view = map_view(b, {"MS": plan_json(b, plan, trains, "major")})
    matanzas = next(h for h in view["hexes"] if h["hex"] == "B9")
    assert (matanzas["tile"], matanzas["rotation"], matanzas["color"]) == ("57", 1, "yellow")
    assert sorted((t["from"], t["to"]) for t in matanzas["track"]) == [("e1", "s0"), ("s0", "e4")]
    assert matanzas["stops"][0]["tokens"] == ["MS"]
    route = view["routes"]["MS"]["routes"][0]
    assert route["revenue"] == 50  # Matanzas 20 + Havana's FC city 30
    assert sorted(route["stops"]) == ["B7.1", "B9.0"]
    assert json.loads(json.dumps(view)) == view
