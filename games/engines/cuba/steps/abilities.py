"""The concessions' abilities (draft IV.2): the owner puts #2 (a 1-wagon) or
#5 (the mail contract) into a major they direct, and #3 (a sugar mill
machine) or #6 (an $80 n-train discount) into a minor they direct.

A non-blocking step: it offers its moves during the owner's own turns (a
stock round turn; in an operating round the turn of a company they direct)
without holding up the round's other steps. The rules are in `privates`.
"""

from __future__ import annotations

from typing import Any

from ..data.companies import BY_SYM
from ..refusals import refuse
from ..rules import privates

NAME = "put a concession's ability into a company"
ACTIONS = frozenset({"assign"})

State = dict[str, Any]
Action = dict[str, Any]

_SYMBOL = {sym.lower(): sym for sym in BY_SYM}


def active(state: State) -> bool:
    owner = privates.acting_player(state)
    return owner is not None and bool(privates.assignable(state, int(owner[1:])))


def blocking(state: State) -> bool:
    return False


def legal(state: State, seat: int) -> list[Action]:
    return [
        {"type": "assign", "card": card, "company": company}
        for card, company in privates.assignable(state, seat)
    ]


def apply(state: State, seat: int, action: Action) -> None:
    privates.assign(state, seat, action.get("card"), action.get("company"))


def text(action: Action) -> str:
    return f"assign {action['card']} {action['company']}"


def parse(words: list[str], state: State, seat: int) -> Action | None:
    if not words or words[0] != "assign":
        return None
    if len(words) != 3:
        raise refuse("an assignment reads: assign M2 MS")
    company = _SYMBOL.get(words[2].lower(), words[2])
    return {"type": "assign", "card": words[1].upper(), "company": company}
