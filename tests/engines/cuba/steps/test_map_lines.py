"""The lines of the map's moves (a lay, a station, a run), as their steps
declare them, read back to the move for every legal one on randomly built
maps (`play.simulate`), in any case and spacing; a malformed line of a verb
is refused with how it is written, a line of another verb is not its."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.engine import MOVES
from games.engines.cuba.map.laying import legal_lays
from games.engines.cuba.map.optimiser import optimise, plan_json
from games.engines.cuba.map.routes import Train
from games.engines.cuba.map.tokens import legal_tokens
from games.engines.cuba.play.simulate import one_round, phase_for_round, start
from games.engines.cuba.refusals import WORDS
from games.engines.cuba.steps import route, token, track
from games.engines.verbs import Lines, Verb


def read(verb: Verb, line: Any) -> Any:
    """A line as the engine reads it, with `verb`'s lines alone (a map
    move's line reads nothing of the position)."""
    return Lines(WORDS, (verb,)).read(MOVES.normalise(line), {}, 0)


@pytest.mark.slow
def test_every_legal_lay_and_station_round_trips_through_its_line() -> None:
    rng = random.Random(5)
    board, layers = start(rng, majors=5, minors=3)
    seen_lays = seen_tokens = 0
    for n in range(12):
        phase = phase_for_round(n, 12)
        for who in layers:
            for lay in legal_lays(board, who, phase):
                action = {"type": "lay", **{k: v for k, v in lay.items() if k != "cost"}}
                assert read(track.LAY, MOVES.text(action)) == action
                seen_lays += 1
            if who.kind == "major":
                for tok in legal_tokens(board, who.sym):
                    action = {"type": "station", **tok}
                    assert read(token.STATION, MOVES.text(action)) == action
                    seen_tokens += 1
        board, layers = one_round(board, layers, phase, rng)
    assert seen_lays > 100 and seen_tokens > 10


@pytest.mark.slow
def test_routes_round_trip_through_their_line() -> None:
    rng = random.Random(3)
    board, layers = start(rng, majors=4, minors=2)
    for n in range(15):
        board, layers = one_round(board, layers, phase_for_round(n, 15), rng)
    trains = [Train("4", 4), Train("3", 3)]
    for who in layers:
        if who.kind != "major":
            continue
        data = plan_json(board, optimise(board, who.sym, "major", trains), trains, "major")
        routes = [r["paths"] for r in data["routes"]]
        for claim in ([*routes[:1]], [*routes, None], [None, *routes]):
            action = {"type": "run", "routes": claim}
            assert read(route.RUN, MOVES.text(action)) == action
    assert MOVES.text({"type": "run"}) == "run"
    assert read(route.RUN, "run") == {"type": "run"}


def test_a_line_is_forgiving_about_case_and_spaces() -> None:
    assert read(track.LAY, "lay  57 on b9   rot 1 pass b11") == {
        "type": "lay",
        "hex": "B9",
        "tile": "57",
        "rotation": 1,
        "fc_passes": ["B11"],
    }
    assert read(token.STATION, "station b7 city 1") == {
        "type": "station",
        "hex": "B7",
        "city": 1,
        "fc_passes": [],
    }
    assert read(route.RUN, "RUN b9:E1-s0/run NONE") == {
        "type": "run",
        "routes": [["B9:e1-s0"], None],
    }


@pytest.mark.parametrize(
    ("verb", "line"),
    [
        (track.LAY, "lay"),
        (track.LAY, "lay 57 on B9"),
        (track.LAY, "lay 57 on B9 rot 7"),
        (track.LAY, "lay 57 on B9 rot 1 with C9"),
        (token.STATION, "station"),
        (token.STATION, "station 9B"),
        (token.STATION, "station B9 city one"),
        (route.RUN, "run /"),
        (route.RUN, "run B9:e1-s0 / run"),
    ],
)
def test_a_malformed_line_of_a_verb_is_refused(verb, line) -> None:
    with pytest.raises(IllegalAction):
        read(verb, line)


@pytest.mark.parametrize("line", ["", "walk B9:e1-s0", "pass", "layer 57"])
def test_a_line_of_no_map_move_is_none_of_theirs(line) -> None:
    for verb in (track.LAY, token.STATION, route.RUN):
        assert read(verb, line) is None
