"""Built-in players for a seat: `random` and `greedy`, pure functions of the
state, the seat's legal actions and a seed.

`choose(engine, state, seat, kind, seed)` returns the index into
`engine.legal_actions(state, seat)` and the action there.  The same state and
seed always give the same choice, so a replay of a bot's move can be checked.

`random` is uniform over the legal actions.  `greedy` tries each legal action
and keeps the one with the best immediate gain by the title's own score
(`games/engines/<title>/bot.py`, `score(before, seat, action, after)`), ties
broken by the seed.  A title without such a module has no bots.

The seed is derived by the caller from something a viewer cannot invert
(games.bots: an HMAC of the game's secret seed); here it is just a number.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from .base import Action, Engine, State

KINDS = ("random", "greedy")

Score = Callable[[State, int, Action, State], float]


def greedy_score(engine: Engine) -> Score | None:
    """The title's greedy score, or None where the title has no bot module."""
    package = type(engine).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.bot")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.bot":
            raise
        return None
    return getattr(module, "score", None)


def kinds_for(engine: Engine) -> tuple[str, ...]:
    """The bots that may sit at this title's games: both where the title has
    its bot module, none elsewhere.  A title opts in with its `bot.py` once
    it plays end to end (all four titles do)."""
    return KINDS if greedy_score(engine) is not None else ()


def choose(engine: Engine, state: State, seat: int, kind: str, seed: int) -> tuple[int, Action]:
    """The bot's choice: (index into the legal actions, the action)."""
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    rng = random.Random(seed)
    if kind == "random":
        index = rng.randrange(len(actions))
    elif kind == "greedy":
        index = _best(engine, state, seat, actions, rng)
    else:
        raise ValueError(f"unknown bot {kind!r}")
    return index, actions[index]


def _best(
    engine: Engine, state: State, seat: int, actions: list[Action], rng: random.Random
) -> int:
    score = greedy_score(engine)
    if score is None:
        raise ValueError(f"{engine.NAME} has no greedy bot")
    values: list[Any] = [score(state, seat, a, engine.apply(state, seat, a)) for a in actions]
    best = max(values)
    return rng.choice([i for i, value in enumerate(values) if value == best])


def play_out(engine: Any, kinds: list[str], seed: int, max_moves: int = 10_000) -> dict[str, Any]:
    """A whole game of bots, `kinds[seat]` at each seat, from setup `seed`:
    its result.  The benchmark and the tests pit the bots against each other
    with it; the server plays bots one move at a time (games.tasks.queue_bot).
    `engine` is a title's ENGINE (an EngineBase, which resolves options)."""
    state = engine.setup(len(kinds), engine.resolve_options({}), seed)
    rng = random.Random(seed)
    for _ in range(max_moves):
        result = engine.result(state)
        if result is not None:
            return dict(result)
        seat = min(engine.to_act(state))
        _, action = choose(engine, state, seat, kinds[seat], rng.getrandbits(64))
        state = engine.apply(state, seat, action)
    raise RuntimeError(f"{engine.NAME}: no end after {max_moves} moves (seed {seed})")


def greedy_share(result: dict[str, Any], seat: int) -> float:
    """How much of the win went to `seat`: 1 alone, a share when tied, else 0."""
    winners = result["winners"]
    return 1 / len(winners) if seat in winners else 0.0
