"""The final totals (draft IX.2): each player's cash plus their shares at the
share price chart's value; company treasuries and trains count for nothing.
"""

from __future__ import annotations

from ..base import Result, Score, State, finished, rank
from .data import market
from .rules import shares
from .rules.cash import player


def share_value(state: State, seat: int) -> int:
    """What a player's certificates are worth at their companies' prices. A
    price is per ordinary share: 10% of a major or the FC, 20% of a minor
    (a minor's 60% opens at three times its par, VI.7)."""
    holder = player(seat)
    total = 0
    for sym, held in state["certificates"].items():
        price = state["companies"][sym]["price"]
        if price is not None:
            total += shares.units(sym, sum(held.get(holder, []))) * market.CELLS[price].price
    return total


def wealth(state: State, seat: int) -> dict[str, Score]:
    return {"cash": state["cash"][player(seat)], "shares": share_value(state, seat)}


def result(state: State) -> Result | None:
    """Most wealth wins; the draft names no tie-breaker, so equal wealth
    shares a place. A player who went bankrupt ranks last whatever their
    wealth (the game ended because they could not go on: winning by it would
    reward the bankruptcy), and the others by wealth. `ended_by` is the
    state's end reason."""
    end = state["end"]
    if end is None:
        return None
    breakdown = [wealth(state, seat) for seat in range(state["players"])]
    scores: list[Score] = [sum(parts.values()) for parts in breakdown]
    bankrupt = end.get("bankrupt")
    keys = [(seat != bankrupt, score) for seat, score in enumerate(scores)]
    return finished(rank(keys), scores, end["reason"], breakdown)
