"""skip_action: the move by which a seat does nothing now, named by its title.

A clock with the "skip" policy plays it.  It must be legal whenever given,
and for today's titles it is the move the clock used to pick by its name
(the first legal "pass", "skip" or "end"), so no game plays otherwise.
"""

from __future__ import annotations

import random

import pytest

from games.audit import golden
from games.engines import base
from games.engines.base import canonical_json

NAMED_SKIPS = ("pass", "skip", "end")


def cases() -> list[tuple[str, int]]:
    return [
        (name, players)
        for name, engine in base.available().items()
        if name in base.KNOWN_TITLES
        for players in range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("title", "players"), cases())
def test_skip_action_is_legal_and_the_move_a_skip_always_was(title, players):
    engine = base.get(title)
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        state = engine.setup(players, {}, seed)
        while engine.result(state) is None:
            for seat in sorted(engine.to_act(state)):
                legal = engine.legal_actions(state, seat)
                named = next((a for a in legal if a["type"] in NAMED_SKIPS), None)
                skip = engine.skip_action(state, seat)
                assert canonical_json(skip) == canonical_json(named), (seat, legal)
            seat = rng.choice(sorted(engine.to_act(state)))
            state = engine.apply(
                state, seat, golden.random_policy(rng, engine.legal_actions(state, seat))
            )


def test_a_seat_not_to_act_has_nothing_to_skip():
    for title, players in cases():
        engine = base.get(title)
        state = engine.setup(players, {}, 1)
        idle = [s for s in range(players) if s not in engine.to_act(state)]
        assert all(engine.skip_action(state, s) is None for s in idle), title
