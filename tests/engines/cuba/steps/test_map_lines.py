"""Text forms of lays, stations and routes round-trip for every legal one."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.map.laying import legal_lays
from games.engines.cuba.map.optimiser import optimise, plan_json
from games.engines.cuba.map.routes import Train
from games.engines.cuba.map.tokens import legal_tokens
from games.engines.cuba.play.simulate import one_round, phase_for_round, start
from games.engines.cuba.words.notation import (
    lay_text,
    parse_lay,
    parse_route,
    parse_token,
    route_text,
    token_text,
)


def test_every_legal_lay_and_station_round_trips_through_text() -> None:
    rng = random.Random(5)
    board, layers = start(rng, majors=5, minors=3)
    seen_lays = seen_tokens = 0
    for n in range(12):
        phase = phase_for_round(n, 12)
        for who in layers:
            for lay in legal_lays(board, who, phase):
                want = {k: lay[k] for k in ("hex", "tile", "rotation", "fc_passes")}
                assert parse_lay(lay_text(lay)) == want
                seen_lays += 1
            if who.kind == "major":
                for tok in legal_tokens(board, who.sym):
                    assert parse_token(token_text(tok)) == tok
                    seen_tokens += 1
        board, layers = one_round(board, layers, phase, rng)
    assert seen_lays > 100 and seen_tokens > 10


def test_routes_round_trip_through_text() -> None:
    rng = random.Random(3)
    board, layers = start(rng, majors=4, minors=2)
    for n in range(15):
        board, layers = one_round(board, layers, phase_for_round(n, 15), rng)
    trains = [Train("4", 4), Train("3", 3)]
    for who in layers:
        if who.kind != "major":
            continue
        data = plan_json(board, optimise(board, who.sym, "major", trains), trains, "major")
        for route in data["routes"]:
            assert parse_route(route_text(route["paths"])) == route["paths"]


def test_text_is_forgiving_about_case_and_spaces() -> None:
    assert parse_lay("lay  57 on b9   rot 1 pass b11") == {
        "hex": "B9",
        "tile": "57",
        "rotation": 1,
        "fc_passes": ["B11"],
    }
    assert parse_token("station b7 city 1") == {"hex": "B7", "city": 1, "fc_passes": []}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "lay",
        "lay 57 on B9",
        "lay 57 on B9 rot 7",
        "station",
        "station 9B",
        "run",
        "walk B9:e1-s0",
        None,
        12,
    ],
)
def test_garbage_raises_illegal_action(text) -> None:
    for parse in (parse_lay, parse_token, parse_route):
        with pytest.raises(IllegalAction):
            parse(text)
