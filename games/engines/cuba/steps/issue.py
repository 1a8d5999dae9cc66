"""VII.3.3: issue one treasury share into the pool or redeem one from it, once per OR.

Not built yet: inactive, so a company's turn passes over it.
"""

from __future__ import annotations

from typing import Any

from ...base import IllegalAction

NAME = "issue or redeem a share"
ACTIONS: frozenset[str] = frozenset()

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    return False


def blocking(state: State) -> bool:
    return False


def legal(state: State, seat: int) -> list[Action]:
    return []


def apply(state: State, seat: int, action: Action) -> None:
    raise IllegalAction(f"{NAME} is not possible yet")


def text(action: Action) -> str:
    raise IllegalAction(f"{NAME} has no moves yet")


def parse(words: list[str], state: State, seat: int) -> Action | None:
    return None
