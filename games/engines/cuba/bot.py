"""The greedy bot's score for 18Cuba (games.engines.bots): see README.md,
"The greedy bot".

`bots.choose` applies every legal move and keeps the one whose after-state
scores best for the bot's seat. The score is the seat's worth as the final
ranking counts it (IX.2: cash plus shares at their price), and what a
one-move look cannot see but a player would weigh:

- shares are worth a little more than their price (they pay dividends:
  buying is better than keeping the cash, selling worse);
- what the companies the seat holds own, in the seat's share: money in the
  treasury (it buys the trains), trains (they earn), a minor's machines;
- while a company the seat directs lays track or places a station, the
  revenue its trains could then earn (`optimiser.optimise` on the board
  after the move), so a lay that opens a better route wins over passing;
- a commissioner not yet used is worth its funding, an unconverted
  concession what it pays towards a minor;
- a seat that goes bankrupt ranks last: that is the worst of all moves.

The weights are few and round; `bench/bench_bots.py` measures the bot
against the random one.
"""

from __future__ import annotations

from typing import Any

from .data.companies import BY_SYM
from .data.trains import machines_bonus
from .map import optimiser
from .map.routes import Train, train_from_name
from .rules import rolling_stock, shares, turn
from .rules.cash import player
from .rules.privates import COMMISSIONER_BY_CARD, CONCESSION_BY_CARD
from .scoring import wealth
from .steps import route

State = dict[str, Any]

# A share is worth its price and a fifth more: it pays dividends.
SHARE_PREMIUM = 0.2
# Of each dollar in a held company's treasury, in the seat's share.
TREASURY_WEIGHT = 0.5
# Of each dollar of a held company's trains (a little more than its cash,
# so a director buys the trains the company can pay).
TRAIN_WEIGHT = 0.6
# Operating rounds of revenue a lay or a station is weighed by.
REVENUE_ROUNDS = 2
# What an unconverted concession pays towards a minor (VI.7).
CONCESSION_VALUE = 210
# A bankrupt player ranks last: no move is worse.
BANKRUPT = -1_000_000.0
# The optimiser's work for one look at a company's routes: enough for the
# few trains a company owns, far below the run's own budget.
LOOK_BUDGET = 20_000


def score(before: State, seat: int, action: dict[str, Any], after: State) -> float:
    """The seat's worth after the move (the moves compared share `before`)."""
    end = after["end"]
    if end is not None and end.get("bankrupt") == seat:
        return BANKRUPT
    value = worth(after, seat)
    sym = _building(before, seat)
    if sym is not None and sym in after["companies"]:
        value += REVENUE_ROUNDS * _fraction(after, seat, sym) * potential(after, sym)
    return value


def worth(state: State, seat: int) -> float:
    parts = wealth(state, seat)
    value = parts["cash"] + (1 + SHARE_PREMIUM) * parts["shares"]
    for sym in state["companies"]:
        held = _fraction(state, seat, sym)
        if held:
            value += held * _assets(state, sym)
    return value + _privates(state, seat) + _high_bid(state, seat)


def _high_bid(state: State, seat: int) -> float:
    """A high bid is a purchase to come: the card for the bid."""
    auction = (
        state["round"]["steps"].get("auction") if state["round"]["kind"] == "auction" else None
    )
    if not auction or auction.get("card") is None or auction.get("bid") is None:
        return 0.0
    if auction.get("leader") != seat:
        return 0.0
    return COMMISSIONER_BY_CARD[auction["card"]].funding - float(auction["bid"])


def _assets(state: State, sym: str) -> float:
    charter = state["companies"][sym]
    cash = state["cash"].get(sym, 0)
    stock = sum(rolling_stock.value(c) for c in charter["trains"] + charter["wagons"])
    value = TREASURY_WEIGHT * cash + TRAIN_WEIGHT * stock
    if BY_SYM[sym].kind == "minor":
        value += REVENUE_ROUNDS * machines_bonus(charter["machines"])
    return value


def _privates(state: State, seat: int) -> float:
    account = player(seat)
    value = 0.0
    for card, private in state["privates"].items():
        if private["owner"] != account or private["out"]:
            continue
        if card in COMMISSIONER_BY_CARD:
            value += COMMISSIONER_BY_CARD[card].funding
        elif card in CONCESSION_BY_CARD and private["minor"] is None:
            value += CONCESSION_VALUE
    return value


def _fraction(state: State, seat: int, sym: str) -> float:
    """The seat's part of the company (0 to 1)."""
    held = shares.percent(state["certificates"], sym, player(seat))
    return held / 100 if state["companies"][sym]["price"] is not None else 0.0


def _building(state: State, seat: int) -> str | None:
    """The company the seat directs that may still lay track or place a
    station this turn (before its run), else None."""
    sym = turn.company(state)
    if sym is None or not turn.is_director(state, seat) or not turn.open_at(state, "token"):
        return None
    return sym


def potential(state: State, sym: str) -> int:
    """What the company's trains (or, without any, the cheapest it could
    buy) would earn on this board now."""
    charter = state["companies"][sym]
    kind = BY_SYM[sym].kind
    trains = route.company_trains(charter) or _cheapest(state, kind)
    if not trains:
        return 0
    wagons = [route.WAGON_CAPACITY[w] for w in charter["wagons"]] if kind == "major" else []
    board = route.running_board(state["board"], sym, turn.fc_paid(state, "route"))
    plan = optimiser.optimise(
        board,
        sym,
        kind,
        trains,
        wagons=wagons,
        cubes=route.mill_cubes(state),
        phase=state["phase"],
        budget=LOOK_BUDGET,
    )
    return plan.revenue


def _cheapest(state: State, kind: str) -> list[Train]:
    if kind == "minor":
        return [train_from_name("2n")]
    stack = rolling_stock.top_standard_stack(state)
    return [train_from_name(stack.split("/")[0])] if stack else []
