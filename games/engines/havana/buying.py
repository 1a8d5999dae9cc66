"""Buying buildings: which cards are open, every distinct way to pay, refills.

A payment plan is what leaves the buyer: cubes of each colour, workers and
pesos.  Two ways of paying that take the same things are one plan, so the
list a player sees has no duplicates.  Substitutions (house rule of the
published game): 5 gray cubes stand in for 1 coloured cube of any colour and
5 pesos for 1 worker, never the other way round.
"""

from __future__ import annotations

from itertools import chain, product
from typing import Any

from ..base import State
from . import data

SWAP = 5  # 5 gray = 1 coloured; 5 pesos = 1 worker


def open_buildings(state: State) -> list[int]:
    """The buildings at an end of a row, row by row, left end first."""
    out: list[int] = []
    for row in state["rows"]:
        for bid in (row[:1] + row[-1:]) if row else []:
            if bid not in out:
                out.append(bid)
    return out


def _colour_options(need: dict[str, int], have: dict[str, int]) -> list[tuple[int, ...]]:
    """Per colour, how many real cubes can pay that colour's specific slots."""
    ranges = [range(min(need.get(c, 0), have[c]) + 1) for c in data.COLOURED]
    return list(product(*ranges))


def _any_options(k: int, left: list[int]) -> list[tuple[int, ...]]:
    """Ways to pay up to `k` any-colour slots with real cubes still left."""
    ranges = [range(min(k, n) + 1) for n in left]
    return [combo for combo in product(*ranges) if sum(combo) <= k]


def payment_plans(cost: dict[str, int], seat: dict[str, Any]) -> list[dict[str, int]]:
    """Every distinct payment of `cost` the seat can afford, cheapest-looking first."""
    have = seat["cubes"]
    plans: set[tuple[int, ...]] = set()
    any_slots = cost.get("any_colored", 0)
    for real in _colour_options(cost, have):
        subs = sum(cost.get(c, 0) for c in data.COLOURED) - sum(real)
        left = [have[c] - r for c, r in zip(data.COLOURED, real, strict=True)]
        for extra in _any_options(any_slots, left):
            gray = cost.get("gray", 0) + SWAP * (subs + any_slots - sum(extra))
            if gray > have["gray"]:
                continue
            cubes = tuple(r + e for r, e in zip(real, extra, strict=True))
            for workers in range(min(cost.get("workers", 0), seat["workers"]) + 1):
                pesos = cost.get("pesos", 0) + SWAP * (cost.get("workers", 0) - workers)
                if pesos <= seat["pesos"]:
                    plans.add((*cubes, gray, workers, pesos))
    ordered = sorted(plans, key=lambda p: (p[4], p[6], p))
    return [{f: n for f, n in zip(data.COST_FIELDS, p, strict=True) if n} for p in ordered]


def may_build(state: State, seat_index: int, bid: int) -> bool:
    """The architect symbol needs the Architect face up this round."""
    building = state["buildings"][str(bid)]
    return not building["architect"] or "4a" in state["seats"][seat_index]["cards"]


def buy_actions(state: State, seat_index: int) -> list[dict[str, Any]]:
    seat = state["seats"][seat_index]
    actions = []
    for bid in open_buildings(state):
        if not may_build(state, seat_index, bid):
            continue
        for plan in payment_plans(state["buildings"][str(bid)]["cost"], seat):
            actions.append({"type": "buy", "building": bid, "pay": plan})
    return actions


def take_from_row(state: State, bid: int) -> None:
    """Remove a building from its row end and refill a row that fell to 2."""
    for row in state["rows"]:
        if bid in row:
            row.remove(bid)
            if len(row) <= data.REFILL_AT and state["pile"]:
                count = min(data.REFILL_COUNT, len(state["pile"]))
                fresh = [state["pile"].pop(0) for _ in range(count)]
                # The new cards go between the two that remain, which stay the ends.
                row[1:1] = fresh if row else []
                if not row:
                    row.extend(fresh)
            return


def pay(state: State, seat_index: int, plan: dict[str, int]) -> None:
    """Cubes go to the box (out of the game); workers and pesos to the supply."""
    seat = state["seats"][seat_index]
    for colour in data.CUBES:
        n = plan.get(colour, 0)
        seat["cubes"][colour] -= n
        state["removed"][colour] += n
    seat["workers"] -= plan.get("workers", 0)
    state["workers"] += plan.get("workers", 0)
    seat["pesos"] -= plan.get("pesos", 0)


def buy(state: State, seat_index: int, bid: int, plan: dict[str, int]) -> None:
    pay(state, seat_index, plan)
    take_from_row(state, bid)
    seat = state["seats"][seat_index]
    seat["buildings"].append(bid)
    seat["vp"] += state["buildings"][str(bid)]["vp"]


def _circulating(state: State) -> dict[str, int]:
    """Cubes that can still be spent: everything not yet in the box."""
    return {c: data.TOTAL_CUBES[c] - state["removed"][c] for c in data.CUBES}


def ever_buyable(state: State, bid: int, left: dict[str, int] | None = None) -> bool:
    """Could anyone ever pay this building with the cubes left in the game
    (`left`, by colour: `_circulating`, computed once by a caller asking of
    many buildings)?

    Workers return to the supply and the bank never runs out of pesos, so only
    cubes (which leave the game when spent) can make a building unbuildable.
    """
    cost = state["buildings"][str(bid)]["cost"]
    left = _circulating(state) if left is None else left
    short = spare = 0  # coloured cubes missing, and those left over
    for colour in data.COLOURED:
        over = left[colour] - cost.get(colour, 0)
        if over < 0:
            short -= over
        else:
            spare += over
    short += max(0, cost.get("any_colored", 0) - spare)
    return left["gray"] >= cost.get("gray", 0) + SWAP * short


def nothing_left_to_build(state: State) -> bool:
    # Asked after every move, and nearly always the first open building
    # answers it: the cubes left are counted once, the buildings looked at
    # one by one instead of listed first.
    left = _circulating(state)
    remaining = chain(*state["rows"], state["pile"])
    return not any(ever_buyable(state, bid, left) for bid in remaining)
