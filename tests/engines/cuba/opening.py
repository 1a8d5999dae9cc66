"""Playing the opening of 18Cuba through the engine, for the opening's tests."""

from __future__ import annotations

from typing import Any

from games.engines.cuba.engine import CubaEngine
from games.engines.cuba.rules import cash

ENGINE = CubaEngine()

# The draft's tables (IV.1, IV.2), inlined: tests do not read the rules.
COSTS = {"M1": 120, "M2": 140, "M3": 150, "M4": 170, "M5": 180, "M6": 200}
FUNDING = {"C1": 30, "C2": 35, "C3": 40, "C4": 50, "C5": 70, "C6": 80}


def new(players: int = 3, difficulty: str | None = "easy", seed: int = 1) -> dict[str, Any]:
    options = {} if difficulty is None else {"difficulty": difficulty}
    return ENGINE.setup(players, options, seed)


def to_act(state: dict[str, Any]) -> int:
    (seat,) = ENGINE.to_act(state)
    return seat


def play(state: dict[str, Any], line: str, seat: int | None = None) -> dict[str, Any]:
    """One mail line by the seat to act (or `seat`), through parse and apply."""
    seat = to_act(state) if seat is None else seat
    return ENGINE.apply(state, seat, ENGINE.parse(line, state, seat))


def auction_data(state: dict[str, Any]) -> dict[str, Any]:
    return state["round"]["steps"]["auction"]


def sell_cheaply(state: dict[str, Any]) -> dict[str, Any]:
    """The current card goes to its starter for $0: they bid 0, all pass."""
    state = play(state, f"bid {auction_data(state)['card']} 0")
    while state["round"]["kind"] == "auction" and auction_data(state)["bid"] is not None:
        state = play(state, "pass")
    return state


def through_auction(state: dict[str, Any]) -> dict[str, Any]:
    while state["round"]["kind"] == "auction":
        state = sell_cheaply(state)
    return state


def money(state: dict[str, Any], seat: int) -> int:
    return state["cash"][cash.player(seat)]
