"""The shape of a Havana state, and the copy ``apply`` plays on.

Setup (setup.py) makes it; the rules change the copy in place.  Parts
marked SHARED are never changed in place (the building table, the options),
so copies share them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from ..typed import SHARED, copier

Cubes = dict[str, int]  # colour -> count


class Seat(TypedDict):
    hand: list[str]  # card codes
    discard: list[str]
    cards: list[str]  # the two (or, with a replacement, more) in front
    pesos: int
    workers: int
    cubes: Cubes
    buildings: list[int]
    vp: int


class Choice(TypedDict, total=False):
    """A seat's face-down choice while others still choose."""

    cards: list[str]  # a pair ("choose")
    card: str  # a replacement ("replace"): the card played ...
    cover: str  # ... on this one


class Flags(TypedDict):
    worker: bool
    black_market: bool
    conserved: bool


class Centre(TypedDict):
    pesos: int
    cubes: Cubes


class Building(TypedDict):
    vp: int
    cost: Cubes
    architect: bool


class HavanaState(TypedDict):
    players: int
    options: Annotated[dict[str, Any], SHARED]
    target: int
    round: int
    phase: Literal["choose", "replace", "actions", "over"]
    seats: list[Seat]
    pending: list[Choice | None]  # per seat
    order: list[int]  # the seats in turn order this round
    turn: int | None  # index into order
    done: list[str]  # cards used this turn
    buying: bool
    flags: Flags
    centre: Centre
    workers: int  # in the supply
    bag: list[str]
    removed: Cubes
    rows: list[list[int]]
    pile: list[int]
    boxed: list[int]
    resigned: list[int]
    end: dict[str, Any] | None
    buildings: Annotated[dict[str, Building], SHARED]  # by id


copy_state = copier(HavanaState)
