"""Who sits at which table, and in which seat: pure functions, no Django.

A round's input is the players in their order (Swiss: the standings; round
robin: one seeded order for the whole tournament), how often each pair has
met, the seats each player has held, the byes each has had, and a seed.
The same input always gives the same tables (docs/tournaments.md,
"Pairing").

Round robin at tables of two, while nobody has dropped, is the circle
method instead (`circle_round`): every pair meets exactly once in `n - 1`
rounds (`n` rounds and one bye each when `n` is odd).

1. Table sizes: `ceil(n / size)` tables as equal as possible, if every one
   of them has `size` or `size - 1` players and the title takes that many;
   otherwise `n // size` full tables and the rest sit out the round (byes).
2. Byes go to the players with the fewest byes so far, then the lowest in
   the order.
3. Tables: the order cut into consecutive groups (largest tables first),
   then improved by exchanging two players between two tables while that
   lowers the cost; while repeats remain, the same from seeded shuffles of
   the order, keeping the cheapest.  The cost is, first, the repeats (for
   every pair at a table, the square of how often they met before, so a
   third meeting weighs more than two second ones), then (Swiss only) the
   spread of each table in the order (its last place minus its first), so
   players of like points meet.
4. Seats: at each table the order of its players over the seats that,
   first, does not put in the first seat someone who sat first before
   (whenever anyone at the table never has: moving first is the advantage
   most titles give), then puts the fewest players in a seat number they
   held before, then keeps each player's total of seat numbers nearest the
   middle (who sat early before sits later now); ties go to the first such
   order in the table's player order.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# Fresh starts from seeded shuffles, beside the order itself.
RESTARTS = 12


@dataclass
class History:
    """What earlier rounds left: meetings per pair (frozenset of two keys),
    the seat numbers each player held, and their byes."""

    met: dict[frozenset, int] = field(default_factory=dict)
    seats: dict[int, list[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)

    def meetings(self, a: int, b: int) -> int:
        return self.met.get(frozenset((a, b)), 0)


def table_sizes(count: int, size: int, least: int) -> tuple[list[int], int]:
    """The tables' sizes, largest first, and how many players get a bye."""
    if count < max(2, least):
        return [], count
    tables = math.ceil(count / size)
    small, extra = divmod(count, tables)
    sizes = [small + 1] * extra + [small] * (tables - extra)
    if min(sizes) >= max(size - 1, least, 2):
        return sizes, 0
    full = count // size
    return [size] * full, count - full * size


def byes(order: Sequence[int], count: int, history: History) -> list[int]:
    """The `count` players who sit out: fewest byes so far, then lowest."""
    if count <= 0:
        return []
    ranked = sorted(range(len(order)), key=lambda i: (history.byes.get(order[i], 0), -i))
    chosen = {order[i] for i in ranked[:count]}
    return [p for p in order if p in chosen]


def pair_round(
    order: Sequence[int],
    size: int,
    least: int,
    history: History,
    seed: int,
    *,
    by_points: bool,
) -> tuple[list[list[int]], list[int]]:
    """The round's tables (each a list of players in seat order) and its byes."""
    sizes, bye_count = table_sizes(len(order), size, least)
    out = byes(order, bye_count, history)
    playing = [p for p in order if p not in set(out)]
    tables = group(playing, sizes, history, seed, by_points=by_points)
    return [seat(table, history) for table in tables], out


def group(
    playing: Sequence[int],
    sizes: Sequence[int],
    history: History,
    seed: int,
    *,
    by_points: bool,
) -> list[list[int]]:
    """The players cut into tables of `sizes`, at the least cost."""
    rank = {p: i for i, p in enumerate(playing)}
    weights = _weights(history)
    rng = random.Random(seed)
    starts = [list(playing)]
    for _ in range(RESTARTS):
        shuffled = list(playing)
        rng.shuffle(shuffled)
        starts.append(shuffled)
    best, best_cost = None, None
    for start in starts:
        tables = _cut(start, sizes)
        _improve(tables, weights, rank, by_points)
        cost = _cost(tables, weights, rank, by_points)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost[0] == 0:
            break  # no repeat left: a fresh start could only cost time
    assert best is not None
    best.sort(key=lambda t: min(rank[p] for p in t))
    return [sorted(t, key=rank.__getitem__) for t in best]


Weights = dict[tuple[int, int], int]


def _weights(history: History) -> Weights:
    """Each pair's weight, the square of its meetings, by (lower, higher)."""
    return {tuple(sorted(pair)): n * n for pair, n in history.met.items()}  # type: ignore[misc]


def _weight(weights: Weights, a: int, b: int) -> int:
    return weights.get((a, b) if a < b else (b, a), 0)


def _cut(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, at = [], 0
    for n in sizes:
        tables.append(list(players[at : at + n]))
        at += n
    return tables


def _spread(table: Sequence[int], rank: Mapping[int, int]) -> int:
    places = [rank[p] for p in table]
    return max(places) - min(places)


def _cost(tables, weights: Weights, rank, by_points: bool) -> tuple[int, int]:
    return (
        sum(_weight(weights, a, b) for t in tables for a, b in itertools.combinations(t, 2)),
        sum(_spread(t, rank) for t in tables) if by_points else 0,
    )


def _improve(tables: list[list[int]], weights: Weights, rank, by_points: bool) -> None:
    """Exchange two players between two tables while that lowers the cost
    (the change of the two tables' cost, computed from the two players
    alone for the repeats)."""
    better = True
    while better:
        better = False
        for first, second in itertools.combinations(tables, 2):
            for i, j in itertools.product(range(len(first)), range(len(second))):
                a, b = first[i], second[j]
                change = sum(
                    _weight(weights, b, x) - _weight(weights, a, x) for x in first if x != a
                ) + sum(_weight(weights, a, y) - _weight(weights, b, y) for y in second if y != b)
                if change > 0:
                    continue
                spread = 0
                if by_points:
                    before = _spread(first, rank) + _spread(second, rank)
                    first[i], second[j] = b, a
                    spread = _spread(first, rank) + _spread(second, rank) - before
                    first[i], second[j] = a, b
                if (change, spread) < (0, 0):
                    first[i], second[j] = b, a
                    better = True


def seat(table: Sequence[int], history: History) -> list[int]:
    """`table`'s players in seat order (rule 4 above)."""
    n = len(table)
    middle = (n - 1) / 2

    def cost(order: Sequence[int]) -> tuple[int, int, float]:
        first_again = 1 if 0 in history.seats.get(order[0], ()) else 0
        again = sum(1 for s, p in enumerate(order) if s in history.seats.get(p, ()))
        drift = 0.0
        for s, p in enumerate(order):
            held = history.seats.get(p, [])
            drift += (sum(held) + s - middle * (len(held) + 1)) ** 2
        return first_again, again, drift

    return list(min(itertools.permutations(table), key=cost))


def circle_round(
    order: Sequence[int], number: int, history: History
) -> tuple[list[list[int]], list[int]]:
    """Round `number` (from 1) of the circle method for tables of two: the
    first player stays, the others turn one place a round; with an odd
    count, whoever faces the empty place has the bye.  Seats as rule 4."""
    players: list[int | None] = list(order)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    turn = (number - 1) % (n - 1)
    rest = players[1:]
    line = [players[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    tables, out = [], []
    for i in range(n // 2):
        a, b = line[i], line[n - 1 - i]
        if a is None or b is None:
            out.append(b if a is None else a)
        else:
            tables.append(seat([a, b], history))
    return tables, [p for p in out if p is not None]
