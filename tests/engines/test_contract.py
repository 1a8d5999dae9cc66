"""The engine protocol (docs/design.md, "Engine contract"), checked the same way for
every title that has an engine: its registration and options, every step of
seeded random games at every player count (legal lists, text lines, views,
timeouts, malformed input, an untouched input state), determinism, leaving,
and the one shape of `result` at the end.

Rules of a single title stay in that title's own tests.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import random
import re
from pathlib import Path

import pytest

from games.engines import base
from games.engines.base import IllegalAction, canonical_json

TITLES = sorted(base.available())
COUNTS = [
    (name, players)
    for name in TITLES
    for players in range(base.get(name).MIN_PLAYERS, base.get(name).MAX_PLAYERS + 1)
]
CLOSE_GAMES = 2  # games per title and count with every check at every step
QUICK_GAMES = 6  # further games per title and count, checked at the end only
MAX_STEPS = 5000
MALFORMED_PER_STEP = 12  # bent actions tried at each step of the close games
RESULT_KEYS = {"winners", "places", "scores", "ended_by", "breakdown"}
ENDED_BY = re.compile(r"[a-z][a-z0-9_]*")


def engine_of(name: str) -> base.Engine:
    return base.get(name)


def readme(name: str) -> str:
    package = importlib.import_module(base.KNOWN_TITLES[name])
    return (Path(package.__file__).parent / "README.md").read_text()


def options_for(engine: base.Engine, rng: random.Random) -> dict:
    """A random choice for every option that lists its choices."""
    return {
        name: rng.choice(spec["choices"])
        for name, spec in engine.OPTIONS.items()
        if spec.get("choices")
    }


def setup_with_random_options(engine: base.Engine, players: int, seed: int, rng: random.Random):
    """(options, state) for a random choice of options this player count
    takes: a title may refuse a combination (18Cuba has no challenging
    3-player game), and must do so with IllegalAction, nothing else."""
    for _ in range(50):
        options = options_for(engine, rng)
        try:
            return options, engine.setup(players, options, seed)
        except IllegalAction:
            continue
    raise AssertionError(f"{engine.NAME} refused 50 random option choices for {players} players")


def is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# -- the result ---------------------------------------------------------------


def check_result(name: str, result, players: int) -> None:
    """The one shape of a finished game (docs/design.md, `result`)."""
    assert isinstance(result, dict)
    solo = players == 1
    assert set(result) == (RESULT_KEYS | {"opponent"} if solo else RESULT_KEYS)
    winners, places, scores = result["winners"], result["places"], result["scores"]
    breakdown = result["breakdown"]
    for values in (places, scores, breakdown):
        assert isinstance(values, list) and len(values) == players
    assert all(is_number(s) for s in scores)
    assert all(type(p) is int and p >= 1 for p in places)
    opponent = result.get("opponent")
    if solo:
        assert set(opponent) == {"score"} and is_number(opponent["score"])
    for seat, place in enumerate(places):
        ahead = sum(1 for other in places if other < place)
        if opponent is None:
            assert place == 1 + ahead, places
        elif scores[seat] != opponent["score"]:
            assert place == 1 + ahead + (opponent["score"] > scores[seat]), result
        else:  # the title's rules settle a tie with the opponent
            assert place in (1 + ahead, 2 + ahead), result
        # Seats share a place only when tied on score (tie-breakers come after).
        assert all(scores[o] == scores[seat] for o in range(players) if places[o] == place)
    assert winners == [s for s in range(players) if places[s] == 1]
    for seat, parts in enumerate(breakdown):
        assert isinstance(parts, dict) and parts
        assert all(isinstance(k, str) and k and is_number(v) for k, v in parts.items())
        assert math.isclose(sum(parts.values()), scores[seat]), (seat, parts, scores)
    ended_by = result["ended_by"]
    assert isinstance(ended_by, str) and ENDED_BY.fullmatch(ended_by), ended_by
    assert f"`{ended_by}`" in readme(name), f"{name}'s README does not list {ended_by!r}"
    assert json.loads(canonical_json(result)) == result


def test_the_result_check_refuses_what_the_shape_forbids():
    good = {
        "winners": [1],
        "places": [2, 1],
        "scores": [3, 5],
        "ended_by": "target",
        "breakdown": [{"buildings": 3}, {"buildings": 5}],
    }
    check_result("havana", good, 2)
    bad = [
        {**good, "reason": "target"},
        {**good, "winners": [0, 1]},
        {**good, "places": [1, 1]},
        {**good, "places": [3, 1]},
        {**good, "scores": [3, "5"]},
        {**good, "ended_by": "the target was reached"},
        {**good, "ended_by": "not_in_the_readme"},
        {**good, "breakdown": [{"buildings": 3}, {"buildings": 4}]},
        {**good, "opponent": {"score": 4}},
    ]
    for result in bad:
        with pytest.raises(AssertionError):
            check_result("havana", result, 2)
    solo = {**good, "winners": [], "places": [2], "scores": [3], "breakdown": [{"b": 3}]}
    check_result("havana", {**solo, "opponent": {"score": 3}}, 1)
    with pytest.raises(AssertionError):
        check_result("havana", {**solo, "opponent": {"score": 2}}, 1)


# -- registration -------------------------------------------------------------


@pytest.mark.parametrize("name", TITLES)
def test_the_title_is_registered_and_describes_itself(name):
    engine = engine_of(name)
    assert isinstance(engine, base.Engine)
    assert name == engine.NAME
    assert isinstance(engine.TITLE, str) and engine.TITLE
    assert type(engine.VERSION) is int and engine.VERSION >= 1
    assert 1 <= engine.MIN_PLAYERS <= engine.MAX_PLAYERS
    for option, spec in engine.OPTIONS.items():
        assert isinstance(option, str) and {"default", "help"} <= set(spec)
    assert json.loads(json.dumps(engine.OPTIONS)) == engine.OPTIONS
    with pytest.raises(IllegalAction):
        engine.setup(engine.MIN_PLAYERS, {"no_such_option": 1}, 1)


@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_setup_is_plain_json_and_a_pure_function_of_its_arguments(name, players):
    engine = engine_of(name)
    first = engine.setup(players, {}, 5)
    assert canonical_json(first) == canonical_json(engine.setup(players, {}, 5))
    assert json.loads(canonical_json(first)) == first
    assert engine.result(first) is None
    assert engine.to_act(first)


@pytest.mark.parametrize("name", TITLES)
def test_lines_that_are_no_command_and_actions_that_are_none_are_refused(name):
    engine = engine_of(name)
    state = engine.setup(engine.MIN_PLAYERS, {}, 1)
    seat = min(engine.to_act(state))
    for line in ["", "   ", "xyzzy", "\x00", "9" * 200]:
        with pytest.raises(IllegalAction):
            engine.parse(line, state, seat)
    for action in [None, {}, {"type": "no-such-move"}]:
        with pytest.raises(IllegalAction):
            engine.text(action)


# -- every step of a game -----------------------------------------------------

JUNK = [None, [], "x", 3, {}, {"type": 5}, {"type": "no-such-move"}, {"kind": "x"}]
WRONG_VALUES = [None, "x", -1, 10**9, [1], {"a": 1}]


def lookalikes(value):
    """Values Python calls equal to `value` that JSON tells apart."""
    if isinstance(value, bool):
        return [int(value)]
    if isinstance(value, int):
        found = [float(value)]
        return [*found, bool(value)] if value in (0, 1) else found
    return []


def malformed(legal: list[dict]):
    """Junk, and every listed action bent: a key dropped, a value of the
    wrong type or a lookalike, an extra key."""
    yield from JUNK
    for action in legal[:4]:
        for key, value in action.items():
            yield {k: v for k, v in action.items() if k != key}
            if key == "type":
                continue
            for wrong in [*WRONG_VALUES, *lookalikes(value)]:
                yield {**action, key: wrong}
        yield {**action, "extra": 1}


def check_step(engine, state, players, rng, seen, number=0):
    """Every contract check that reads one running state (the `number`th of
    its game)."""
    before = canonical_json(state)
    to_act = engine.to_act(state)
    assert to_act and to_act <= set(range(players))
    assert engine.result(state) is None
    viewers = [None, *range(players)]
    for i, viewer in enumerate(viewers):
        view = engine.view(state, viewer)
        # Every view is drawn at every step, but the JSON round trip of one
        # viewer's in turn: for every viewer it was a third of the walk.
        if i == number % len(viewers):
            assert json.loads(canonical_json(view)) == view
    for seat in range(players):
        legal = engine.legal_actions(state, seat)
        if seat not in to_act:
            assert legal == []
            with pytest.raises(IllegalAction):
                engine.timeout_action(state, seat)
            continue
        keys = [canonical_json(a) for a in legal]
        assert legal and len(set(keys)) == len(keys)
        for action in legal:
            assert isinstance(action.get("type"), str)
            assert json.loads(canonical_json(action)) == action
            line = engine.text(action)
            assert isinstance(line, str) and line and "\n" not in line
            assert engine.parse(line, state, seat) == action, line
        assert engine.timeout_action(state, seat) in legal
        for action in rng.sample(legal, min(3, len(legal))):
            after = engine.apply(state, seat, action)
            public = engine.public_action(state, seat, action)
            assert public is None or public.get("type") == action["type"]
            assert engine.takeback_allowed(state, seat, action, after) in (True, False)
        # Actions listed elsewhere in the game apply here exactly when listed,
        # or when the title's `candidates` admits them beside its list (moves
        # no list can hold: 18Cuba's offer at a price between the listed ones).
        listed = set(keys)
        for action in rng.sample(list(seen.values()), min(10, len(seen))):
            admitted = action in engine.candidates(state, seat, action)
            if canonical_json(action) not in listed and not admitted:
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, action)
        seen.update(zip(keys, legal, strict=True))
        # A sample at each step: the same few bends of the same few actions
        # at every step of a long game would try the same code paths again
        # and again; over a game's hundreds of steps the sample tries them all.
        bent = list(malformed(legal))
        for bad in rng.sample(bent, min(MALFORMED_PER_STEP, len(bent))):
            if canonical_json(bad) not in listed:
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, bad)
        for other in (-1, players, None, str(seat)):
            with pytest.raises(IllegalAction):
                engine.apply(state, other, legal[0])
    assert canonical_json(state) == before, "a call changed the state it was given"


def check_over(engine, state, players):
    assert engine.to_act(state) == set()
    for seat in range(players):
        assert engine.legal_actions(state, seat) == []
        with pytest.raises(IllegalAction):
            engine.timeout_action(state, seat)
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, {"type": "no-such-move"})
    for viewer in [None, *range(players)]:
        view = engine.view(state, viewer)
        assert json.loads(canonical_json(view)) == view


def playout(engine, players, seed, *, step=None, leave_at=None):
    """One seeded random game to its end: (setup options, moves, final state).

    `step(state, seat, action)` sees every state before its move; with
    `leave_at` a random seat resigns before that move.
    """
    rng = random.Random(seed)
    options, state = setup_with_random_options(engine, players, seed, rng)
    moves = []
    while engine.result(state) is None:
        assert len(moves) < MAX_STEPS, "the game does not end"
        if len(moves) == leave_at:
            state = resign_someone(engine, state, players, rng)
            leave_at = None
            continue
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        if step:
            step(state, seat, action)
        before = canonical_json(state)
        after = engine.apply(state, seat, action)
        assert canonical_json(state) == before, "apply changed the state it was given"
        moves.append((seat, action))
        state = after
    return options, moves, state


def resign_someone(engine, state, players, rng):
    seat = rng.randrange(players)
    before = canonical_json(state)
    after = engine.resign(state, seat)
    assert canonical_json(state) == before, "resign changed the state it was given"
    if after is None:  # the title cannot go on without the seat: the game would abort
        return state
    assert json.loads(canonical_json(after)) == after
    return after


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_every_step_of_random_games_keeps_the_contract(name, players):
    engine = engine_of(name)
    for game in range(CLOSE_GAMES):
        rng = random.Random(game)
        seen: dict[str, dict] = {}
        steps = itertools.count()

        def step(state, seat, action, rng=rng, seen=seen, steps=steps):
            check_step(engine, state, players, rng, seen, next(steps))

        _, _, final = playout(engine, players, 100 * players + game, step=step)
        check_over(engine, final, players)
        check_result(name, engine.result(final), players)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_random_games_end_with_a_result_in_the_one_shape(name, players):
    engine = engine_of(name)
    for game in range(QUICK_GAMES):
        seed = 1000 * players + game
        leave_at = random.Random(seed).randrange(5, 60) if game % 2 else None
        _, _, final = playout(engine, players, seed, leave_at=leave_at)
        check_result(name, engine.result(final), players)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_replaying_the_same_moves_gives_the_same_state_byte_for_byte(name, players):
    engine = engine_of(name)
    options, moves, final = playout(engine, players, 77 + players)
    state = recorded = engine.setup(players, options, 77 + players)
    for seat, action in moves:
        state = engine.apply(state, seat, json.loads(json.dumps(action)))
        # As a catch-up plays the moves of the chain: without their checks,
        # on a copy of the state it was given.
        given = recorded
        recorded = engine.apply_recorded(given, seat, json.loads(json.dumps(action)))
        assert recorded is not given
    assert canonical_json(state) == canonical_json(final) == canonical_json(recorded)
    assert canonical_json(engine.result(state)) == canonical_json(engine.result(final))
