"""The concessions' abilities (draft IV.2): the owner puts #2 (a 1-wagon) or
#5 (the mail contract) into a major they direct, and #3 (a sugar mill
machine) or #6 (an $80 n-train discount) into a minor they direct.

A non-blocking step: it offers its moves during the owner's own turns (a
stock round turn; in an operating round the turn of a company they direct)
without holding up the round's other steps. The rules are in `privates`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data.companies import BY_SYM
from ..refusals import WORDS
from ..rules import privates
from ..words.names import company, fit, private

_ = WORDS.gettext

NAME = "put a concession's ability into a company"

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


# --- the words of an assignment ------------------------------------------------


def _assign_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} assigns {card} to {company}").format(
        who=who, card=private(action["card"]), company=company(action["company"])
    )


def _assign_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    sym = action["company"]
    if sym not in BY_SYM:
        return None
    return fit(_("{card} to {company}").format(card=private(action["card"]), company=sym))


ASSIGN = Verb(
    type="assign",
    fields={
        "card": Slot(read=lambda word, state: word.upper()),
        # a symbol in any case ("stsp" is StSp); an unknown word as typed
        "company": Slot(read=lambda word, state: _SYMBOL.get(word.lower(), word)),
    },
    lines=line("assign {card} {company}"),
    usage=((r"assign(?: .*)?", N_("an assignment reads: assign M2 MS")),),
    says=_assign_says,
    gloss=_assign_gloss,
    group=N_("Assign an ability"),
)

VERBS = (ASSIGN,)
ACTIONS = frozenset(verb.type for verb in VERBS)
