"""Golden games: recorded whole games replay exactly with today's engines.

A change that alters how an existing game turns out fails here unless the
title's VERSION is bumped and its games recorded again
(``python -m tests.golden.record --title T``); see docs/engines.md, "Golden games".
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from games.audit import golden
from games.engines import base
from tests.golden import record

FIXTURES = sorted(record.HERE.glob("*/*.json"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.slow
@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_a_golden_game_replays_exactly(path):
    recording = record.load(path)
    assert golden.differences(base.get(recording.title), recording) == []


@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_the_same_seed_still_deals_the_recorded_setup(path):
    recording = record.load(path)
    assert not golden.setup_differs(base.get(recording.title), recording), (
        "the same seed now deals another game (stored games keep theirs); if that "
        f"is meant, record again: python -m tests.golden.record --title {recording.title}"
    )


def test_every_listed_game_is_recorded_and_nothing_else():
    listed = {record.path_of(t, p, o, s) for t, p, o, s, _ in record.GAMES}
    assert listed == set(FIXTURES)


def test_every_title_with_an_engine_has_golden_games_for_every_player_count():
    for name in base.KNOWN_TITLES:
        try:
            engine = base.get(name)
        except KeyError:
            continue  # a title still under construction (no ENGINE yet)
        counts = {p for t, p, *_ in record.GAMES if t == name}
        assert counts == set(range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)), name


def _fixture(title: str) -> golden.Recording:
    """The title's longest golden game."""
    paths = [p for p in FIXTURES if p.parent.name == title]
    return max((record.load(p) for p in paths), key=lambda r: len(r.steps))


def test_another_version_asks_for_the_games_to_be_recorded_again():
    recording = dataclasses.replace(_fixture("havana"), version=0)
    [problem] = golden.differences(base.get("havana"), recording)
    assert "recorded with havana VERSION 0, the engine is VERSION" in problem
    assert "python -m tests.golden.record --title havana" in problem


class _DrawsThree(type(base.get("pointcity"))):
    """Point City with one rule changed: a pile draw also takes a third card."""

    def apply(self, state, seat, action):
        after = super().apply(state, seat, action)
        if action["type"] == "draw" and after["pile"]:
            after["seats"][seat]["stock"].append(after["pile"].pop(0))
        return after


def test_an_altered_rule_is_caught_near_the_step_that_changed():
    recording = _fixture("pointcity")
    draws = [n for n, (_, _, a) in enumerate(recording.steps, 1) if a and a["type"] == "draw"]
    assert draws, "the fixture must draw from the pile for this test to mean anything"
    problems = golden.differences(_DrawsThree(), recording)
    assert problems, "a changed rule replayed as recorded"
    # The replay stops at the first difference, at or before the checkpoint
    # that follows the first draw.
    checkpoint = min(n for n in recording.checkpoints if n >= draws[0])
    [problem] = problems
    number = int(re.search(r"step (\d+)", problem).group(1))
    assert number <= checkpoint, problem


class _ScoresOneMore(type(base.get("estates"))):
    def result(self, state):
        result = super().result(state)
        return None if result is None else {**result, "extra": 1}


def test_a_changed_result_is_caught():
    problems = golden.differences(_ScoresOneMore(), _fixture("estates"))
    assert len(problems) == 1 and problems[0].startswith("the result differs"), problems


def test_a_step_the_engine_now_refuses_is_reported_with_its_number():
    recording = _fixture("havana")
    steps = list(recording.steps)
    kind, seat, _ = steps[3]
    steps[3] = (kind, seat, {"type": "no such move"})
    problems = golden.differences(base.get("havana"), dataclasses.replace(recording, steps=steps))
    assert len(problems) == 1 and problems[0].startswith("step 4 (action by seat"), problems
    assert "is refused" in problems[0]
