"""The typed state of an 18Cuba game and its one copy.

The state is plain JSON (the house rule for every title); these TypedDicts
say what each key holds and which module owns it, so the steps cannot
drift apart. Parts of it stay empty until the rounds that fill them exist.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from ..typed import SHARED, copier
from .map.board import Board
from .rules.cash import Ledger


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


class PrivateState(TypedDict):
    """A commissioner (C1-C6) or a concession (M1-M6), owned by a player."""

    owner: str | None  # player account; None while unsold or unchosen
    out: bool  # back in the box: unchosen, unconverted, a commissioner's lay used
    minor: str | None  # a concession: the minor it was converted into
    company: str | None  # where its ability was put (#2, #5 majors; #3, #6 minors)
    # #3: the generation of the machine it was exchanged for. It came off that
    # generation's most expensive space, which the machine purchase prices by.
    machine: int | None


class RoundState(TypedDict):
    """Where the game is: the round and the steps' own data."""

    kind: str  # "auction", "concessions", "stock", "operating" (`rounds.flow`)
    number: int  # SR number, or the OR's set number
    of: int  # ORs in this set (1-3); 1 for a stock round
    index: int  # which OR of the set, from 1
    entity: str | None  # the acting player account (auction, draft, SR) or company (OR)
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
    privates: dict[str, PrivateState]  # C1-C6 commissioners, M1-M6 concessions
    board: Board  # `board`, `laying`, `tokens`
    round: RoundState
    # IX.1: where the bank first ran out ({"round": kind, "set": number}); the
    # game ends after the set of ORs numbered `set` (`rounds.operating`).
    ending: dict[str, Any] | None
    # {"reason": `ENDED_BY`}, and for a bankruptcy "bankrupt": the seat
    end: dict[str, Any] | None
    # What the latest move set off without a decision (`rules.log`): absent in
    # a game's setup (stored setups keep their keys).  Every move starts a new
    # list (`log.start`) rather than emptying the old one, so a copy shares it:
    # copying it through JSON was most of a copy's cost.
    log: NotRequired[Annotated[list[dict[str, Any]], SHARED]]


# The copy `apply` plays on, generated from the declaration above as the
# other titles' are, so no key can be forgotten.
copy_state = copier(CubaState)
