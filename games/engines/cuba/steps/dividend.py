"""VII.3.8, IX.2: the income of the run paid out or retained.

    {"type": "payout"}    payout
    {"type": "retain"}    retain

The income is the turn's `run["income"]` (the route step's). Paying out
moves the marker right on a dividend above $0, retaining moves it left
(`income.pay_out` / `income.retain`). A minor puts the cubes of its income
at its mill either way (VII.3.8, `income.produce_cubes`). An income of $0
has nothing to decide: it is retained automatically (`auto`), and the
marker moves left, as IX.2 says for a dividend of $0.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_
from ...verbs import Verb, line
from ..data.companies import BY_SYM
from ..refusals import refuse
from ..rules import income, turn

NAME = "pay out or retain the income"

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    record = turn.current(state)
    return (
        record is not None
        and record["run"] is not None
        and record["paid"] is None
        and turn.open_at(state, "dividend")
    )


def blocking(state: State) -> bool:
    return active(state)


def legal(state: State, seat: int) -> list[Action]:
    if not turn.is_director(state, seat):
        return []
    return [{"type": "payout"}, {"type": "retain"}]


def auto(state: State) -> bool:
    """Nothing to decide on an income of $0: retained."""
    if not active(state) or _income(state) != 0:
        return False
    decide(state, "retain")
    return True


def apply(state: State, seat: int, action: Action) -> None:
    if not turn.is_director(state, seat):
        raise refuse("only the director of the operating company decides its income")
    if set(action) != {"type"}:
        raise refuse(
            "write {payout} or {retain}, nothing more",
            payout='{"type": "payout"}',
            retain='{"type": "retain"}',
        )
    decide(state, action["type"])


def decide(state: State, kind: str) -> income.Dividend:
    """Pay out or retain the turn's income; a minor's cubes to its mill."""
    record = turn.current(state)
    assert record is not None
    sym = str(record["company"])
    earned = _income(state)
    how = income.pay_out if kind == "payout" else income.retain
    result = how(state, sym, earned)
    if BY_SYM[sym].kind == "minor":
        income.produce_cubes(state, sym, earned)
    record["paid"] = kind
    turn.reach(state, "dividend")
    return result


def _income(state: State) -> int:
    record = turn.current(state)
    assert record is not None and record["run"] is not None
    return int(record["run"]["income"])


# --- the words of the income ------------------------------------------------------

PAYOUT = Verb(
    type="payout",
    fields={},
    lines=line("payout", "pay out"),
    says=N_("{who} pays the income out"),
    gloss=None,
    group=N_("Income"),
)
RETAIN = Verb(
    type="retain",
    fields={},
    lines=line("retain", "withhold"),
    says=N_("{who} keeps the income in the treasury"),
    gloss=None,
    group=N_("Income"),
)

VERBS = (PAYOUT, RETAIN)
ACTIONS = frozenset(verb.type for verb in VERBS)
