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
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...base import Action, State
from ...i18n import N_
from ...verbs import Lines, Verb
from ..refusals import WORDS, refuse

# The round's refusals, one whole sentence per round and per step a round
# waits for (a name inside a sentence could not be said in German); a name
# not listed here reads in English within the general sentence.
NOT_NOW = {
    "commissioner auction": N_("'{kind}' is not possible in the commissioner auction now"),
    "concession draft": N_("'{kind}' is not possible in the concession draft now"),
    "stock round": N_("'{kind}' is not possible in the stock round now"),
    "operating round": N_("'{kind}' is not possible in the operating round now"),
}
NOT_A_MOVE = {
    "commissioner auction": N_("'{words}' is not a move of the commissioner auction now"),
    "concession draft": N_("'{words}' is not a move of the concession draft now"),
    "stock round": N_("'{words}' is not a move of the stock round now"),
    "operating round": N_("'{words}' is not a move of the operating round now"),
}
NOT_AN_ACTION = {
    "commissioner auction": N_("'{kind}' is not an action of the commissioner auction"),
    "concession draft": N_("'{kind}' is not an action of the concession draft"),
    "stock round": N_("'{kind}' is not an action of the stock round"),
    "operating round": N_("'{kind}' is not an action of the operating round"),
}
FIRST = {
    "put a concession's ability into a company": N_(
        "'{kind}' is not possible now: first put a concession's ability into a company"
    ),
    "bid for the commissioner": N_("'{kind}' is not possible now: first bid for the commissioner"),
    "sell or buy shares": N_("'{kind}' is not possible now: first sell or buy shares"),
    "buy trains": N_("'{kind}' is not possible now: first buy trains"),
    "choose a concession": N_("'{kind}' is not possible now: first choose a concession"),
    "pay out or retain the income": N_(
        "'{kind}' is not possible now: first pay out or retain the income"
    ),
    "end the company's turn": N_("'{kind}' is not possible now: first end the company's turn"),
    "place the home station": N_("'{kind}' is not possible now: first place the home station"),
    "issue or redeem a share": N_("'{kind}' is not possible now: first issue or redeem a share"),
    "buy machines": N_("'{kind}' is not possible now: first buy machines"),
    "run trains": N_("'{kind}' is not possible now: first run trains"),
    "place a station": N_("'{kind}' is not possible now: first place a station"),
    "lay track": N_("'{kind}' is not possible now: first lay track"),
    "discard surplus trains": N_("'{kind}' is not possible now: first discard surplus trains"),
}


class Step(Protocol):
    """What a step module provides (modules satisfy this protocol)."""

    NAME: str  # shown to a player: "lay track", "buy trains"
    ACTIONS: frozenset[str]  # the action types it processes (its verbs')

    # The words of its moves (line, narration, gloss, heading); read-only,
    # so a module's tuple of its own verbs satisfies it.
    @property
    def VERBS(self) -> tuple[Verb, ...]: ...

    def active(self, state: State) -> bool: ...

    def blocking(self, state: State) -> bool: ...

    def legal(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> None:
        """Validate and apply to `state`, the private copy the engine made."""
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
    # Each step's lines, compiled once, in the order of the steps.
    lines: tuple[Lines, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(Lines(WORDS, step.VERBS) for step in self.steps))

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
        """The legal moves of the reachable steps that take `kind`: of that
        type alone where the step can list them so (`legal_of`), else all
        of the step's."""
        return [
            a
            for step in self.reachable(state)
            if kind in step.ACTIONS
            for a in _of_type(step, state, seat, kind)
        ]

    def timeout(self, state: State, seat: int) -> Action | None:
        """The move a reachable step makes for a seat whose clock ran out,
        where the step says (a step may define `timeout(state, seat)`);
        None: the engine's general preference decides."""
        for step in self.reachable(state):
            default = getattr(step, "timeout", None)
            chosen = default(state, seat) if default is not None else None
            if chosen is not None:
                return dict(chosen)
        return None

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
                template = FIRST.get(step.NAME, "'{kind}' is not possible now: first {step}")
                raise refuse(template, kind=str(kind), step=step.NAME)
        template = NOT_NOW.get(self.name, "'{kind}' is not possible in the {round} now")
        raise refuse(template, kind=str(kind), round=self.name)

    def text(self, action: Action) -> str:
        """The line of one of this round's moves, by its step's verb."""
        kind = action.get("type")
        for step in self.steps:
            for verb in step.VERBS:
                if verb.type == kind:
                    return verb.text(action)
        template = NOT_AN_ACTION.get(self.name, "'{kind}' is not an action of the {round}")
        raise refuse(template, kind=str(kind), round=self.name)

    def parse(self, said: str, state: State, seat: int) -> Action:
        """The move a normalised line says, read by the first reachable step
        with a verb whose line it is (a step refuses a line of its own verb
        it cannot read); a line no reachable step takes is no move now."""
        reachable = {id(step) for step in self.reachable(state)}
        for step, lines in zip(self.steps, self.lines, strict=True):
            action = lines.read(said, state, seat) if id(step) in reachable else None
            if action is not None:
                return action
        template = NOT_A_MOVE.get(self.name, "'{words}' is not a move of the {round} now")
        raise refuse(template, words=said, round=self.name)


def _of_type(step: Any, state: State, seat: int, kind: Any) -> list[Action]:
    of_type = getattr(step, "legal_of", None)
    return of_type(state, seat, kind) if of_type is not None else step.legal(state, seat)
