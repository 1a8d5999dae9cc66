"""Random stock rounds for every variant: legal buys, sells, pars, conversions
and passes over many stock rounds, with what the rules conserve checked
after every action (the bank's 8,000, every company's 100%, the holding and
certificate limits, no overdrawn account but the bank's, one marker per
priced company on its price's cell).

Between two stock rounds an operating round is only imitated: the floated
companies have operated (so their shares may be sold), prices move left or
right, and now and then a company issues a treasury share into the pool (as
VII.3.3 lets it), so that minor shares reach the pool too.
"""

from __future__ import annotations

import random

import pytest

from games.engines.cuba.data import market, variants
from games.engines.cuba.data.companies import BY_SYM, shares_of
from games.engines.cuba.rounds import flow
from games.engines.cuba.rounds.stock import STOCK
from games.engines.cuba.rules import cash, shares
from games.engines.cuba.state import copy_state
from games.engines.cuba.steps import buy_sell_par

from .stockgame import check_of_type, stock_game

# slow: random stock rounds, many seeds.
pytestmark = pytest.mark.slow

STOCK_ROUNDS = 7
SEEDS = range(3)


def check(state, note):
    ledger = state["cash"]
    assert cash.total(ledger) == variants.BANK, note
    assert all(amount >= 0 for account, amount in ledger.items() if account != cash.BANK), note
    assert set(state["certificates"]) == set(state["companies"]), note
    for sym, holders in state["certificates"].items():
        assert sum(sum(held) for held in holders.values()) == 100, (note, sym, holders)
        assert len(holders.get("pool", [])) <= shares.POOL_LIMIT, (note, sym)
        for seat in range(state["players"]):
            assert shares.percent(state["certificates"], sym, cash.player(seat)) <= 60, note
        company = state["companies"][sym]
        on = [i for i, cell in enumerate(state["market"]) if sym in cell]
        assert on == ([] if company["price"] is None else [company["price"]]), (note, sym)
        if company["floated"] and BY_SYM[sym].kind == "major":
            assert shares.sold_percent(state["certificates"], sym) >= 50, (note, sym)


def check_limit(state, before, seat, action):
    """Nobody's own action takes them above the certificate limit; a player
    gets above it only as the director another player's purchase replaced
    (VI.9 hands them two shares for one), and then sells before buying."""
    limit = variants.BY_ID[state["variant"]].certificate_limit
    for other in range(state["players"]):
        count = shares.certificate_count(state["certificates"], other)
        was = shares.certificate_count(before["certificates"], other)
        if count <= limit or count <= was:
            continue
        sym = action.get("company")
        assert other != seat and action["type"] == "buy", (action, other, count)
        assert shares.director(before["certificates"], sym) == cash.player(other)
        assert shares.director(state["certificates"], sym) == cash.player(seat)
        assert count == was + 1


def choose(rng, legal, actions_so_far, players):
    """A verb first (so the 49 par prices do not drown the one pass), then
    one of its actions; nobody passes in the round's first two turns each
    unless they must, then passing grows likelier as the round goes on."""
    kinds = sorted({a["type"] for a in legal})
    eager = actions_so_far < 2 * players
    if "pass" in kinds and (
        len(kinds) == 1 or (not eager and rng.random() < 0.15 + actions_so_far / 150)
    ):
        return {"type": "pass"}
    # Buying and converting are weighted up, so that majors reach their float
    # and minors start before the first round ends.
    weight = {"buy": 3, "convert": 6}
    kinds = [k for k in kinds if k != "pass" for _ in range(weight.get(k, 1))] or kinds
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a["type"] == kind])


def imitate_operating_round(rng, state):
    for sym, company in state["companies"].items():
        if not company["floated"]:
            continue
        company["operated"] = True
        # A dividend of $10 per share from the bank keeps the players buying.
        unit = shares_of(BY_SYM[sym]).ordinary_percent
        for seat in range(state["players"]):
            held = shares.percent(state["certificates"], sym, cash.player(seat)) // unit
            state["cash"] = cash.transfer(state["cash"], cash.BANK, cash.player(seat), 10 * held)
        move = rng.choice((market.right, market.left, market.up))
        buy_sell_par.move_marker(state, sym, move(company["price"]))
        certs = state["certificates"]
        in_pool = len(certs[sym].get("pool", []))
        issuable = unit in certs[sym].get("treasury", []) and in_pool < shares.POOL_LIMIT
        if issuable and rng.random() < 0.5:
            price = market.CELLS[company["price"]].price
            state["certificates"] = shares.move(certs, sym, "treasury", "pool", unit)
            state["cash"] = cash.transfer(state["cash"], cash.BANK, sym, price)
            buy_sell_par.move_marker(state, sym, market.down(company["price"]))


def play_stock_round(rng, state):
    actions = 0
    while not STOCK.over(state):
        seat = int(state["round"]["entity"][1:])
        legal = STOCK.legal(state, seat)
        assert legal, "a player always has a move"
        check_of_type(state, seat)
        action = choose(rng, legal, actions, state["players"])
        before = copy_state(state)
        STOCK.process(state, seat, action)
        actions += 1
        check(state, (state["round"]["number"], actions, action))
        check_limit(state, before, seat, action)
        assert actions < 2000, "the round does not end"
    STOCK.finish(state)
    check(state, (state["round"]["number"], "finish"))
    return actions


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", variants.VARIANT_IDS)
def test_random_stock_rounds_conserve_money_and_certificates(variant, seed):
    rng = random.Random(f"{variant}-{seed}")
    state = stock_game(variant, seed, part=("east", "west")[seed % 2] if variant == "2e" else None)
    check(state, "start")
    kinds = set()
    for number in range(1, STOCK_ROUNDS + 1):
        assert state["round"]["number"] == number
        before = len(state["order"])
        play_stock_round(rng, state)
        assert sorted(state["order"]) == list(range(before))
        kinds |= {sym for sym, c in state["companies"].items() if c["floated"]}
        if number == 3:
            state["phase"] = 4  # the FEC's shares come on sale
        imitate_operating_round(rng, state)
        check(state, (number, "operating"))
        state["round"] = flow.new_round("operating", number)
        flow.start(state, "stock")
    # The playout did trade: companies of every kind were started.
    assert {BY_SYM[sym].kind for sym in kinds} == {"major", "minor", "fc"}
