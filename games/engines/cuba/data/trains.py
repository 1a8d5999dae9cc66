"""Trains, wagons and sugar-mill machines as static data (draft II, VII.3.9,
VII.3.11 and the phase table; the narrow-train and wagon tables are missing
from the draft, so their prices and counts come from the implementation and
are marked provisional).

Counts are per setup variant (`variants.VARIANT_IDS`). A count of None means
an unlimited stack (the draft's "x" for the 8/4D).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .variants import VARIANT_IDS

Gauge = Literal["standard", "narrow"]


@dataclass(frozen=True)
class TrainCard:
    """One card type a company buys; `name` is what `routes.train_from_name` reads."""

    name: str
    gauge: Gauge
    distance: int
    price: int
    # The physical stack this card is drawn from: "3" holds both 3 and 3+.
    stack: str
    available_from_phase: int
    rusts_in_phase: int | None = None
    obsolete_in_phase: int | None = None
    obsolete_as: str | None = None  # the name it runs under once obsolete
    provisional: bool = False


@dataclass(frozen=True)
class Wagon:
    name: str
    capacity: int  # sugar cubes carried to a harbor
    price: int
    count: int
    available_from_phase: int
    provisional: bool = True  # prices and counts: implementation only


@dataclass(frozen=True)
class MachineGeneration:
    generation: int
    bonus: int  # added to a minor's income
    count: int
    available_from_phase: int
    # The first spaces are cheaper than the rest (VII.3.11); which price
    # belongs to which space is not stated: decided in part 3's README.
    prices: tuple[int, ...]


STANDARD: tuple[TrainCard, ...] = (
    TrainCard("2", "standard", 2, 100, "2", 1, rusts_in_phase=4),
    TrainCard("3", "standard", 3, 200, "3", 2, rusts_in_phase=6),
    TrainCard("3+", "standard", 3, 230, "3", 2, rusts_in_phase=6),
    TrainCard("4", "standard", 4, 300, "4", 3, rusts_in_phase=7),
    TrainCard("4+", "standard", 4, 340, "4", 3, rusts_in_phase=7),
    TrainCard("5", "standard", 5, 500, "5", 4),
    TrainCard("5+", "standard", 5, 550, "5", 4),
    TrainCard("6", "standard", 6, 600, "6", 5),
    TrainCard("6+", "standard", 6, 660, "6", 5),
    TrainCard("8", "standard", 8, 700, "8/4D", 6),
    TrainCard("4D", "standard", 4, 800, "8/4D", 6),
)
# Standard trains come off one stack in ascending order, so a card is on sale
# once the stack before it is empty; `available_from_phase` is the earliest
# phase in which that can happen and is informative only.

NARROW: tuple[TrainCard, ...] = (
    TrainCard("2n", "narrow", 2, 80, "2n", 1, rusts_in_phase=4, provisional=True),
    TrainCard(
        "3n",
        "narrow",
        3,
        180,
        "3n",
        3,
        rusts_in_phase=6,
        obsolete_in_phase=5,
        obsolete_as="3-1n",
        provisional=True,
    ),
    TrainCard(
        "4n",
        "narrow",
        4,
        260,
        "4n",
        4,
        obsolete_in_phase=7,
        obsolete_as="4-1n",
        provisional=True,
    ),
    TrainCard("5n", "narrow", 5, 380, "5n", 5, provisional=True),
)


def _per_variant(*counts: int | None) -> dict[str, int | None]:
    return dict(zip(VARIANT_IDS, counts, strict=True))


# Standard-train stacks per variant (draft's overview table; columns 2e 2h 2c
# 3e 3h 4 5 6 as in its other tables, the header line being lost).
STANDARD_COUNTS: dict[str, dict[str, int | None]] = {
    "2": _per_variant(6, 6, 6, 7, 7, 8, 10, 12),
    "3": _per_variant(6, 6, 6, 7, 7, 7, 8, 9),
    "4": _per_variant(5, 5, 5, 5, 5, 5, 6, 6),
    "5": _per_variant(4, 4, 4, 4, 4, 4, 4, 4),
    "6": _per_variant(3, 3, 3, 3, 3, 3, 3, 3),
    "8/4D": _per_variant(None, None, None, None, None, None, None, None),
}
# Narrow stacks per player count (implementation only: the draft's table is
# missing; its totals exceed the 28 narrow cards of the box for 6 players).
NARROW_COUNTS: dict[str, dict[int, int]] = {
    "2n": {2: 7, 3: 5, 4: 7, 5: 9, 6: 10},
    "3n": {2: 5, 3: 5, 4: 6, 5: 7, 6: 8},
    "4n": {2: 4, 3: 3, 4: 4, 5: 5, 6: 6},
    "5n": {2: 5, 3: 4, 4: 5, 5: 6, 6: 7},
}

WAGONS: tuple[Wagon, ...] = (
    Wagon("1-wagon", 1, 40, 8, 2),
    Wagon("2-wagon", 2, 80, 6, 4),
    Wagon("3-wagon", 3, 150, 4, 6),
)

MACHINES: tuple[MachineGeneration, ...] = (
    MachineGeneration(1, 10, 12, 1, (25, 30, 35, 40)),
    MachineGeneration(2, 20, 8, 3, (45, 50, 55, 60)),
    # +40 as the phase and machine tables say; the component list's +30 loses.
    MachineGeneration(3, 40, 4, 5, (65, 70, 75, 80)),
)
MACHINE_BY_GENERATION: dict[int, MachineGeneration] = {m.generation: m for m in MACHINES}


def machines_bonus(generations: Iterable[int]) -> int:
    """What a minor's machines add to its income (+10/+20/+40 per generation)."""
    return sum(MACHINE_BY_GENERATION[g].bonus for g in generations)


MAX_MACHINES_PER_MINOR = 3
MINOR_TRAIN_LIMIT = 2

# The FC's own preprinted train (IV.5).
FC_TRAIN = TrainCard("1", "standard", 1, 0, "FC", 1)

BY_NAME: dict[str, TrainCard] = {t.name: t for t in (*STANDARD, *NARROW, FC_TRAIN)}
