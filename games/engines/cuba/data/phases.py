"""The seven phases of 18Cuba as static data (draft VII.3.14, the phase table).

A phase starts when the first standard train of a new type is bought or
exported to the FC. The draft is cut off after phase 7's list; nothing it
could add is guessed here.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("yellow", "green", "brown", "gray")


@dataclass(frozen=True)
class Phase:
    number: int
    # The standard-train stack whose first card starts this phase (None: the
    # start of the game).
    trigger: str | None
    tiles: tuple[str, ...]
    operating_rounds: int  # ORs in each set while this phase holds (VII.1)
    major_train_limit: int
    rusts: tuple[str, ...] = ()  # train names scrapped as the phase starts
    obsolete: tuple[str, ...] = ()  # n-trains that now run one stop fewer, worth half
    # What goes on sale as the phase starts (machines by generation, wagons by name).
    machines: int | None = None
    wagons: str | None = None


PHASES: tuple[Phase, ...] = (
    Phase(1, None, COLOURS[:1], 1, 4, machines=1),
    Phase(2, "2", COLOURS[:1], 1, 4, wagons="1-wagon"),
    Phase(3, "3", COLOURS[:2], 2, 4, machines=2),
    Phase(4, "4", COLOURS[:2], 2, 3, rusts=("2", "2n"), wagons="2-wagon"),
    Phase(5, "5", COLOURS[:3], 3, 2, obsolete=("3n",), machines=3),
    Phase(6, "6", COLOURS[:3], 3, 2, rusts=("3", "3+", "3n"), wagons="3-wagon"),
    Phase(7, "8/4D", COLOURS, 3, 2, rusts=("4", "4+"), obsolete=("4n",)),
)
# Phase 1 already limits majors to 4 trains: the draft says "at the beginning
# each major may own up to 4" and lists the limit under phase 2.

BY_NUMBER: dict[int, Phase] = {p.number: p for p in PHASES}
BY_TRIGGER: dict[str, Phase] = {p.trigger: p for p in PHASES if p.trigger is not None}


def phase(number: int) -> Phase:
    return BY_NUMBER[number]
