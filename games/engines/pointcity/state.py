"""The shape of a Point City state, and the copy ``apply`` plays on.

Setup (setup.py) makes it; the rules (turn.py, solo.py, market.py) change
the copy in place.  A market slot is replaced whole, never changed in place,
so copies share the slots.

The layout (plain JSON):

- ``pile``: card ids, top card first.  Hidden except the top card's resource side.
- ``removed``: cards returned to the box unseen, and unused starting cards.
- ``market``: 16 spaces in reading order, ``{"card", "side"}`` or None.
- ``display``: face-up civic tokens in their row order; ``token_box``: the
  unrevealed rest (hidden, never used).
- ``seats``: per player ``stock`` (resource cards, oldest first), ``city``
  (buildings), ``tokens``, ``turns`` taken, ``resigned``.
- ``bot``: the solo opponent (same fields plus its two market-token positions)
  or None.
- ``current``, ``phase`` (``turn`` / ``civic`` / ``over``), ``flipped`` (a flip
  was made this turn), ``pending`` (civic tokens still to take and the spaces
  to refill once they are taken), ``end`` (why the game ended).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from ..typed import SHARED, copier


class Slot(TypedDict):
    card: int
    side: Literal["resource", "building"]


class Player(TypedDict):
    stock: list[int]  # resource cards in hand
    city: list[int]  # buildings built
    tokens: list[int]  # civic tokens taken
    turns: int
    resigned: bool


class Bot(TypedDict):
    """The solo opponent."""

    stock: list[int]
    city: list[int]
    tokens: list[int]
    turns: int
    column: int
    row: int


class Pending(TypedDict):
    """Civic tokens still to choose, and the refill that waits for them."""

    civic: int
    refill: list[list[int | str]]  # [space, side the taken card showed]


class PointCityState(TypedDict):
    players: int
    level: int  # the solo opponent's stars
    pile: list[int]
    removed: list[int]
    market: list[Annotated[Slot | None, SHARED]]
    display: list[int]  # face-up civic tokens
    token_box: list[int]
    seats: list[Player]
    bot: Bot | None
    discard: list[int]
    first: int
    current: int
    phase: Literal["turn", "civic", "over"]
    flipped: bool
    pending: Pending | None
    end: str | None


copy_state = copier(PointCityState)
