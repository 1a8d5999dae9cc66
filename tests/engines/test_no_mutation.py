"""No engine call changes the state it is given.

The store keeps the newest state of a game per process and hands the same
object to the next request, so an ``apply`` (or ``resign``, or
``timeout_action``) that changed its input would corrupt the game for every
later move in that process.  Every title is played out at random, and its
input is compared as canonical JSON before and after every call.
"""

from __future__ import annotations

import random

import pytest

from games.audit import golden
from games.engines import base
from games.engines.base import IllegalAction, canonical_json


def titles() -> dict[str, base.Engine]:
    return {name: e for name, e in base.available().items() if name in base.KNOWN_TITLES}


def cases() -> list[tuple[str, int, int]]:
    return [
        (name, players, seed)
        for name, engine in titles().items()
        for players in range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)
        for seed in (1, 2)
    ]


def mutations(engine: base.Engine, players: int, seed: int) -> list[str]:
    """Every call of a random playout that changed its input state."""
    rng = random.Random(seed)
    state = engine.setup(players, {}, seed)
    found: list[str] = []
    for step in range(3000):
        if engine.result(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        legal = _watch(found, step, "legal_actions", engine.legal_actions, state, seat)
        action = golden.random_policy(rng, legal)
        _watch(found, step, "timeout_action", engine.timeout_action, state, seat)
        _watch(found, step, "resign", engine.resign, state, rng.randrange(players))
        refused = {**action, "extra": 1}
        _watch(found, step, "a refused apply", engine.apply, state, seat, refused)
        after = _watch(found, step, "apply", engine.apply, state, seat, action)
        if found:
            break
        state = after
    return found


def _watch(found: list[str], step: int, what: str, call, state, *args):
    """``call(state, *args)``, noting in ``found`` if it changed ``state``."""
    before = canonical_json(state)
    try:
        out = call(state, *args)
    except IllegalAction:
        out = None
    if canonical_json(state) != before:
        found.append(f"step {step}: {what} changed its input")
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("title", "players", "seed"), cases())
def test_no_call_changes_the_state_it_is_given(title, players, seed):
    assert mutations(titles()[title], players, seed) == []


def test_every_title_is_played():
    played = {title for title, _, _ in cases()}
    assert played >= {"havana", "pointcity", "estates"}


class _ForgetsSeats(type(base.get("pointcity"))):
    """Point City with a copy that forgot to copy the seats."""

    def copy_state(self, state):
        return dict(state)


def test_a_copy_that_forgets_a_part_is_caught():
    found = mutations(_ForgetsSeats(), 2, 1)
    assert found and "apply changed its input" in found[0], found
