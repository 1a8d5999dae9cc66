"""Whole random games of every 18Cuba variant, from the first auction to the
final ranking, with what the rules conserve checked after every move:

- money: the bank's 8,000 (players, companies, FC and bank together); no
  account but the bank's ever below zero (the bank's is the "piece of
  paper" of IX.1);
- certificates: every company's 100%;
- trains and wagons: a card leaves the game only when its phase scraps it
  or a trade-in discards it; none appears but from the depot (and #2's own
  1-wagon);
- machines (never scrapped, VII.3.11) and tiles (a replaced tile goes back
  to the supply, VII.3.5);
- the train limits after every move (VII.3.9), no negative sugar cube count;

the optimum a company runs is never beaten by a plan a random search puts
together from the legal routes; and every game ends with a result that
ranks every player. The games are
played by `randomgame` (seeded), so a failure replays exactly.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines.cuba.data import variants
from games.engines.cuba.data.companies import BY_SYM
from games.engines.cuba.data.phases import phase
from games.engines.cuba.map import optimiser
from games.engines.cuba.map.optimiser import evaluate
from games.engines.cuba.map.routes import enumerate_routes, train_value
from games.engines.cuba.play import randomgame
from games.engines.cuba.rules import cash, rolling_stock, turn
from games.engines.cuba.steps import route

# slow: whole random games of every setup.
pytestmark = pytest.mark.slow

# (players, options): every variant, the 2-player easy one on both halves.
SETUPS = [
    (2, {"difficulty": "easy", "map_part": "east"}),
    (2, {"difficulty": "easy", "map_part": "west"}),
    (2, {"difficulty": "hard"}),
    (2, {"difficulty": "challenging"}),
    (3, {"difficulty": "easy"}),
    (3, {"difficulty": "hard"}),
    (4, {}),
    (5, {}),
    (6, {}),
]
SEEDS = (1, 2)


def cards(state):
    """Cards per limited depot stack (the 8/4D is unlimited): left in the
    depot plus held anywhere."""
    limited = {stack for stack, left in state["depot"].items() if left is not None}
    out = Counter()
    holdings = [c["trains"] + c["wagons"] for c in state["companies"].values()]
    holdings += [state["pool"], state["fc_trains"]]
    for held in holdings:
        for name in held:
            stack = rolling_stock.stack_of(name)
            if stack in limited:  # the FC's preprinted train is no depot card
                out[stack] += 1
    for stack, left in state["depot"].items():
        if left is not None and not stack.startswith("machine-"):
            out[stack] += left
    return out


def machines(state):
    out = Counter()
    for charter in state["companies"].values():
        out.update(f"machine-{g}" for g in charter["machines"])
    for stack, left in state["depot"].items():
        if stack.startswith("machine-"):
            out[stack] += left
    return out


def tiles(state):
    board = state["board"]
    return sum(board["supply"].values()) + len(board["tiles"])


def check(before, after, seat, action):
    note = (seat, action, after["round"])
    assert cash.total(after["cash"]) == variants.BANK, note
    assert all(v >= 0 for k, v in after["cash"].items() if k != cash.BANK), note
    for sym, holders in after["certificates"].items():
        assert sum(sum(held) for held in holders.values()) == 100, (note, sym)
    was, now = cards(before), cards(after)
    scrapped = {name for number in range(1, after["phase"] + 1) for name in phase(number).rusts}
    for stack in was | now:
        # IV.2: concession #2 brings its own 1-wagon, which is no depot card
        brought = action == {"type": "assign", "card": "M2", "company": action.get("company")}
        if now[stack] > was[stack] and not (brought and stack == "1-wagon"):
            raise AssertionError(f"{stack} cards appeared: {note}")
        if now[stack] < was[stack]:
            traded = action["type"] == "trade" and stack == rolling_stock.stack_of(action["card"])
            assert traded or any(rolling_stock.stack_of(n) == stack for n in scrapped), (
                stack,
                note,
            )
    assert machines(after) == machines(before), note
    assert tiles(after) == tiles(before), note
    # a major over its limit after a phase change only while its director
    # chooses the surplus cards: nothing else may happen then
    over = {sym for sym, _ in rolling_stock.over_limit(after)}
    if over:
        engine = randomgame.ENGINE
        acting = [a for s in engine.to_act(after) for a in engine.legal_actions(after, s)]
        assert acting and all(a["type"] == "discard" for a in acting), note
    for sym, charter in after["companies"].items():
        limit = rolling_stock.train_limit(after, sym)
        if limit is not None and sym not in over:
            assert len(charter["trains"]) <= limit, (note, sym)
            assert len(charter["wagons"]) <= limit, (note, sym)
        assert charter["cubes"] >= 0, (note, sym)


RANDOM_PLANS = 20


def check_optimum(state, seed):
    """Random plans of legal routes (separate track, no FC pass, which the
    optimum may or may not afford) never earn more than the optimum."""
    sym = turn.company(state)
    charter = state["companies"][sym]
    kind = BY_SYM[sym].kind
    trains = route.company_trains(charter)
    if not trains:
        return
    wagons = [route.WAGON_CAPACITY[w] for w in charter["wagons"]] if kind == "major" else []
    cubes = route.mill_cubes(state)
    board = route.running_board(state["board"], sym, turn.fc_paid(state, "route"))
    best = optimiser.optimise(
        board, sym, kind, trains, wagons=wagons, cubes=cubes, phase=state["phase"]
    )
    stops = max(t.distance for t in trains) + (1 if kind == "major" else 0)
    routes = [
        r for r in enumerate_routes(board, sym, kind, stops, phase=state["phase"]) if not r.passes
    ]
    rng = random.Random(seed)
    for _ in range(RANDOM_PLANS if routes and best.exact else 0):
        plan, used = [], 0
        for train in trains:
            fits = [r for r in routes if not r.mask & used and route_fits(r, train, kind)]
            pick = rng.choice([None, *fits])
            plan.append(pick)
            used |= pick.mask if pick else 0
        value = evaluate(plan, trains, kind, wagons, cubes)
        assert value.net <= best.net, (sym, value, best)


def route_fits(r, train, kind):
    return train_value(r, train, kind) is not None


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("players", "options"), SETUPS, ids=lambda x: str(x))
def test_random_whole_games_end_with_a_result_and_conserve_what_the_rules_conserve(
    players, options, seed
):
    def checks(before, after, seat, action):
        check(before, after, seat, action)
        if action == {"type": "run"}:
            check_optimum(before, seed)

    played = randomgame.play(players, options, seed, check=checks)
    result = randomgame.ENGINE.result(played.state)
    assert result is not None
    assert result["ended_by"] in randomgame.ENGINE_ENDS
    assert len(result["places"]) == players and min(result["places"]) == 1
    for s in range(players):
        assert result["scores"][s] == sum(result["breakdown"][s].values())
