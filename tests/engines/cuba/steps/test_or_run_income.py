"""The operating round's run (VII.3.7-8) and income (VII.3.8, IX.2) steps,
played through the engine on positions built from a real opening."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.data import market
from games.engines.cuba.data.hexes import MAJOR_HOMES
from games.engines.cuba.map import board as B
from games.engines.cuba.map import optimiser, tokens
from games.engines.cuba.map.laying import Layer
from games.engines.cuba.map.optimiser import Plan
from games.engines.cuba.map.routes import Route, Train
from games.engines.cuba.play import simulate
from games.engines.cuba.rounds import operating
from games.engines.cuba.rules import cash, income, turn
from games.engines.cuba.steps import route as route_step

from ..test_engine import ENGINE, play, through_first_stock_round


def first_stock_round():
    """2 players, hard: minors HG and JU, MS parred (not floated)."""
    return through_first_stock_round()[0]


def built_map(seed, rounds, phase):
    """HG and JU (minors) and MS (major) build at random, legally."""
    rng = random.Random(seed)
    b = B.new_board()
    layers = []
    for sym in ("HG", "JU"):
        home = rng.choice(tokens.minor_home_options(b))
        b = tokens.choose_minor_home(b, sym, home)
        layers.append(Layer(sym, "minor", home=home, first_turn=True))
    coord, city = MAJOR_HOMES["MS"]
    b = tokens.home_token(b, "MS", coord, city)
    layers.append(Layer("MS", "major", home=coord, first_turn=True))
    for n in range(rounds):
        b, layers = simulate.one_round(b, layers, min(phase, 1 + n // 4), rng)
    return b


def at_run(sym, *, seed=1, rounds=12, phase=2, trains=(), wagons=(), machines=(), cubes=None):
    """A first-OR position at `sym`'s run: the map of `built_map`, MS floated
    with $500, the companies' trains and wagons as given, the others queued."""
    state = first_stock_round()
    state["phase"] = phase
    state["board"] = built_map(seed, rounds, phase)
    ms = state["companies"]["MS"]
    ms["floated"] = True
    state["cash"] = cash.transfer(cash.open_account(state["cash"], "MS"), cash.BANK, "MS", 500)
    if sym == "HG":  # JU operates next: its run holds the round before the FC
        state["companies"]["JU"]["trains"] = ["2n"]
    charter = state["companies"][sym]
    charter["trains"] = list(trains)
    charter["wagons"] = list(wagons)
    charter["machines"] = list(machines)
    for minor, n in (cubes or {}).items():
        state["companies"][minor]["cubes"] = n
    order = [s for s in income.operating_order(state) if s != "FC"]
    record = turn.new_turn(sym)
    record["stage"] = "token"
    state["round"] = {
        "kind": "operating",
        "number": 1,
        "of": 1,
        "index": 1,
        "entity": sym,
        "steps": {
            "operating": {"queue": order[order.index(sym) + 1 :], "done": [], "fc": None},
            "turn": record,
        },
    }
    return state


def director(state):
    [seat] = ENGINE.to_act(state)
    return seat


def run(state, action=None):
    """The optimum (a listed move), or the director's own routes (not listed:
    `legal` lists the optimum only)."""
    if action is None:
        return play(state, (director(state), {"type": "run"}))
    return claim(state, director(state), action)


def claim(state, seat, action):
    """A run with the director's own routes, as the engine plays it once
    `route.candidates` admits it (`legal` lists the optimum only)."""
    assert route_step.candidates(state, seat, action) == [action]
    new = ENGINE.copy_state(state)
    ENGINE.play(new, seat, action)
    return new


def total_cubes(state):
    return sum(c["cubes"] for c in state["companies"].values())


def optimum(state, sym, kind, trains, **kw):
    return optimiser.optimise(state["board"], sym, kind, trains, phase=state["phase"], **kw)


# --- VII.3.7-8: the run --------------------------------------------------------


def test_vii38_the_claimed_revenue_must_be_the_highest():
    state = at_run("MS", trains=["3", "2"])
    best = optimum(state, "MS", "major", [Train("3", 3), Train("2", 2)])
    assert best.revenue > 0 and all(best.routes)
    after = run(state)
    assert turn.current(after)["run"]["income"] == best.revenue
    paths = [r["paths"] for r in turn.current(after)["run"]["routes"]]
    # the optimum written by hand is accepted, and earns the same
    own = run(state, {"type": "run", "routes": paths})
    assert turn.current(own)["run"]["income"] == best.revenue
    # the 3-train alone earns less: refused
    with pytest.raises(IllegalAction, match="must be claimed"):
        claim(state, director(state), {"type": "run", "routes": [paths[0], None]})


def test_vii38_the_engine_accepts_a_directors_own_routes():
    state = at_run("MS", trains=["3", "2"])
    paths = [r["paths"] for r in turn.current(run(state))["run"]["routes"]]
    after = ENGINE.apply(state, director(state), {"type": "run", "routes": paths})
    assert turn.current(after)["run"]["routes"]


def test_vii37_the_run_is_mandatory_and_comes_before_the_income():
    state = at_run("MS", trains=["3", "2"])
    assert ENGINE.legal_actions(state, director(state)) == [{"type": "run"}]
    with pytest.raises(IllegalAction, match="first run trains"):
        ENGINE.apply(state, director(state), {"type": "payout"})
    with pytest.raises(IllegalAction, match="first run trains"):
        ENGINE.apply(state, director(state), {"type": "pass"})


def test_vii37_a_company_without_a_train_earns_nothing_and_its_price_falls():
    state = at_run("MS")
    price = state["companies"]["MS"]["price"]
    # the round's forced moves: MS's run and income are automatic
    operating.proceed(state)
    record = turn.current(state)
    assert (record["run"]["income"], record["paid"]) == (0, "retain")
    assert state["companies"]["MS"]["price"] == market.left(price)
    # and then it must buy a train (VII.3.9): the one it can, a 2, is bought
    # without asking, since the director has no other move
    assert state["companies"]["MS"]["trains"] == ["2"]
    assert state["cash"]["MS"] == 400


def test_vii37_a_minor_runs_its_mill_and_sugar_fields():
    state = at_run("HG", trains=["2n"])
    best = optimum(state, "HG", "minor", [Train("2n", 2)])
    after = run(state)
    assert turn.current(after)["run"]["income"] == best.revenue == 30


def test_vii37_an_obsolete_n_train_runs_one_stop_fewer():
    state = at_run("HG", trains=["3-1n"])
    after = run(state)
    assert (
        turn.current(after)["run"]["income"]
        == optimum(state, "HG", "minor", [Train("3-1n", 2)]).revenue
    )


def test_vii37_wagons_deliver_cubes_and_take_them_off_the_mills():
    state = at_run("MS", trains=["3", "2"], wagons=["2-wagon"], cubes={"JU": 3, "HG": 1})
    before = total_cubes(state)
    after = run(state)
    record = turn.current(after)["run"]
    assert record["sugar"] == 60  # two cubes, $30 each
    assert after["companies"]["JU"]["cubes"] == 1 and after["companies"]["HG"]["cubes"] == 1
    assert total_cubes(after) == before - record["sugar"] // optimiser.CUBE_VALUE


def test_vii37_two_wagons_empty_a_mill_they_both_visit():
    state = at_run(
        "MS", seed=6, trains=["3", "2"], wagons=["2-wagon", "1-wagon"], cubes={"JU": 3, "HG": 1}
    )
    after = run(state)
    assert turn.current(after)["run"]["sugar"] == 90
    assert after["companies"]["JU"]["cubes"] == 0 and after["companies"]["HG"]["cubes"] == 1


def test_vii37_a_wagon_at_two_mills_loads_at_the_fullest():
    state = at_run("MS", seed=42, trains=["3", "2"], wagons=["2-wagon"], cubes={"JU": 3, "HG": 1})
    after = run(state)
    [loaded] = [r for r in turn.current(after)["run"]["routes"] if r["wagon"]]
    assert len(loaded["stops"]) >= 3  # it stops at both mills
    assert after["companies"]["JU"]["cubes"] == 1 and after["companies"]["HG"]["cubes"] == 1


def _route(mills):
    return Route((0, 1), (0,), 1, (10, 10), (10,), frozenset(), tuple(mills))


def test_vii37_a_wagon_takes_its_cubes_from_the_fullest_mill_first():
    plan = Plan((_route(["HG", "JU"]), _route(["JU"])), 90, 90, 0, (2, 1))
    # the first train could take both from JU, but then the second finds none:
    # the loading that delivers the plan's three cubes is chosen
    assert route_step.deliveries(plan, {"HG": 1, "JU": 2}) == {"HG": 1, "JU": 2}
    plan = Plan((_route(["HG", "JU"]),), 60, 60, 0, (2,))
    assert route_step.deliveries(plan, {"HG": 2, "JU": 3}) == {"JU": 2}


def test_iv5_a_pass_paid_for_laying_is_paid_again_for_running():
    kw = {"seed": 15, "rounds": 20, "phase": 4, "trains": ["4"]}
    unpaid = run(at_run("MS", **kw))
    assert turn.current(unpaid)["run"]["income"] == 80  # passing Havana gains $10 for $20
    state = at_run("MS", **kw)
    turn.current(state)["fc_paid"]["track"] = ["B7"]  # paid when laying track this turn
    after = run(state)
    assert turn.current(after)["run"]["income"] == 80  # still not worth another $20
    assert after["cash"]["MS"] == 500


def fc_blocked(**kw):
    """MS (a 4 and a 3) gains $40 by passing an FC token that fills C14."""
    state = at_run("MS", seed=0, rounds=20, phase=4, trains=["4", "3"], **kw)
    state["board"]["tokens"]["C14"] = [["FC"]]
    return state


def test_vii37_a_major_pays_20_into_the_fc_treasury_to_pass_an_fc_token():
    after = run(fc_blocked())
    record = turn.current(after)
    assert record["run"]["income"] == 170 and record["run"]["fc_fees"] == 20
    assert after["cash"]["MS"] == 480 and after["cash"]["FC"] == 20
    assert record["fc_paid"]["route"] == ["C14"]


def test_iv5_a_token_passed_for_a_station_is_paid_again_to_run_through_it():
    state = fc_blocked()
    turn.current(state)["fc_paid"]["token"] = ["C14"]  # paid for this turn's station
    after = run(state)
    assert turn.current(after)["run"]["income"] == 170
    assert after["cash"]["MS"] == 480 and after["cash"]["FC"] == 20


@pytest.mark.slow
def test_vii37_a_company_that_cannot_pay_the_fee_runs_without_passing():
    state = fc_blocked()
    state["cash"] = cash.transfer(state["cash"], "MS", cash.BANK, 490)
    paying = turn.current(run(fc_blocked()))["run"]["routes"]
    after = run(state)
    assert turn.current(after)["run"]["income"] == 120  # the best without C14
    assert after["cash"]["MS"] == 10
    with pytest.raises(IllegalAction, match="cannot pay"):
        claim(state, director(state), {"type": "run", "routes": [r["paths"] for r in paying]})


def test_vii37_a_plus_train_passes_one_fc_token_for_free():
    state = at_run("MS", seed=15, rounds=20, phase=4, trains=["3+"])
    after = run(state)
    [ran] = turn.current(after)["run"]["routes"]
    assert ran["fc_passes"] == ["B7"]
    assert after["cash"]["MS"] == 500
    assert turn.current(after)["fc_paid"]["route"] == []


# --- VII.3.8, IX.2: the income ---------------------------------------------------


def test_vii38_payout_moves_the_price_right_retain_left():
    state = run(at_run("MS", trains=["3", "2"]))
    earned = turn.current(state)["run"]["income"]
    price = state["companies"]["MS"]["price"]
    seat = director(state)
    assert ENGINE.legal_actions(state, seat) == [{"type": "payout"}, {"type": "retain"}]
    paid = play(state, (seat, {"type": "payout"}))
    assert paid["companies"]["MS"]["price"] == market.right(price)
    # the director holds 20%: two tenths of the revenue
    assert paid["cash"][f"p{seat}"] == state["cash"][f"p{seat}"] + earned // 10 * 2
    assert paid["cash"]["MS"] == 500
    kept = play(state, (seat, {"type": "retain"}))
    assert kept["companies"]["MS"]["price"] == market.left(price)
    assert kept["cash"]["MS"] == 500 + earned
    assert kept["cash"][f"p{seat}"] == state["cash"][f"p{seat}"]


def test_vii37_minors_store_cubes_when_they_retain():
    for kind in ("retain", "payout"):
        state = run(at_run("HG", trains=["2n"]))
        after = play(state, (director(state), {"type": kind}))
        assert after["companies"]["HG"]["cubes"] == 1  # an income of 30: one cube


def test_vii311_machines_add_their_bonus():
    state = run(at_run("HG", trains=["2n"], machines=[1, 2]))
    assert turn.current(state)["run"]["income"] == 30 + 10 + 20
    state = run(at_run("HG", trains=["2n"], machines=[3, 3]))
    assert turn.current(state)["run"]["income"] == 30 + 40 + 40
    after = play(state, (director(state), {"type": "retain"}))
    assert after["companies"]["HG"]["cubes"] == 2  # 110: two cubes
    assert after["cash"]["HG"] == state["cash"]["HG"] + 110


def test_vii312_the_fc_operates_last_paying_out_its_cities_and_unshipped_cubes():
    state = at_run("MS", trains=["3", "2"], cubes={"HG": 2, "JU": 1})
    state["round"]["steps"]["operating"]["queue"] = []  # MS operates last
    holder = state["order"][0]
    certificates = state["certificates"]["FC"]
    certificates[f"p{holder}"] = [certificates["ipo"].pop()]
    state = run(state)
    delivered = turn.current(state)["run"]["sugar"] // optimiser.CUBE_VALUE
    left = 3 - delivered
    before = state["cash"][f"p{holder}"]
    fc_price = state["companies"]["FC"]["price"]
    after = play(state, (director(state), {"type": "retain"}))
    after = play(after, (director(state), {"type": "pass"}))  # buys nothing
    # the turn ends, then the FC runs Havana
    fc = 30 + 10 * left  # Havana's city 1 (30) with the 1-train, $10 per cube
    assert after["round"]["kind"] == "stock"  # the set of one OR is over
    assert after["cash"][f"p{holder}"] - before == fc // 10
    assert all(c["cubes"] == 0 for c in after["companies"].values())
    assert after["companies"]["FC"]["price"] == market.up(fc_price)


# --- bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    "routes",
    [
        "B9:e4-s0",
        None,
        [5, None],
        [["nowhere"], None],
        [[1, 2], None],
        [{"a": 1}, None],
        [None],  # one route for two trains
        [None, None, None],  # a route for a train MS does not have
    ],
)
def test_malformed_routes_are_refused(routes):
    state = at_run("MS", trains=["3", "2"])
    with pytest.raises(IllegalAction):
        claim(state, director(state), {"type": "run", "routes": routes})


def test_only_the_director_runs_and_decides():
    state = at_run("MS", trains=["3", "2"])
    other = 1 - director(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, other, {"type": "run"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, director(state), {"type": "run", "extra": 1})
    state = run(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, director(state), {"type": "payout", "amount": 5})


def test_a_company_without_trains_cannot_claim_routes():
    state = at_run("HG", trains=["2n"])
    state["companies"]["HG"]["trains"] = []
    with pytest.raises(IllegalAction, match="no train"):
        claim(state, director(state), {"type": "run", "routes": [["B9:e4-s0"]]})


# --- mail lines --------------------------------------------------------------------


def test_every_run_and_income_line_parses_back():
    state = at_run("MS", trains=["3", "2"])
    seat = director(state)
    ran = run(state)
    paths = [r["paths"] for r in turn.current(ran)["run"]["routes"]]
    actions = [
        {"type": "run"},
        {"type": "run", "routes": paths},
        {"type": "run", "routes": [paths[0], None]},
        {"type": "run", "routes": [None, paths[1]]},
    ]
    for action in actions:
        line = ENGINE.text(action)
        assert ENGINE.parse(line, state, seat) == action, line
        assert ENGINE.parse(line.upper(), state, seat) == action, line
    assert ENGINE.text(actions[2]).endswith("/ run none")
    for action in ENGINE.legal_actions(ran, seat):
        assert ENGINE.parse(ENGINE.text(action), ran, seat) == action
    assert ENGINE.parse("Pay Out", ran, seat) == {"type": "payout"}


def test_timeout_runs_the_optimum_then_retains_the_income():
    state = at_run("MS", trains=["3", "2"])
    assert ENGINE.timeout_action(state, director(state)) == {"type": "run"}
    ran = run(state)
    assert turn.current(ran)["run"]["income"] > 0  # an income of $0 is retained by itself
    assert ENGINE.timeout_action(ran, director(ran)) == {"type": "retain"}
