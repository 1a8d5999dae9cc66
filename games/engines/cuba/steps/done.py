"""The director ends the company's turn (`pass`).

Always reachable once the steps before it are settled: a blocking step (the
run, the income, a forced train purchase) keeps it out of reach until then.
The operating round (`rounds.operating`) sees the turn marked done and hands
the round to the next company.
"""

from __future__ import annotations

from typing import Any

from ..refusals import refuse
from ..rules import turn
from . import PASS

NAME = "end the company's turn"
VERBS = (PASS,)
ACTIONS = frozenset(verb.type for verb in VERBS)

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    return turn.current(state) is not None


def blocking(state: State) -> bool:
    return True


def legal(state: State, seat: int) -> list[Action]:
    return [{"type": "pass"}] if turn.is_director(state, seat) else []


def apply(state: State, seat: int, action: Action) -> None:
    if not turn.is_director(state, seat):
        raise refuse("only the director of the operating company ends its turn")
    if set(action) != {"type"}:
        raise refuse("a pass is just {example}", example='{"type": "pass"}')
    turn.reach(state, "done")
