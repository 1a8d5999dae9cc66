"""VII.3.7-8: the company runs its trains (and a major its wagons).

    {"type": "run"}                         run
    {"type": "run", "routes": [[...], None]}   run B9:e4-s0 B11:e1-s0 / none

`{"type": "run"}` runs the optimum (`optimiser.optimise`, the claim the rules
ask for); with `routes` the director claims their own plan, one list of
track pieces (or None) per train in the charter's order, which
`optimiser.check_claim` refuses when it breaks a rule or earns less than the
optimum (VII.3.8). Running is mandatory and blocks the later steps; a
company without trains runs nothing automatically (`auto`).

What the run does (`run_plan`): the FC fees of the plan are paid (a pass
paid for laying or a station is paid again for running, IV.5: "for each of
these possibilities"); the cubes a major's wagons delivered come off the minors'
mills (`deliveries`); the turn records the plan (`optimiser.plan_json`) and
the company's `income`: a major's revenue (stops plus cubes), a minor's
revenue plus its machines' bonus (`income.minor_income`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from ...base import IllegalAction
from ...i18n import N_
from ...verbs import ABSENT, Slot, Verb, line
from ..data.companies import BY_SYM, FC, in_game
from ..data.trains import WAGONS
from ..map import optimiser
from ..map.board import Board, copy_board, is_blocked
from ..map.laying import FC_FEE
from ..map.optimiser import CUBE_VALUE, Plan
from ..map.routes import Train, train_from_name
from ..refusals import WORDS, refuse
from ..rules import income, log, turn

_ = WORDS.gettext

NAME = "run trains"
NO_ROUTE = "none"  # the mail word for a train that runs no route
SEPARATOR = "/"  # between the trains' routes in a mail line

State = dict[str, Any]
Action = dict[str, Any]

WAGON_CAPACITY = {w.name: w.capacity for w in WAGONS}


def active(state: State) -> bool:
    record = turn.current(state)
    return record is not None and record["run"] is None and turn.open_at(state, "route")


def blocking(state: State) -> bool:
    return active(state)


def legal(state: State, seat: int) -> list[Action]:
    # The optimum only: listing every claim is impossible and none earns more.
    return [{"type": "run"}] if turn.is_director(state, seat) else []


def candidates(state: State, seat: int, action: Action) -> list[Action]:
    """A director's own routes as their own candidate (`[action]`), else `[]`.

    `legal` lists only the optimum, and `EngineBase.apply` accepts only what
    its `candidates` hold: the engine's `candidates` should return this when
    it is not empty (`apply` then validates the claim in full), else the
    legal moves."""
    if (
        isinstance(action, dict)
        and action.get("type") == "run"
        and "routes" in action
        and active(state)
        and turn.is_director(state, seat)
    ):
        return [action]
    return []


def auto(state: State) -> bool:
    """A company without a train earns nothing (VII.3.7): a run of 0."""
    if not active(state):
        return False
    sym = str(turn.company(state))
    if state["companies"][sym]["trains"]:
        return False
    _record(state, {"revenue": 0, "sugar": 0, "fc_fees": 0, "routes": []}, 0)
    log.note(state, "run", company=sym, trains=[], revenue=0, sugar=0, delivered={}, income=0)
    return True


def apply(state: State, seat: int, action: Action) -> None:
    if not turn.is_director(state, seat):
        raise refuse("only the director of the operating company runs its trains")
    if not set(action) <= {"type", "routes"}:
        raise refuse(
            "a run is {optimum} or {claim}",
            optimum='{"type": "run"}',
            claim='{"type": "run", "routes": [...]}',
        )
    if "routes" in action and not isinstance(action["routes"], list):
        raise refuse("routes are a list: one list of track pieces (or null) per train")
    run_plan(state, action.get("routes"))


# --- the run ------------------------------------------------------------------


def company_trains(charter: dict[str, Any]) -> list[Train]:
    """The charter's cards as the optimiser's trains, in the charter's order."""
    return [train_from_name(name) for name in charter["trains"]]


def mill_cubes(state: State) -> dict[str, int]:
    """The cubes waiting at each minor's mill (minors with none left out)."""
    return {
        sym: state["companies"][sym]["cubes"]
        for sym in in_game(state["companies"])
        if BY_SYM[sym].kind == "minor" and state["companies"][sym]["cubes"] > 0
    }


def running_board(board: Board, sym: str, paid: list[str], closed: bool = False) -> Board:
    """The board the optimiser sees: an FC token the turn already paid to
    pass is no obstacle (taken off the copy), and with `closed` an unpaid one
    that blocks a city cannot be passed at all (a filler station makes the
    city full without it: `routes.stop_infos` then calls it closed)."""
    out = copy_board(board)
    for coord, cities in out["tokens"].items():
        for i, owners in enumerate(cities):
            if FC.sym not in owners:
                continue
            if coord in paid:
                owners.remove(FC.sym)
            elif closed and is_blocked(board, coord, i, sym):
                owners.append("-")
    return out


def run_plan(state: State, claimed: Any = None) -> Plan:
    """Run the optimum (`claimed` None) or the director's routes, and record it."""
    record = turn.current(state)
    assert record is not None
    sym = str(record["company"])
    charter = state["companies"][sym]
    kind = BY_SYM[sym].kind
    trains = company_trains(charter)
    wagons = [WAGON_CAPACITY[w] for w in charter["wagons"]] if kind == "major" else []
    cubes = mill_cubes(state)
    paid = turn.fc_paid(state, "route")
    phase = state["phase"]
    treasury = state["cash"].get(sym, 0)
    board = running_board(state["board"], sym, paid)
    plan = optimiser.optimise(board, sym, kind, trains, wagons=wagons, cubes=cubes, phase=phase)
    closed = plan.fees > treasury
    if closed:
        # FC passes are voluntary and paid from the treasury: a company that
        # cannot pay the optimum's runs the best it can without new passes,
        # and that is then the optimum a director's claim is measured by.
        board = running_board(state["board"], sym, paid, closed=True)
        plan = optimiser.optimise(
            board, sym, kind, trains, wagons=wagons, cubes=cubes, phase=phase
        )
    if claimed is not None:
        try:
            plan = _claim(board, sym, kind, trains, wagons, cubes, phase, claimed)
        except IllegalAction as exc:
            if not closed:
                raise
            # The claim's own refusal is kept as its English sentence: a
            # refusal holds one msgid, so it cannot hold another's in German.
            raise refuse(
                "{reason} ({sym} has ${treasury}, so it cannot pay ${fee} to pass an FC token)",
                reason=exc.message,
                sym=sym,
                treasury=treasury,
                fee=FC_FEE,
            ) from exc
        if plan.fees > treasury:
            raise refuse(
                "{sym} has ${treasury}: it cannot pay ${fees} to pass FC tokens",
                sym=sym,
                treasury=treasury,
                fees=plan.fees,
            )
    passes = optimiser.paid_passes(plan.routes, trains)
    if passes:
        income.pay_fc_fee(state, sym, len(passes))
        record["fc_paid"]["route"] = [*paid, *(p for p in passes if p not in paid)]
    delivered = deliveries(plan, cubes)
    for mill, n in delivered.items():
        state["companies"][mill]["cubes"] -= n
    revenue = plan.revenue
    earned = income.minor_income(revenue, charter["machines"]) if kind == "minor" else revenue
    run = optimiser.plan_json(board, plan, trains, kind)
    _record(state, run, earned)
    log.note(
        state,
        "run",
        company=sym,
        trains=[
            {
                "train": r["train"],
                "stops": [stop.split(".")[0] for stop in r["stops"]],
                "revenue": r["revenue"],
            }
            for r in run["routes"]
        ],
        revenue=revenue,
        sugar=plan.sugar,
        delivered=delivered,
        income=earned,
    )
    return plan


def _claim(
    board: Board,
    sym: str,
    kind: str,
    trains: list[Train],
    wagons: list[int],
    cubes: dict[str, int],
    phase: int,
    claimed: Any,
) -> Plan:
    if not trains:
        raise refuse("{sym} has no train to run", sym=sym)
    return optimiser.check_claim(
        board, sym, kind, trains, claimed, wagons=wagons, cubes=cubes, phase=phase
    )


def _record(state: State, plan: dict[str, Any], earned: int) -> None:
    record = turn.current(state)
    assert record is not None
    record["run"] = {**plan, "income": earned}
    turn.reach(state, "route")


def deliveries(plan: Plan, cubes: dict[str, int]) -> dict[str, int]:
    """Which mill gave how many of the cubes the plan delivered.

    The optimiser says how many cubes (`plan.sugar`) and which wagon ran with
    which train, not where each cube came from. Trains load in the charter's
    order; each takes from the fullest mill on its route first (ties by
    symbol), the first such loading that delivers the plan's total. Any
    loading that reaches the total conserves the cubes; this one empties the
    fullest mills first, which is what a director loading by hand would do.
    """
    total = plan.sugar // CUBE_VALUE
    loads = [
        (cap, route.mills)
        for route, cap in zip(plan.routes, plan.wagons, strict=True)
        if route is not None and cap
    ]
    left = dict(cubes)
    taken: dict[str, int] = {}

    def load(i: int, need: int) -> bool:
        if need == 0:
            return True
        if i == len(loads):
            return False
        cap, mills = loads[i]
        order = sorted((m for m in mills if left.get(m, 0) > 0), key=lambda m: (-left[m], m))
        for split in _splits(min(cap, need), [left[m] for m in order]):
            for m, n in zip(order, split, strict=True):
                left[m] -= n
                taken[m] = taken.get(m, 0) + n
            if load(i + 1, need - sum(split)):
                return True
            for m, n in zip(order, split, strict=True):
                left[m] += n
                taken[m] -= n
        return False

    if not load(0, total):  # pragma: no cover - the optimiser found this loading
        raise AssertionError("the plan's cubes cannot be loaded")
    return {m: n for m, n in sorted(taken.items()) if n}


def _splits(cap: int, avail: list[int]) -> list[tuple[int, ...]]:
    """Loads of at most `cap` cubes from the piles `avail`, the most cubes
    first and, among equal totals, the most from the first piles."""
    combos = product(*[range(a, -1, -1) for a in avail])
    return sorted((c for c in combos if sum(c) <= cap), key=lambda c: -sum(c))


# --- the words of a run -----------------------------------------------------------------


def _routes_text(routes: Any) -> str:
    """What follows "run": each train's track pieces, or "none"."""
    if routes is ABSENT or routes is None:
        return ""
    parts = [" ".join(r) if r else NO_ROUTE for r in routes]
    return f" {SEPARATOR} run ".join(parts)


def _routes(words: str, state: State) -> Any:
    if not words:
        return ABSENT  # the optimum
    line = f"run {words}".replace(SEPARATOR, f" {SEPARATOR} ")
    routes: list[list[str] | None] = []
    for part in line.split(SEPARATOR):
        pieces = part.split()
        if pieces and pieces[0] == "run":
            pieces = pieces[1:]
        if pieces == [NO_ROUTE]:
            routes.append(None)
            continue
        if not pieces:
            raise refuse(
                "write each train's route as: run <track piece> ... (or run {none}),"
                " the trains' routes separated by {separator}",
                none=NO_ROUTE,
                separator=SEPARATOR,
            )
        routes.append([_piece(p) for p in pieces])
    return routes


def _piece(word: str) -> str:
    """A track piece as the optimiser writes it ("B7:e1-s0") in any case."""
    coord, colon, ends = word.partition(":")
    return f"{coord.upper()}{colon}{ends.lower()}"


def _run_says(action: Action, who: str, names: Sequence[str]) -> str:
    if action.get("routes") is None:
        return _("{who} runs the best routes").format(who=who)
    return _("{who} runs own routes").format(who=who)


RUN = Verb(
    type="run",
    # `run` alone is the optimum; a director's own routes, one train's after
    # another: "run B9:e5-s0 C10:e2-e3 / run none"
    fields={"routes": Slot(pattern=".+", write=_routes_text, read=_routes, optional=True)},
    lines=line("run {routes}"),
    says=_run_says,
    gloss=None,
    group=N_("Run"),
)

VERBS = (RUN,)
ACTIONS = frozenset(verb.type for verb in VERBS)
