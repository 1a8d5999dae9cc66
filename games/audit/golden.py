"""Golden games: whole games that today's engines must replay exactly.

A recording is a created setup, every engine event after it (an action, a
timeout's action or a resignation, with its seat), the hash of the state
every few steps and at the end, and the result.  Replaying it folds the
events through ``games.stream.replay``, the same fold the service uses, and reports
every difference.  ``manage.py verify_games`` checks stored games with the
same machinery: a stored game is a recording whose checkpoints are its
snapshots.

No Django here: the golden-game tests and the recording script run without
it.  The fixtures live in ``tests/golden/`` (``tests/golden/record.py``
writes them).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Action, Engine, IllegalAction, State, canonical_json, clone
from games.stream import replay

# How often a recording keeps the state's hash, in steps: a difference is
# then reported near the step that caused it, not only at the end.
CHECKPOINT_EVERY = 25

# A step is (kind, seat, action): kind is one of replay.ENGINE_KINDS, the
# action is None for a resignation.
Step = tuple[str, int, Action | None]


def state_hash(state: State) -> str:
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


@dataclass
class Recording:
    """One whole game as the engine of ``version`` played it."""

    title: str
    version: int
    players: int
    options: dict[str, Any]
    seed: int
    setup: State
    steps: list[Step]
    checkpoints: dict[int, str] = field(default_factory=dict)
    final_hash: str = ""
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "version": self.version,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "setup": self.setup,
            "steps": [list(step) for step in self.steps],
            "checkpoints": {str(n): h for n, h in sorted(self.checkpoints.items())},
            "final_hash": self.final_hash,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Recording:
        return cls(
            title=data["title"],
            version=data["version"],
            players=data["players"],
            options=data["options"],
            seed=data["seed"],
            setup=data["setup"],
            steps=[(kind, seat, action) for kind, seat, action in data["steps"]],
            checkpoints={int(n): h for n, h in data["checkpoints"].items()},
            final_hash=data["final_hash"],
            result=data["result"],
        )


def apply_step(engine: Engine, state: State, step: Step) -> State:
    kind, seat, action = step
    return replay.apply_event(engine, state, kind, seat, {"action": action})


def hash_agrees(state: State, expected: Any) -> bool:
    """A recording's checkpoint: the state's hash."""
    return state_hash(state) == expected


@dataclass
class Replayed:
    """What folding a game's steps gave: the final state (None when a step
    raised), the step that raised and its error, and the checkpoints (step
    numbers) whose state hash differs from the one kept."""

    state: State | None
    failed: tuple[int, Exception] | None = None
    differing: list[int] = field(default_factory=list)


def replay_steps(
    engine: Engine,
    setup: State,
    steps: Iterable[Step],
    checkpoints: dict[int, Any],
    *,
    first_only: bool = True,
    agrees: Callable[[State, Any], bool] = hash_agrees,
) -> Replayed:
    """Fold ``steps`` from ``setup``, checking the state at every checkpoint
    (``agrees(state, checkpoint)``; a recording keeps the state's hash).

    With ``first_only`` the fold stops at the first differing checkpoint: the
    differences after it follow from it.  Any error of the engine is caught
    and returned: a game that no longer replays is a finding, not a crash.
    The fold changes one private copy of ``setup`` in place: a copy per step
    was a fifth of what ``verify_games`` spends on a stream.
    """
    state = engine.copy_state(setup) if hasattr(engine, "copy_state") else clone(setup)
    differing: list[int] = []
    # Where the engine can, a move plays on the state itself (EngineBase.advance):
    # this loop is most of what verify_games spends.
    advance = getattr(engine, "advance", None)
    for number, (kind, seat, action) in enumerate(steps, 1):
        try:
            if advance is not None and kind in ("action", "timeout"):
                state = advance(state, seat, action)
            else:
                state = replay.apply_event(engine, state, kind, seat, {"action": action})
        except Exception as exc:
            return Replayed(None, (number, exc), differing)
        expected = checkpoints.get(number)
        if expected is not None and not agrees(state, expected):
            differing.append(number)
            if first_only:
                return Replayed(state, None, differing)
    return Replayed(state, None, differing)


def differences(engine: Engine, recording: Recording) -> list[str]:
    """Every way today's engine plays ``recording`` otherwise than recorded.

    A recording made with another VERSION is not replayed: a VERSION bump says
    that existing streams may now turn out otherwise, so the golden games of
    that title are recorded again with the bump.
    """
    if recording.version != engine.VERSION:
        return [
            f"recorded with {recording.title} VERSION {recording.version}, the engine is "
            f"VERSION {engine.VERSION}: re-record the golden games of {recording.title} "
            f"(python -m tests.golden.record --title {recording.title})"
        ]
    replayed = replay_steps(engine, recording.setup, recording.steps, recording.checkpoints)
    if replayed.failed is not None:
        number, exc = replayed.failed
        step = _describe(recording.steps[number - 1])
        what = "is refused" if isinstance(exc, IllegalAction) else f"raises {type(exc).__name__}"
        return [f"step {number} {step} {what}: {exc}"]
    if replayed.differing:
        number = replayed.differing[0]
        return [f"the state after step {number} {_describe(recording.steps[number - 1])} differs"]
    final = replayed.state
    if final is None:  # only when a step failed, reported above
        return ["the replay gave no state"]
    problems = []
    if state_hash(final) != recording.final_hash:
        problems.append(f"the final state differs (after {len(recording.steps)} steps)")
    result = engine.result(final)
    if canonical_json(result) != canonical_json(recording.result):
        problems.append(f"the result differs: {canonical_json(result)}")
    return problems


def setup_differs(engine: Engine, recording: Recording) -> bool:
    """Does ``setup`` with the recorded seed deal another game now?

    Stored games keep their created setup, so this changes no existing game;
    it is checked apart because new games would be dealt otherwise.
    """
    made = engine.setup(recording.players, recording.options, recording.seed)
    return canonical_json(made) != canonical_json(recording.setup)


# -- recording ---------------------------------------------------------------


Policy = Callable[[random.Random, list[Action]], Action]


def random_policy(rng: random.Random, actions: list[Action]) -> Action:
    """Uniform, but buying more often than chance so every title ends soon."""
    buys = [a for a in actions if a.get("type") == "buy"]
    if buys and rng.random() < 0.7:
        return rng.choice(buys)
    return rng.choice(actions)


def record(
    engine: Engine,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    timeouts: float = 0.1,
    resign_at: int | None = None,
    policy: Policy = random_policy,
    max_steps: int = 20_000,
) -> Recording:
    """A seeded random legal playout to the end of the game.

    A step is a timeout (the title's ``timeout_action``) with probability
    ``timeouts``; at step ``resign_at`` a random seat to act resigns, when the
    title lets the game go on without it.
    """
    rng = random.Random(seed)
    setup = engine.setup(players, options, seed)
    recording = Recording(engine.NAME, engine.VERSION, players, options, seed, setup, [])
    state = setup
    while engine.result(state) is None:
        if len(recording.steps) >= max_steps:
            raise RuntimeError(f"{engine.NAME} seed {seed}: no end after {max_steps} steps")
        step = _next_step(engine, state, rng, timeouts, policy)
        if len(recording.steps) == resign_at and engine.resign(state, step[1]) is not None:
            step = ("resign", step[1], None)
        state = apply_step(engine, state, step)
        recording.steps.append(step)
        if len(recording.steps) % CHECKPOINT_EVERY == 0:
            recording.checkpoints[len(recording.steps)] = state_hash(state)
    recording.final_hash = state_hash(state)
    recording.result = engine.result(state)
    return recording


def _next_step(
    engine: Engine, state: State, rng: random.Random, timeouts: float, policy: Policy
) -> Step:
    seat = rng.choice(sorted(engine.to_act(state)))
    if rng.random() < timeouts:
        return ("timeout", seat, engine.timeout_action(state, seat))
    return ("action", seat, policy(rng, engine.legal_actions(state, seat)))


def _describe(step: Step) -> str:
    kind, seat, action = step
    shown = "" if action is None else " " + canonical_json(action)
    return f"({kind} by seat {seat}{shown})"
