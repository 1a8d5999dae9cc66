"""A finished game in the one shape pages, mails and the API read, and the
ranking every title builds it with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict

Score = int | float


class Opponent(TypedDict):
    """A solo game's automated opponent: it holds no seat, only a score."""

    score: Score


class Result(TypedDict):
    """A finished game, in the one shape pages, mails and the API read.

    Lists run over the seats in seat order.  `places` are 1-based, and seats
    share a place only when the title's tie-breakers leave them tied; the
    `winners` are exactly the seats in place 1 (none when a solo player loses
    to the opponent).  `ended_by` is a short reason, stable per title (each
    title's README lists its values).  `breakdown` gives per seat the
    scoring parts the rules name; they add up to that seat's score.
    """

    winners: list[int]
    places: list[int]
    scores: list[Score]
    ended_by: str
    breakdown: list[dict[str, Score]]
    opponent: NotRequired[Opponent]


def rank(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """1-based places from per-seat sort keys, higher keys better.

    A title builds each seat's key from its own rules, most important part
    first and its tie-breakers after, so seats share a place exactly when
    every tie-breaker leaves them level; the next place skips the shared ones
    (1, 1, 3).
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def finished(
    places: list[int],
    scores: list[Score],
    ended_by: str,
    breakdown: list[dict[str, Score]],
    opponent: Score | None = None,
) -> Result:
    """A `Result` whose winners are the seats in first place."""
    out = Result(
        winners=[seat for seat, place in enumerate(places) if place == 1],
        places=list(places),
        scores=list(scores),
        ended_by=ended_by,
        breakdown=breakdown,
    )
    if opponent is not None:
        out["opponent"] = Opponent(score=opponent)
    return out
