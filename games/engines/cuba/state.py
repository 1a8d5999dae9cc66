"""The typed state of an 18Cuba game and its one copy.

The state is plain JSON (the house rule for every title); these TypedDicts
say what each key holds and which module owns it, so the steps cannot
drift apart. Parts of it stay empty until the rounds that fill them exist.
"""

from __future__ import annotations

from typing import Any, TypedDict

from ..typed import copier
from .board import Board
from .cash import Ledger


class CompanyState(TypedDict):
    """A company's charter: what it owns and where its marker is."""

    floated: bool
    operated: bool  # has run at least one OR (shares may be sold only then)
    par: int | None  # market cell of its par price
    price: int | None  # market cell of its share price marker
    trains: list[str]  # card names (`trains.BY_NAME`), obsolete ones as "3-1n"
    wagons: list[str]  # majors only
    machines: list[int]  # minors only: the generation of each machine
    tokens_placed: int  # station tokens on the map, the home included
    home: list[Any] | None  # [hex, city] once chosen (minors, the FEC)
    cubes: int  # sugar cubes waiting at a minor's mill


class RoundState(TypedDict):
    """Where the game is: the round and the steps' own data."""

    kind: str  # "auction", "stock", "operating"
    number: int  # SR number, or the OR's set number
    of: int  # ORs in this set (1-3); 1 for a stock round
    index: int  # which OR of the set, from 1
    entity: str | None  # the acting company (OR) or player account (SR)
    steps: dict[str, Any]  # per step module, that step's data for this turn


class CubaState(TypedDict):
    variant: str  # `variants.VARIANT_IDS`
    players: int
    order: list[int]  # seats in playing order (the dealt playing-order cards)
    priority: int  # the seat holding the priority deal card
    phase: int
    cash: Ledger  # `cash`: every balance, the bank's included
    certificates: dict[str, dict[str, list[int]]]  # `shares`
    companies: dict[str, CompanyState]
    market: list[list[str]]  # per cell, the markers on it, top first
    depot: dict[str, int | None]  # cards left per stack (None: unlimited)
    pool: list[str]  # trains in the bank pool
    fc_trains: list[str]  # exported to the FC, newest last
    commissioners: dict[str, str | None]  # card -> owner account (None: unsold)
    concessions: dict[str, str | None]
    board: Board  # `board`, `laying`, `tokens`
    round: RoundState
    end: dict[str, Any] | None


# The copy `apply` plays on, generated from the declaration above as the
# other titles' are, so no key can be forgotten.
copy_state = copier(CubaState)
