"""A round is an ordered list of steps; this module is the one rule that
drives them all, after tobymao/18xx's rounds without its class hierarchy:

    The first active step that accepts the move processes it.
    A blocking step refuses everything after it.

A step is a module of functions (see `steps/__init__.py` for the contract),
so a round is data: a name and a tuple of step modules. A step that is active
but does not block (an optional buy, a commissioner's extra lay) lets the
player skip past it to a later step; a blocking step (a dividend decision, a
forced train purchase) must be settled first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ...base import IllegalAction

State = dict[str, Any]
Action = dict[str, Any]


class Step(Protocol):
    """What a step module provides (modules satisfy this protocol)."""

    NAME: str  # shown to a player: "lay track", "buy trains"
    ACTIONS: frozenset[str]  # the action types it processes

    def active(self, state: State) -> bool: ...

    def blocking(self, state: State) -> bool: ...

    def legal(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> None:
        """Validate and apply to `state`, the private copy the engine made."""
        ...

    def text(self, action: Action) -> str: ...

    def parse(self, words: list[str], state: State, seat: int) -> Action | None:
        """The action a command line names, or None when it is not this step's."""
        ...


def auto(step: Step, state: State) -> bool:
    """Let `step` take a move nobody has a choice about (a major's home
    station, the income of a company without trains): a step module may
    define `auto(state) -> bool`, True when it changed the state."""
    forced = getattr(step, "auto", None)
    return bool(forced(state)) if forced is not None else False


def _nothing(state: State) -> None:
    return None


def _never(state: State) -> bool:
    return False


@dataclass(frozen=True)
class Round:
    """A round's steps and its four moments, which `flow` calls:

    begin(state)    the round's data (`round.steps`) and its first entity
    proceed(state)  after every move: what happens without a decision (the
                    next company's turn, a forced move, the FC's run)
    over(state)     has the round ended (all passed, the last card chosen)?
    finish(state)   the rules at its end (new playing order, sold-out rises)
    """

    name: str
    steps: tuple[Step, ...]
    begin: Callable[[State], None] = _nothing
    proceed: Callable[[State], None] = _nothing
    over: Callable[[State], bool] = _never
    finish: Callable[[State], None] = _nothing

    def reachable(self, state: State) -> list[Step]:
        """Active steps in order, up to and including the first blocking one."""
        out = []
        for step in self.steps:
            if not step.active(state):
                continue
            out.append(step)
            if step.blocking(state):
                break
        return out

    def legal(self, state: State, seat: int) -> list[Action]:
        return [a for step in self.reachable(state) for a in step.legal(state, seat)]

    def legal_of(self, state: State, seat: int, kind: Any) -> list[Action]:
        """The legal moves of the reachable steps that take `kind`."""
        return [
            a
            for step in self.reachable(state)
            if kind in step.ACTIONS
            for a in step.legal(state, seat)
        ]

    def process(self, state: State, seat: int, action: Action) -> None:
        """Hand the action to the step that takes it, or refuse with the reason."""
        kind = action.get("type")
        for step in self.steps:
            if not step.active(state):
                continue
            if kind in step.ACTIONS:
                step.apply(state, seat, action)
                return
            if step.blocking(state):
                raise IllegalAction(f"'{kind}' is not possible now: first {step.NAME}")
        raise IllegalAction(f"'{kind}' is not possible in the {self.name} now")

    def text(self, action: Action) -> str:
        return self._owner(action.get("type")).text(action)

    def parse(self, words: list[str], state: State, seat: int) -> Action:
        for step in self.reachable(state):
            action = step.parse(words, state, seat)
            if action is not None:
                return action
        raise IllegalAction(f"'{' '.join(words)}' is not a move of the {self.name} now")

    def _owner(self, kind: Any) -> Step:
        for step in self.steps:
            if kind in step.ACTIONS:
                return step
        raise IllegalAction(f"'{kind}' is not an action of the {self.name}")
