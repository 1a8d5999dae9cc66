"""The revenue a company must claim: the best its trains and wagons can show.

"The revenue claimed must be the highest total revenue that any player can
show" (VII.3.8).  The optimiser is exact: it enumerates every legal route
(:mod:`routes`) and searches train-to-route assignments by branch and bound,
with an upper bound that never underestimates, so no better combination is
ever cut off.  The search has a deterministic work budget: a position too big
for it (none reachable in play is known) gives the best plan found, flagged
``exact=False``.

Value of a plan = stop revenue of every train (4D doubled)
                + $30 per sugar cube delivered by wagons (never doubled)
                - $20 per FC token the company pays to pass while running.
FC passes are voluntary, so the best plan is the best *net* of those fees; a
plus train passes one FC token of its own route for free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import permutations, product
from math import prod
from typing import Any

from ..refusals import refuse
from .board import Board
from .graph import build
from .laying import FC_FEE
from .routes import Route, Train, enumerate_routes, route_of_paths, train_value

CUBE_VALUE = 30

# The search's work budget (README, "The optimiser's work budget"), counted in
# steps of the search and never in time, so that a replayed game reaches the
# same plan on any machine.  The weights make a unit cost roughly the same time
# whatever the position spends it on: a candidate route looked at is 1 unit,
# bounding one that fits the track left is BOUND_COST, valuing a complete plan
# EVALUATE_COST plus FLOW_STEP_COST per step of its wagon search and 1 per cube
# load tried.  600,000 units took at most about 0.75 s on the slowest position
# known, route enumeration included, on the development machine with both
# cores busy (750,000 took up to 1.1 s there).
WORK_BUDGET = 600_000
BOUND_COST = 30
EVALUATE_COST = 100
FLOW_STEP_COST = 8


class _OutOfWork(Exception):
    """The work budget is spent: the search stops with the best plan so far."""


class _Work:
    """Work units left; spending past zero stops the search (deterministically)."""

    def __init__(self, budget: int) -> None:
        self.left = budget

    def spend(self, units: int) -> None:
        self.left -= units
        if self.left < 0:
            raise _OutOfWork


@dataclass(frozen=True)
class Plan:
    """One route (or None) per train, in the order the trains were given."""

    routes: tuple[Route | None, ...]
    revenue: int  # stops + sugar, what the company earns
    sugar: int
    fees: int
    wagons: tuple[int | None, ...]  # wagon capacity coupled to each train
    # False when the work budget ran out first: the best plan found, not proven best
    exact: bool = True

    @property
    def net(self) -> int:
        return self.revenue - self.fees


def fc_fees(routes: Sequence[Route | None], trains: list[Train]) -> int:
    """$20 per FC token passed, once per token; a plus train passes one free."""
    return FC_FEE * len(paid_passes(routes, trains))


def paid_passes(routes: Sequence[Route | None], trains: list[Train]) -> list[str]:
    """The FC tokens a plan pays for: each passed token once, a plus train's
    free pass being the one that leaves the fewest to pay (the first such
    choice, in sorted order)."""
    options = []
    for route, train in zip(routes, trains, strict=True):
        passes = route.passes if route else frozenset()
        if train.plus and passes:
            options.append([passes - {free} for free in sorted(passes)])
        else:
            options.append([passes])
    best: frozenset[str] | None = None
    for combo in product(*options):
        union = frozenset().union(*combo)
        if best is None or len(union) < len(best):
            best = union
    return sorted(best or ())


def _max_flow(
    caps: list[int],
    mills: list[tuple[str, ...]],
    cubes: dict[str, int],
    work: _Work | None = None,
) -> int:
    """Cubes wagons can carry: train i takes up to caps[i] from mills it visits."""
    left = dict(cubes)

    def best(i: int) -> int:
        if work is not None:
            work.spend(FLOW_STEP_COST)
        if i == len(caps):
            return 0
        top = best(i + 1)
        sources = [m for m in mills[i] if left.get(m, 0) > 0]
        for split in _splits(caps[i], [left[m] for m in sources], work):
            for m, n in zip(sources, split, strict=True):
                left[m] -= n
            top = max(top, sum(split) + best(i + 1))
            for m, n in zip(sources, split, strict=True):
                left[m] += n
        return top

    return best(0)


def _splits(cap: int, avail: list[int], work: _Work | None = None) -> list[tuple[int, ...]]:
    """Ways to load at most ``cap`` cubes from piles ``avail`` (only maximal loads)."""
    if not avail:
        return []
    if work is not None:
        work.spend(prod(a + 1 for a in avail))  # one unit per load looked at
    out = []
    for combo in product(*[range(a + 1) for a in avail]):
        total = sum(combo)
        if 0 < total <= cap and (
            total == cap or all(c == a for c, a in zip(combo, avail, strict=True))
        ):
            out.append(combo)
    return out


def sugar_value(
    routes: list[Route | None],
    wagons: list[int],
    cubes: dict[str, int],
    work: _Work | None = None,
) -> tuple[int, tuple[int | None, ...]]:
    """Best cube income and the wagon coupled to each train (one wagon per train)."""
    n = len(routes)
    eligible = [i for i, r in enumerate(routes) if r and r.harbor_ends and r.mills]
    best = 0
    best_assign: tuple[int | None, ...] = tuple([None] * n)
    if not wagons or not eligible:
        return best, best_assign
    k = min(len(wagons), len(eligible))
    caps = sorted(wagons, reverse=True)
    for trains in permutations(eligible, k):
        # equal capacities give equal orders: try each once, in a fixed order
        # (a set's order is no part of the result: ties keep the first found)
        for chosen in dict.fromkeys(permutations(caps, k)):
            mills = [routes[i].mills for i in trains]  # type: ignore[union-attr]
            got = _max_flow(list(chosen), mills, cubes, work)
            if got * CUBE_VALUE > best:
                assign: list[int | None] = [None] * n
                for i, c in zip(trains, chosen, strict=True):
                    assign[i] = c
                best, best_assign = got * CUBE_VALUE, tuple(assign)
    return best, best_assign


def evaluate(
    routes: list[Route | None],
    trains: list[Train],
    kind: str,
    wagons: list[int],
    cubes: dict[str, int],
    work: _Work | None = None,
) -> Plan:
    """The exact value of giving ``routes[i]`` to ``trains[i]`` (separate track assumed).

    ``work``, when given, is charged for the wagon search (the optimiser's budget).
    """
    revenue = 0
    for route, train in zip(routes, trains, strict=True):
        if route is None:
            continue
        v = train_value(route, train, kind)
        if v is None:
            raise refuse("a {name} train cannot run that route", name=train.name)
        revenue += v
    sugar, assign = sugar_value(routes, wagons, cubes, work) if kind == "major" else (0, ())
    if not assign:
        assign = tuple([None] * len(routes))
    fees = fc_fees(routes, trains) if kind == "major" else 0
    return Plan(tuple(routes), revenue + sugar, sugar, fees, assign)


def optimise(
    board: Board,
    company: str,
    kind: str,
    trains: list[Train],
    *,
    wagons: list[int] | None = None,
    cubes: dict[str, int] | None = None,
    phase: int | None = None,
    budget: int = WORK_BUDGET,
) -> Plan:
    """The plan with the highest net revenue (ties: the first found, deterministic).

    ``phase`` values the red off-board of the 2-player easy map (required there).
    ``budget`` caps the search in work units (see ``WORK_BUDGET``); when it runs
    out the best plan found so far comes back with ``exact=False``.
    """
    wagons = list(wagons or []) if kind == "major" else []
    cubes = dict(cubes or {})
    empty = Plan(tuple([None] * len(trains)), 0, 0, 0, tuple([None] * len(trains)))
    if not trains:
        return empty
    max_stops = max(t.distance for t in trains) + (1 if kind == "major" else 0)
    routes = enumerate_routes(board, company, kind, max_stops, phase=phase)
    lists = [_candidates(routes, train, kind, wagons, cubes, len(trains)) for train in trains]
    order = sorted(range(len(trains)), key=lambda i: (-(lists[i][0][0] if lists[i] else 0), i))
    # A train may always run no route, so no train's bound is below zero.
    tops = [max(0, lists[i][0][0]) if lists[i] else 0 for i in order]
    rest = [sum(tops[j:]) for j in range(len(order) + 1)]
    # The same without the share of FC fees: ``refined`` already takes the fees
    # the chosen routes must pay, and a later train may pass those very tokens
    # for nothing, so taking its share again would cut off the best plan.
    gross = [max((v + sug for _u, _r, _x, v, sug in lists[i]), default=0) for i in order]
    rest_gross = [sum(gross[j:]) for j in range(len(order) + 1)]
    caps = sorted(wagons, reverse=True)
    best: dict[str, Any] = {"net": 0, "plan": empty}
    # Work left, counted in candidate routes looked at and plans valued: the
    # same position spends the same work on any machine, unlike a clock.
    work = _Work(budget)

    def refined(
        value: int,
        loads: tuple[tuple[tuple[str, ...], int], ...],
        passes: frozenset[str],
        free: int,
    ) -> int:
        """An upper bound of the exact value that knows shared cubes and FC passes."""
        sugar = sum(s for _m, s in loads)
        if len(loads) > 1:
            mills = {m for ms, _s in loads for m in ms}
            held = sum(cubes.get(m, 0) for m in mills)
            sugar = min(sugar, CUBE_VALUE * min(sum(caps[: len(loads)]), held))
        return value + sugar - FC_FEE * max(0, len(passes) - free)

    def search(
        depth: int,
        used: int,
        chosen: dict[int, Route | None],
        value: int,
        loads: tuple[tuple[tuple[str, ...], int], ...],
        passes: frozenset[str],
        free: int,
        bound: int,
        last_idx: dict[Train, int],
    ) -> None:
        if depth == len(order):
            if refined(value, loads, passes, free) <= best["net"]:
                return
            work.spend(EVALUATE_COST)
            plan = evaluate(
                [chosen.get(i) for i in range(len(trains))], trains, kind, wagons, cubes, work
            )
            if plan.net > best["net"]:
                best["net"], best["plan"] = plan.net, plan
            return
        i = order[depth]
        train = trains[i]
        floor = last_idx.get(train, -1)
        later, later_gross = rest[depth + 1], rest_gross[depth + 1]
        for ub, route, idx, v, sug in lists[i]:
            if bound + ub + later <= best["net"]:
                break
            work.spend(1)
            if route.mask & used or idx <= floor:
                continue
            work.spend(BOUND_COST)
            n_loads = (*loads, (route.mills, sug)) if sug else loads
            n_passes = passes | route.passes if route.passes else passes
            n_free = free + 1 if train.plus and route.passes else free
            if refined(value + v, n_loads, n_passes, n_free) + later_gross <= best["net"]:
                continue
            chosen[i] = route
            search(
                depth + 1,
                used | route.mask,
                chosen,
                value + v,
                n_loads,
                n_passes,
                n_free,
                bound + ub,
                {**last_idx, train: idx},
            )
        chosen[i] = None
        search(
            depth + 1,
            used,
            chosen,
            value,
            loads,
            passes,
            free,
            bound,
            {**last_idx, train: len(routes)},
        )

    try:
        search(0, 0, {}, 0, (), frozenset(), 0, 0, {})
    except _OutOfWork:
        return replace(best["plan"], exact=False)
    return best["plan"]


def _candidates(
    routes: list[Route],
    train: Train,
    kind: str,
    wagons: list[int],
    cubes: dict[str, int],
    n_trains: int,
) -> list[tuple[int, Route, int, int, int]]:
    """(upper bound, route, index, stop value, best cube income alone), best first.

    The bound also takes this route's share of FC fees: a plan pays at least the
    largest fee any one of its trains needs, so at least 1/n of each.
    """
    cap = max(wagons, default=0)
    out = []
    for idx, r in enumerate(routes):
        v = train_value(r, train, kind)
        if v is None:
            continue
        sugar = 0
        if cap and r.harbor_ends and r.mills:
            sugar = CUBE_VALUE * min(cap, sum(cubes.get(m, 0) for m in r.mills))
        fee = FC_FEE * max(0, len(r.passes) - (1 if train.plus else 0))
        out.append((v + sugar - fee // n_trains, r, idx, v, sugar))
    out.sort(key=lambda e: (-e[0], e[2]))
    return out


def plan_json(board: Board, plan: Plan, trains: list[Train], kind: str) -> dict[str, Any]:
    """A plan as JSON: what the view shows as the routes last run."""
    net = build(board, "s" if kind == "major" else "n")
    out = []
    for route, train, wagon in zip(plan.routes, trains, plan.wagons, strict=True):
        if route is None:
            continue
        out.append(
            {
                "train": train.name,
                "paths": [net.path_text[p] for p in route.paths],
                "stops": [f"{net.stops[s][0]}.{net.stops[s][1]}" for s in route.stops],
                "revenue": train_value(route, train, kind),
                "wagon": wagon,
                "fc_passes": sorted(route.passes),
            }
        )
    data: dict[str, Any] = {
        "revenue": plan.revenue,
        "sugar": plan.sugar,
        "fc_fees": plan.fees,
        "routes": out,
    }
    if not plan.exact:
        # only then, so the states of every game so far keep their bytes
        data["exact"] = False
    return data


def check_claim(
    board: Board,
    company: str,
    kind: str,
    trains: list[Train],
    claimed: Any,
    *,
    wagons: list[int] | None = None,
    cubes: dict[str, int] | None = None,
    phase: int | None = None,
    budget: int = WORK_BUDGET,
) -> Plan:
    """Validate the director's own routes (one list of track pieces or None per train).

    Raises IllegalAction if a route breaks a rule, trains share track, or the
    plan earns less than the best possible (VII.3.8).  When the work budget cut
    the search short, "the best possible" is the best plan the search found: a
    claim at least that good is accepted (it may even be better).
    """
    if not isinstance(claimed, list) or len(claimed) != len(trains):
        raise refuse("give one route (or none) for each of the {count} trains", count=len(trains))
    net = build(board, "s" if kind == "major" else "n")
    routes: list[Route | None] = []
    used = 0
    for texts in claimed:
        if texts is None or texts == []:
            routes.append(None)
            continue
        route = route_of_paths(board, company, kind, texts, net, phase=phase)
        if route.mask & used:
            raise refuse("two trains may not use the same piece of track")
        used |= route.mask
        routes.append(route)
    plan = evaluate(
        routes, trains, kind, list(wagons or []) if kind == "major" else [], dict(cubes or {})
    )
    best = optimise(
        board, company, kind, trains, wagons=wagons, cubes=cubes, phase=phase, budget=budget
    )
    if plan.net < best.net:
        raise refuse(
            "these routes earn {net}; the trains can earn {best}, which must be claimed",
            net=plan.net,
            best=best.net,
        )
    return plan
