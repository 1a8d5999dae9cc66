"""Turn order: the two-digit number of the face-up cards and its tie-breaks."""

from __future__ import annotations

from ..base import State
from . import data


def arrange(cards: list[str]) -> list[str]:
    """Two cards lower-left, so they read as the smallest two-digit number."""
    return sorted(cards, key=data.card_sort_key)


def number(cards: list[str]) -> int:
    low, high = arrange(cards)
    return 10 * data.card_value(low) + data.card_value(high)


def coloured(seat: dict) -> int:
    return sum(seat["cubes"][c] for c in data.COLOURED)


def tie_key(state: State, index: int) -> tuple:
    """Lower sorts first: the number, then fewest VP, coloured cubes, pesos,
    workers, gray cubes, then the youngest player.

    Youngest comes from the `ages` option (ages in years, lower = younger);
    without it the lower seat number counts as the younger player.
    """
    seat = state["seats"][index]
    ages = state["options"].get("ages")
    youth = (ages[index], index) if ages else (index, index)
    return (
        number(seat["cards"]),
        seat["vp"],
        coloured(seat),
        seat["pesos"],
        seat["workers"],
        seat["cubes"]["gray"],
        youth,
    )


def turn_order(state: State) -> list[int]:
    active = [i for i in range(state["players"]) if i not in state["resigned"]]
    return sorted(active, key=lambda i: tie_key(state, i))
