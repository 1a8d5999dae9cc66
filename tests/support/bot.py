"""The duel's greedy score (games.engines.bots finds a title's `bot` module
beside its engine), so that the test engine's games can seat bots: commit
the highest card, draw rather than pass."""

from __future__ import annotations

from typing import Any


def score(before: Any, seat: int, action: dict[str, Any], after: Any) -> float:
    if action["type"] == "commit":
        return float(action["card"])
    return 1.0 if action["type"] == "draw" else 0.0
