"""The operating company's turn (draft VII.3.1): who operates, what it has
done so far this turn, and the order its actions must keep.

The record lives in `state["round"]["steps"]["turn"]` while a company
operates and is dropped when its turn ends:

    company    the company operating (also `state["round"]["entity"]`)
    stage      the latest step the company acted in (`STAGES`); a step
               earlier in VII.3.1's order is closed once a later one acted
    issued     it issued or redeemed its one share this OR (VII.3.3)
    laid       it made its own track lay or upgrade (VII.3.4-5)
    station    it placed its one station this OR (VII.3.6)
    fc_paid    per purpose ("track", "token", "route"), the FC tokens it
               paid $20 to pass this turn: a pass paid for laying serves the
               turn's later lays (its own and a commissioner's), not its
               station or run, which pay again (IV.5, VII.3.4, VII.3.6-7)
    run        what its trains earned (`optimiser.plan_json` plus the
               company's `income`), None until it ran
    paid       "payout" or "retain" once the income is decided (VII.3.8)
    traded_in  it traded an n-train in this OR (VII.3.9)
    offer      a train offered to another company's director, waiting for
               their answer (VII.3.9), or None
    refused    [company, card] offers refused this turn, not to be made again
               (so a turn of offers always ends)
    emergency  the director began emergency financing (VII.3.10): the
               forced train is then the cheapest from the bank or the pool

A step reads this record through the functions below and writes it
through them, so the order of VII.3.1 is kept in one place.
"""

from __future__ import annotations

from typing import Any

from ...base import IllegalAction
from ..data.companies import BY_SYM
from ..map.laying import Layer
from ..refusals import refuse
from . import income, rolling_stock, shares
from .cash import player

State = dict[str, Any]

TURN = "turn"
# IV.5, VII.3.12: "for each of these possibilities" (laying, stations,
# running) a pass costs $20; the steps that pay, by their stage names.
FC_PURPOSES = ("track", "token", "route")
# VII.3.1's order; "done" is the director ending the turn.
STAGES = ("home", "issue", "track", "token", "route", "dividend", "buy_train", "machines", "done")


def new_turn(company: str) -> dict[str, Any]:
    return {
        "company": company,
        "stage": STAGES[0],
        "issued": False,
        "laid": False,
        "station": False,
        "fc_paid": {purpose: [] for purpose in FC_PURPOSES},
        "run": None,
        "paid": None,
        "traded_in": False,
        "offer": None,
        "refused": [],
        "emergency": False,
    }


def current(state: State) -> dict[str, Any] | None:
    """The turn record, or None outside a company's turn."""
    if state["round"]["kind"] != "operating":
        return None
    record: dict[str, Any] | None = state["round"]["steps"].get(TURN)
    return record


def company(state: State) -> str | None:
    record = current(state)
    return None if record is None else str(record["company"])


def open_at(state: State, stage: str) -> bool:
    """May the company still act in `stage`: is there a turn, and has no
    step after it acted yet?"""
    record = current(state)
    if record is None:
        return False
    return STAGES.index(record["stage"]) <= STAGES.index(stage)


def reach(state: State, stage: str) -> None:
    """The company acted in `stage`: every earlier step is closed."""
    record = current(state)
    assert record is not None, "no company is operating"
    if STAGES.index(stage) > STAGES.index(record["stage"]):
        record["stage"] = stage


def layer(state: State) -> Layer:
    """The operating company as the lay rules see it: its gauge, its home
    (a major's printed one, a minor's chosen mill city) and whether this is
    its first turn, when its lay must go on that home (VII.3.4)."""
    sym = company(state)
    assert sym is not None, "no company is operating"
    info = BY_SYM[sym]
    charter = state["companies"][sym]
    home = charter["home"][0] if charter["home"] else (info.home[0] if info.home else None)
    return Layer(sym, info.kind, home=home, first_turn=not charter["operated"])


def fc_paid(state: State, purpose: str) -> list[str]:
    """The FC tokens the company has paid to pass this turn for `purpose`."""
    record = current(state)
    return [] if record is None else list(record["fc_paid"][purpose])


def pay_fc_passes(state: State, purpose: str, passes: list[str]) -> int:
    """The company pays $20 per FC token newly passed for `purpose`
    (`income.pay_fc_fee`) and the turn remembers them, so its later moves of
    the same purpose this turn pass them without paying again (two lays:
    its own and a commissioner's). Returns the fee."""
    record = current(state)
    assert record is not None, "no company is operating"
    paid = record["fc_paid"][purpose]
    new = sorted(set(passes) - set(paid))
    if not new:
        return 0
    fee = income.pay_fc_fee(state, record["company"], len(new))
    record["fc_paid"][purpose] = sorted([*paid, *new])
    return fee


def director_seat(state: State, sym: str) -> int | None:
    account = shares.director(state["certificates"], sym)
    return None if account is None else int(account[1:])


def is_director(state: State, seat: int) -> bool:
    """Is `seat` the director of the operating company?"""
    sym = company(state)
    return sym is not None and shares.director(state["certificates"], sym) == player(seat)


def acting_account(state: State) -> str | None:
    """The player account that must move now: the round's entity when it is
    a player; in an OR the director of a major over its train limit after a
    phase change (who chooses its surplus cards before anything else goes
    on), else of the company asked (the seller of an offered train while the
    offer waits) or of the operating company; None for the FC, which nobody
    directs."""
    if state["round"]["kind"] == "operating":
        over = rolling_stock.over_limit(state)
        if over:
            return shares.director(state["certificates"], over[0][0])
    entity = state["round"]["entity"]
    if not isinstance(entity, str):
        return None
    record = current(state)
    if record is not None and record["offer"] is not None:
        return shares.director(state["certificates"], record["offer"]["from"])
    if entity in BY_SYM:
        return shares.director(state["certificates"], entity)
    return entity


# --- the train purchase (VII.3.9-10) -----------------------------------------------


def buying_trains(state: State) -> bool:
    """Is the operating company at its train purchase: the income decided,
    no later step acted, the game not over, and a major or a minor (the FC
    buys nothing)? The purchase's three steps (`steps.buy_train`,
    `steps.emergency`, `steps.offer`) are active exactly then."""
    record = current(state)
    return (
        record is not None
        and state["end"] is None
        and record["paid"] is not None
        and open_at(state, "buy_train")
        and BY_SYM[record["company"]].kind in ("major", "minor")
    )


def purchase_refusal(state: State, seat: int) -> IllegalAction | None:
    """Why `seat` may make no move of the train purchase now, whatever the
    move: no company is buying, an offer waits for its answer, or `seat`
    does not direct the buyer. None: the move's own rules decide."""
    if not buying_trains(state):
        return refuse("no company is buying trains now")
    record = current(state)
    assert record is not None
    offer = record["offer"]
    if offer is not None:
        return refuse(
            "first the director of {sym} accepts or refuses the offer", sym=offer["from"]
        )
    if not is_director(state, seat):
        return refuse("only the director of {sym} buys its trains", sym=str(record["company"]))
    return None
