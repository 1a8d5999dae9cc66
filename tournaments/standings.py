"""Points and standings from the games' results: pure functions, no Django.

Points for a place: at a table of `n` players, with the tournament's table
size `size`, place `p` (1-based) is worth `(size - 1) * (n - p) / (n - 1)`:
at a full table of four, 3, 2, 1 and 0; at a table of three in a
tournament of fours, 3, 1.5 and 0, so first and last are worth the same at
every table.  Players sharing a place share the points of the places they
cover, averaged (two tied first at a four: (3 + 2) / 2 = 2.5 each).  A bye
is worth the average of a full table, `(size - 1) / 2`.  A game that could
not go on once a player left it (aborted by a resignation) ranks those who
stayed tied first and those who left tied after them; a first place counts
as one only for a player left alone.  Any other game that did not finish
(aborted by a moderator) is worth nothing to anyone at it.

The standings order: points, then Buchholz (the sum of the points of every
opponent met at a table, their final points), then the number of first
places, then rating in the title, then sign-up order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


def place_points(places: Sequence[int], size: int) -> list[Fraction]:
    """Each seat's points for `places` (1-based, ties shared, the next place
    skipping the shared ones, as a result gives them)."""
    n = len(places)
    if n < 2:
        return [Fraction(0)] * n

    def worth(p: int) -> Fraction:
        return Fraction((size - 1) * (n - p), n - 1)

    points = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        covered = range(place, place + tied)
        points.append(sum((worth(p) for p in covered), Fraction(0)) / tied)
    return points


def bye_points(size: int) -> Fraction:
    return Fraction(size - 1, 2)


@dataclass
class Line:
    """One player's line of the standings."""

    key: int
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    firsts: int = 0
    rating: float = 0.0
    order: int = 0
    opponents: list[int] = field(default_factory=list)
    played: int = 0
    byes: int = 0


@dataclass(frozen=True)
class Table:
    """A finished table: its players in seat order and their places (None
    when its game ended without a result); `decided`: whether its places
    count as first places."""

    players: Sequence[int]
    places: Sequence[int] | None
    decided: bool = True


def after_leaving(players: Sequence[int], left: Sequence[bool]) -> Table:
    """The table of a game that could not go on once players left it: who
    stayed tied first, who left tied after them."""
    stayed = left.count(False)
    places = [stayed + 1 if gone else 1 for gone in left]
    return Table(players, places, decided=stayed == 1)


def standings(
    entries: Sequence[int],
    tables: Sequence[Table],
    byes: Sequence[int],
    size: int,
    ratings: Mapping[int, float] | None = None,
) -> list[Line]:
    """The lines, best first; `entries` in sign-up order."""
    lines = {key: Line(key, order=i, rating=(ratings or {}).get(key, 0.0))
             for i, key in enumerate(entries)}  # fmt: skip
    for table in tables:
        points = (
            place_points(table.places, size)
            if table.places is not None
            else [Fraction(0)] * len(table.players)
        )
        for seat, key in enumerate(table.players):
            line = lines[key]
            line.points += points[seat]
            line.played += 1
            first = table.decided and table.places is not None and table.places[seat] == 1
            line.firsts += 1 if first else 0
            line.opponents.extend(other for other in table.players if other != key)
    for key in byes:
        lines[key].points += bye_points(size)
        lines[key].byes += 1
    for line in lines.values():
        line.buchholz = sum((lines[o].points for o in line.opponents), Fraction(0))
    return sorted(lines.values(), key=rank_key)


def rank_key(line: Line) -> tuple:
    return (-line.points, -line.buchholz, -line.firsts, -line.rating, line.order)
