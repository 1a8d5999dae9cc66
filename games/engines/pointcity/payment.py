"""Paying for buildings: permanent resources first, then resource cards.

A payment plan is the sorted list of stock-card kinds a player discards, e.g.
``["energy", "energy2", "ingenuity"]``.  Two cards of the same kind are
interchangeable, so plans that differ only in which energy card goes are one
plan.  Permanent resources are free and never spent, so they always pay first
(using one never costs anything); only what they leave over is paid in cards.

A plan must be *minimal*: dropping any card from it would leave the cost
unpaid.  Discarding a card you do not need is never a payment (the texts only
speak of paying the cost), and it keeps the list of plans short.  A double card
may cover a single symbol; no change is given.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .data import CARDS, KIND_OF, RESOURCES, STOCK_KINDS, WILD

KIND_ORDER = {kind: i for i, kind in enumerate(STOCK_KINDS)}


def permanent(city: list[int]) -> dict[str, int]:
    """Permanent resources of the buildings in a city, by type (zeros included)."""
    perm = dict.fromkeys(RESOURCES, 0)
    for card_id in city:
        produced = CARDS[card_id].produces
        if produced:
            perm[produced] += 1
    return perm


def _type_options(need: int, singles: int, doubles: int) -> list[tuple[int, int, int]]:
    """(singles, doubles, shortfall) choices for one type that waste no card.

    A single is needless once the type is covered without it (a + 2b <= need);
    a double is needless once it is covered without it (a + 2b <= need + 1).
    The shortfall is left for Ingenuity.
    """
    options = []
    for b in range(min(doubles, (need + 1) // 2) + 1):
        for a in range(min(singles, max(0, need - 2 * b)) + 1):
            options.append((a, b, max(0, need - a - 2 * b)))
    return options


def stock_vector(stock: list[int]) -> list[int]:
    """How many stock cards of each kind, in STOCK_KINDS order."""
    vector = [0] * len(STOCK_KINDS)
    for card_id in stock:
        vector[KIND_OF[card_id]] += 1
    return vector


def plans_for(need: tuple[int, ...], counts: list[int]) -> list[list[str]]:
    """`plans` on vectors: need per resource, card counts per STOCK_KINDS."""
    n = len(RESOURCES)
    total = sum(need)
    # Cards beyond what the need could ever use change nothing: capping them
    # makes the cache key small, and the cache is what keeps listing fast.
    singles = [min(counts[i], need[i]) for i in range(n)]
    doubles = [min(counts[n + i], (need[i] + 1) // 2) for i in range(n)]
    wild = min(counts[-1], total)
    if sum(singles) + 2 * sum(doubles) + wild < total:
        return []
    return [list(plan) for plan in _plans(need, (*singles, *doubles, wild))]


@lru_cache(maxsize=1 << 16)
def _plans(need: tuple[int, ...], counts: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    n = len(RESOURCES)
    types = [i for i in range(n) if need[i] > 0]
    choices = [_type_options(need[i], counts[i], counts[n + i]) for i in types]
    found = []
    for combo in product(*choices):
        shortfall = sum(option[2] for option in combo)
        if shortfall > counts[-1]:
            continue
        plan: list[str] = []
        for i, (a, b, _short) in zip(types, combo, strict=True):
            plan += [RESOURCES[i]] * a + [RESOURCES[i] + "2"] * b
        plan += [WILD] * shortfall
        found.append(tuple(canonical(plan)))
    return tuple(sorted(found, key=lambda p: (len(p), [KIND_ORDER[k] for k in p])))


def canonical(plan: list[str]) -> list[str]:
    return sorted(plan, key=KIND_ORDER.__getitem__)


def spend(stock: list[int], plan: list[str]) -> tuple[list[int], list[int]]:
    """Remove the plan's cards from a stock: the oldest card of each kind goes.

    Which of two equal cards goes has no effect on play; taking the oldest just
    makes the choice deterministic.  Returns (new stock, discarded card ids).
    """
    left = list(stock)
    spent = []
    for kind in plan:
        card_id = next(c for c in left if CARDS[c].stock_kind == kind)
        left.remove(card_id)
        spent.append(card_id)
    return left, spent
