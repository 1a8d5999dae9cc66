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

NAME = "end the company's turn"
ACTIONS = frozenset({"pass"})

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


def text(action: Action) -> str:
    return "pass"


def parse(words: list[str], state: State, seat: int) -> Action | None:
    return {"type": "pass"} if words in (["pass"], ["done"]) else None
