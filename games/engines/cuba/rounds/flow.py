"""The order of rounds (draft V, VI.6): the commissioners' auction, the
concession draft, the first stock round, then operating rounds and stock
rounds in turn. A round says when it is over; this module starts the next.
"""

from __future__ import annotations

from typing import Any

from ...base import State
from ...verbs import Verb
from ..rules import cash, log
from .base import Round

# Filled by `rounds/__init__`-free registration below, so each round module
# stays importable on its own (the steps import nothing of the flow).
ROUNDS: dict[str, Round] = {}

# Which round follows which; an operating round's successor is part of the
# operating rounds' own rules (sets of 1-3 ORs), so it is asked of them.
_NEXT = {"auction": "concessions", "concessions": "stock", "stock": "operating"}


def register(kind: str, round_: Round) -> None:
    ROUNDS[kind] = round_


def current(state: State) -> Round:
    return ROUNDS[state["round"]["kind"]]


def start(state: State, kind: str) -> None:
    """Open a round of `kind` and let it set itself up."""
    previous = state["round"]
    number = previous["number"]
    if kind == "stock" and previous["kind"] == "operating":
        number += 1  # a new stock round after a set of ORs; the set shares the SR's number
    state["round"] = new_round(kind, number)
    ROUNDS[kind].begin(state)
    note_round(state)


def note_round(state: State) -> None:
    """A new round (or the next OR of a set) begins: a line in the log."""
    r = state["round"]
    log.note(state, "round", kind=r["kind"], number=r["number"], index=r["index"], of=r["of"])


def new_round(kind: str, number: int) -> Any:
    return {"kind": kind, "number": number, "of": 1, "index": 1, "entity": None, "steps": {}}


def settle(state: State) -> None:
    """After a move: what follows without a decision (`Round.proceed`), and
    while the current round is over, finish it and start the next one (a
    round may end as soon as it begins, e.g. a draft with nothing left to
    choose). The bank is watched after each of these, so the round in which
    it broke is the one recorded. Nothing follows a move that ended the
    game (a bankruptcy)."""
    if state["end"] is not None:
        return
    current(state).proceed(state)
    note_bank(state)
    while state["end"] is None and current(state).over(state):
        current(state).finish(state)
        note_bank(state)
        if state["end"] is not None:
            return
        start(state, _NEXT.get(state["round"]["kind"], "stock"))
        current(state).proceed(state)
        note_bank(state)


def note_bank(state: State) -> None:
    """IX.1: remember the round in which the bank first ran out of money;
    the operating rounds end the game from it (`rounds.operating`)."""
    if state["ending"] is None and cash.bank_broken(state["cash"]):
        r = state["round"]
        state["ending"] = {"round": r["kind"], "set": r["number"]}
        log.note(state, "bank_broken", round=r["kind"], set=r["number"])


def begin_game(state: State) -> None:
    """The first round's set-up (setup.py leaves the auction opened by the
    priority holder), then any round that is over at once."""
    current(state).begin(state)
    settle(state)


def verbs() -> list[Verb]:
    """Every verb of the game's steps, once (a verb several steps share,
    the pass, is one declaration), in the order the rounds list them."""
    out: dict[int, Verb] = {}
    for round_ in ROUNDS.values():
        for step in round_.steps:
            for verb in step.VERBS:
                out.setdefault(id(verb), verb)
    return list(out.values())
