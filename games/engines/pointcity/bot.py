"""The greedy bot's score for Point City (games.engines.bots): see
README.md, "The greedy bot"."""

from __future__ import annotations

from typing import Any

from .payment import permanent
from .scoring import player_score

State = dict[str, Any]

# Points count most; a permanent resource (a building in the city) pays for
# later takes and counts for civic tokens; a card in stock pays only once.
PERMANENT_WEIGHT = 0.5
STOCK_WEIGHT = 0.3
# A pile draw brings two cards the player cannot see before taking them.
DRAWN_CARDS = 2


def value(player: dict[str, Any]) -> float:
    points = player_score(player)["total"]
    resources = sum(permanent(player["city"]).values())
    return points + PERMANENT_WEIGHT * resources + STOCK_WEIGHT * len(player["stock"])


def score(before: State, seat: int, action: dict[str, Any], after: State) -> float:
    """The seat's gain in `value`.  A draw is scored by the number of cards
    alone: the after-state knows which cards come, the player does not."""
    if action["type"] == "draw":
        return STOCK_WEIGHT * DRAWN_CARDS
    return value(after["seats"][seat]) - value(before["seats"][seat])
