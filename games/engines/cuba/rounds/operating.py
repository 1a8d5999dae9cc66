"""A set of operating rounds (draft VII): one, two or three ORs after each
stock round, by the phase when the set begins (VII.1). In each OR the
companies operate in order (minors ascending by share price, majors
descending, a shared cell top marker first: `income.operating_order`), each
through its steps in the order of VII.3.1 (`turn.STAGES`), and the FC last,
on its own (VII.3.12). At the end of the set a train is exported to the FC
(VII.3.13), and the game ends if the bank ran out of money in this set or in
the stock round before it (IX.1).

The round's data, `state["round"]["steps"]["operating"]`:

    queue     the companies still to operate in this OR, in order
    done      those that have operated in it
    fc        the FC's income in this OR once it has run, else None
    exported  the set's last OR: the train has gone to the FC (VII.3.13)

A phase change (a purchase, the export) that leaves a major over its train
limit stops the round until its director has chosen the surplus cards
(`steps.surplus`, the first step and blocking), whoever is operating.

The order is fixed when an OR begins, as at the table: a share price that
moves during the OR does not let a company operate twice or not at all.
"""

from __future__ import annotations

from typing import Any

from ...base import State
from ..data.companies import FC
from ..data.hexes import revenue_of
from ..data.phases import phase
from ..map.board import content
from ..rules import income, log, privates, rolling_stock, turn
from ..steps import (
    abilities,
    buy_train,
    dividend,
    done,
    emergency,
    home,
    issue,
    machines,
    offer,
    route,
    surplus,
    token,
    track,
)
from . import flow
from .base import Round, auto

DATA = "operating"
# A move that leaves the player a choice even when it is the only one listed.
CHOICE_EVEN_ALONE = frozenset({"run"})
# The result's `ended_by` (a stable slug, as every title's is): IX.1.
BANK_BROKEN = "bank_broken"
# The draft's passage after IX.1 is missing; the published implementation
# ends the game when the second 8 is exported to the FC (the gamedata). The
# 8s are unlimited, so without it a game nobody plays on would never end.
SECOND_8_EXPORTED = "second_8_exported"
LAST_TRAIN = "8"
LAST_EXPORTS = 2


def data(state: State) -> dict[str, Any]:
    out: dict[str, Any] = state["round"]["steps"][DATA]
    return out


def begin(state: State) -> None:
    """A new set: its length from the phase now (VII.1), then its first OR."""
    r = state["round"]
    r["of"] = phase(state["phase"]).operating_rounds
    r["index"] = 1
    _open(state)


def _open(state: State) -> None:
    order = [sym for sym in income.operating_order(state) if sym != FC.sym]
    state["round"]["steps"] = {DATA: {"queue": order, "done": [], "fc": None, "exported": False}}
    state["round"]["entity"] = None


def proceed(state: State) -> None:
    """Everything up to the next decision a person makes: the end of a turn
    the director closed, the next company's turn and its forced moves, the
    FC's run, the next OR of the set, the export that ends the set. A
    director choosing surplus cards comes before all of these. Nothing
    follows the end of the game (a bankruptcy ends it at once: the FC does
    not run after it, nor is a train exported)."""
    while True:
        if state["end"] is not None:
            return
        if surplus.active(state):
            if not _forced(state):
                return
            continue
        record = turn.current(state)
        if record is not None:
            if record["stage"] == "done":
                _end_turn(state)
            elif not _forced(state):
                return
            continue
        queue = data(state)["queue"]
        if queue:
            _start_turn(state, queue.pop(0))
        elif data(state)["fc"] is None:
            data(state)["fc"] = operate_fc(state)
        elif state["round"]["index"] < state["round"]["of"]:
            state["round"]["index"] += 1
            _open(state)
            flow.note_round(state)
        elif not data(state).get("exported"):
            export(state)
        else:
            return


def _start_turn(state: State, sym: str) -> None:
    if sym not in state["companies"] or turn.director_seat(state, sym) is None:
        return  # closed or without a director since the OR began
    state["round"]["steps"][turn.TURN] = turn.new_turn(sym)
    state["round"]["entity"] = sym
    privates.collect_mail(state, sym)


def _end_turn(state: State) -> None:
    sym = turn.company(state)
    assert sym is not None
    state["companies"][sym]["operated"] = True
    data(state)["done"].append(sym)
    del state["round"]["steps"][turn.TURN]
    state["round"]["entity"] = None


def _forced(state: State) -> bool:
    """Make one move nobody has a choice about; False when a person must
    decide. A step's own `auto` comes first (a major's home station, the
    run of a company without trains), but only while no earlier step offers
    a move: a company without trains may still lay track and place a station
    before its empty run. Then a move that is the only
    one the player to act has (ending the turn, the one train a company must
    buy, bankruptcy). A lone `run` is not forced: the director may claim
    routes of their own, which no list holds."""
    account = turn.acting_account(state)
    assert account is not None
    seat = int(account[1:])
    legal: list = []
    deciding = False
    for step in OPERATING.reachable(state):
        if not deciding and auto(step, state):
            return True
        offered = step.legal(state, seat)
        # A person decides here first: a later step's forced move waits.
        deciding = deciding or (step is not abilities and bool(offered))
        legal += offered
        if len(legal) > 1:
            return False  # a choice: the rest of the steps' moves need not be listed
    if len(legal) != 1 or legal[0]["type"] in CHOICE_EVEN_ALONE:
        return False
    log.note(state, "forced", seat=seat, action=legal[0])
    OPERATING.process(state, seat, legal[0])
    return True


def fc_city_revenues(state: State) -> list[int]:
    """The revenue now of each city holding an FC station (VII.3.12). A
    marker still waiting on a yellow hex (IV.5) is not in a city yet."""
    board = state["board"]
    out = []
    for coord, cities in sorted(board["tokens"].items()):
        stops = content(board, coord).stops
        for i, owners in enumerate(cities):
            if FC.sym in owners:
                out.append(revenue_of(stops[i], state["phase"]))
    return out


def operate_fc(state: State) -> int:
    """The FC's turn: its income paid out (`income.operate_fc`). Its own run
    is its operation (VII.3.12): from then on its shares may be sold (VI.4),
    in a stock round and in a director's forced sale alike."""
    paid = income.operate_fc(state, fc_city_revenues(state), income.fc_train_range(state))
    state["companies"][FC.sym]["operated"] = True
    return paid.revenue


def export(state: State) -> None:
    """VII.3.13: at the end of the set a train goes to the FC, which may
    start a phase (and leave majors over their train limit, to choose
    their surplus cards before the set is over)."""
    data(state)["exported"] = True
    if rolling_stock.top_standard_stack(state) is not None:
        rolling_stock.export_to_fc(state)


def over(state: State) -> bool:
    r = state["round"]
    d = data(state)
    return (
        turn.current(state) is None
        and not d["queue"]
        and d["fc"] is not None
        and r["index"] >= r["of"]
        and bool(d.get("exported"))
        and not surplus.active(state)
    )


def finish(state: State) -> None:
    """IX.1: the game ends after the set in which, or after the stock round
    in which, the bank ran out; and when the second 8 has gone to the FC
    (the export is the set's last event, `export`)."""
    ending = state["ending"]
    if ending is not None and state["round"]["number"] >= ending["set"]:
        state["end"] = {"reason": BANK_BROKEN}
    elif state["fc_trains"].count(LAST_TRAIN) >= LAST_EXPORTS:
        state["end"] = {"reason": SECOND_8_EXPORTED}
    if state["end"] is not None:
        log.note(state, "end", **state["end"])
    state["round"]["entity"] = None


OPERATING = Round(
    "operating round",
    (
        surplus,  # VII.3.9: a phase change's surplus cards, chosen before anything else
        abilities,  # a concession's ability, on a turn of a company its owner directs
        home,  # VII.3.2
        issue,  # VII.3.3
        track,  # VII.3.4-5 and the commissioners' extra lays
        token,  # VII.3.6
        route,  # VII.3.7 (blocking)
        dividend,  # VII.3.8 (blocking)
        buy_train,  # VII.3.9: from the bank or the pool, and trade-ins
        emergency,  # VII.3.10: financing the forced train, bankruptcy
        offer,  # VII.3.9: from another company; blocks for the three (steps/buy_train.py)
        machines,  # VII.3.11
        done,  # the director ends the turn
    ),
    begin=begin,
    proceed=proceed,
    over=over,
    finish=finish,
)
flow.register("operating", OPERATING)
