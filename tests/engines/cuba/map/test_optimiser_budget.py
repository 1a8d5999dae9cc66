"""The optimiser's work budget: deterministic, flagged when spent, exact below it.

The budget counts steps of the search, never time, so a game replayed from its
log reaches the same plan on any machine.
"""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.map.board import MINORS, company_hexes
from games.engines.cuba.map.optimiser import check_claim, evaluate, optimise, plan_json
from games.engines.cuba.map.routes import train_from_name
from games.engines.cuba.play.simulate import build_map

UNLIMITED = 10**12
SMALL = 3000  # cuts the search on SdC below; the full search needs about ten times more
CUBES = dict.fromkeys(sorted(MINORS), 2)
WAGONS = [1, 2]


def trains(*names: str):
    return [train_from_name(n) for n in names]


THREE = trains("4+", "4+", "3")


@pytest.fixture(scope="module")
def board():
    return build_map(3, 20, majors=3, minors=2)


def run(board, company, train_list, budget, wagons=WAGONS):
    return optimise(board, company, "major", train_list, wagons=wagons, cubes=CUBES, budget=budget)


def claim_of(board, plan, train_list):
    paths = iter(r["paths"] for r in plan_json(board, plan, train_list, "major")["routes"])
    return [next(paths) if route is not None else None for route in plan.routes]


def test_a_spent_budget_gives_the_same_plan_every_time(board) -> None:
    first = run(board, "SdC", THREE, SMALL)
    second = run(board, "SdC", THREE, SMALL)
    assert not first.exact
    assert first == second
    assert plan_json(board, first, THREE, "major") == plan_json(board, second, THREE, "major")


def test_a_plan_cut_short_is_flagged_and_is_a_valid_plan(board) -> None:
    plan = run(board, "SdC", THREE, SMALL)
    full = run(board, "SdC", THREE, UNLIMITED)
    assert not plan.exact and full.exact
    assert plan.net <= full.net
    used = 0
    for route in plan.routes:
        if route is not None:
            assert not route.mask & used  # no track shared between trains
            used |= route.mask
    again = evaluate(list(plan.routes), THREE, "major", WAGONS, CUBES)
    assert (again.revenue, again.sugar, again.fees) == (plan.revenue, plan.sugar, plan.fees)
    claimed = claim_of(board, plan, THREE)
    kwargs = {"wagons": WAGONS, "cubes": CUBES, "budget": SMALL}
    ok = check_claim(board, "SdC", "major", THREE, claimed, **kwargs)
    assert ok.net == plan.net
    assert plan_json(board, plan, THREE, "major")["exact"] is False
    assert "exact" not in plan_json(board, full, THREE, "major")


def test_more_budget_never_finds_a_worse_plan(board) -> None:
    # the search runs in the same order whatever its budget, so a larger budget
    # only sees more of it
    nets = [run(board, "SdC", THREE, b).net for b in (300, 1000, SMALL, 10_000, 30_000)]
    assert nets == sorted(nets)
    assert run(board, "SdC", THREE, UNLIMITED).net >= nets[-1]


def test_the_budget_keeps_ordinary_positions_exact(board) -> None:
    # what a major can hold in play: three trains up to phase 4, then two
    sets = [
        (THREE, WAGONS),
        (trains("4+", "4+", "4+"), [2, 2, 1]),
        (trains("6+", "6+"), [3, 3]),
        (trains("8", "4D"), [3, 2]),
    ]
    companies = sorted({s for cities in board["tokens"].values() for o in cities for s in o})
    checked = 0
    for sym in companies:
        if sym == "FC" or sym in MINORS or not company_hexes(board, sym):
            continue
        for train_list, wagons in sets:
            plan = optimise(board, sym, "major", train_list, wagons=wagons, cubes=CUBES)
            assert plan.exact
            assert plan == run(board, sym, train_list, UNLIMITED, wagons)
            checked += 1
    assert checked >= 8


def test_a_claim_as_good_as_the_best_found_is_accepted_when_the_optimum_is_not_proven(
    board,
) -> None:
    capped = run(board, "SdC", THREE, SMALL)
    full = run(board, "SdC", THREE, UNLIMITED)
    assert capped.net < full.net  # this position shows the difference
    kwargs = {"wagons": WAGONS, "cubes": CUBES, "budget": SMALL}
    better = check_claim(board, "SdC", "major", THREE, claim_of(board, full, THREE), **kwargs)
    assert better.net == full.net
    with pytest.raises(IllegalAction, match=f"can earn {capped.net}"):
        check_claim(board, "SdC", "major", THREE, [None, None, None], **kwargs)


def test_a_claim_below_the_proven_optimum_is_refused(board) -> None:
    capped = run(board, "SdC", THREE, SMALL)
    kwargs = {"wagons": WAGONS, "cubes": CUBES, "budget": UNLIMITED}
    with pytest.raises(IllegalAction, match="which must be claimed"):
        check_claim(board, "SdC", "major", THREE, claim_of(board, capped, THREE), **kwargs)
