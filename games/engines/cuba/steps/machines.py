"""VII.3.11: a minor buys machines after its trains.

Any number in one OR, up to the three a minor may own, of any generation on
sale, at the generation's next price (`rolling_stock.machine_price`). Never
blocking: the director ends the turn with `pass` whenever they like.

| action | line |
|---|---|
| `{"type": "buy_machine", "generation": 1}` | `machine 1` |
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data.companies import BY_SYM
from ..data.trains import MACHINES
from ..refusals import refuse
from ..rules import rolling_stock, turn

NAME = "buy machines"

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    """A minor's turn after its income, while no offer for a train waits and
    the company owns the train it must own (the train step blocks before)."""
    record = turn.current(state)
    return (
        record is not None
        and state["end"] is None
        and record["paid"] is not None
        and record["offer"] is None
        and turn.open_at(state, "machines")
        and BY_SYM[record["company"]].kind == "minor"
    )


def blocking(state: State) -> bool:
    return False


def legal(state: State, seat: int) -> list[Action]:
    if not active(state) or not turn.is_director(state, seat):
        return []
    sym = turn.company(state)
    assert sym is not None
    return [
        {"type": "buy_machine", "generation": m.generation}
        for m in MACHINES
        if rolling_stock.machine_fault(state, sym, m.generation) is None
    ]


def apply(state: State, seat: int, action: Action) -> None:
    if not active(state):
        raise refuse("no minor is buying machines now")
    if not turn.is_director(state, seat):
        raise refuse("only the director of the operating minor buys its machines")
    if set(action) != {"type", "generation"}:
        raise refuse(
            "a machine is bought as {example}", example='{"type": "buy_machine", "generation": 1}'
        )
    generation = action["generation"]
    if isinstance(generation, bool):
        raise refuse("there is no machine generation {generation}", generation=repr(generation))
    sym = turn.company(state)
    assert sym is not None
    rolling_stock.buy_machine(state, sym, generation)
    turn.reach(state, "machines")


# --- the words of a machine ---------------------------------------------------------


def _generation(word: str, state: State) -> int:
    if not word.isdigit():
        raise refuse("{word} is not a machine generation (1, 2 or 3)", word=repr(word))
    return int(word)


BUY_MACHINE = Verb(
    type="buy_machine",
    fields={"generation": Slot(read=_generation)},
    lines=line("machine {generation}"),
    says=N_("{who} buys a generation {generation} sugar mill machine"),
    gloss=None,
    group=N_("Machines"),
)

VERBS = (BUY_MACHINE,)
ACTIONS = frozenset(verb.type for verb in VERBS)
