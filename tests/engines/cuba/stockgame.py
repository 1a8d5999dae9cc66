"""Stock-round situations for the 18Cuba tests, built from a new game (the
opening rounds are other parts' business): concessions handed out as the
draft would leave them, then a stock round opened by `rounds.flow`."""

from __future__ import annotations

from typing import Any

from games.engines.cuba import setup
from games.engines.cuba.data import market, variants
from games.engines.cuba.engine import CubaEngine
from games.engines.cuba.rounds import flow
from games.engines.cuba.rules import cash, shares
from games.engines.cuba.steps import buy_sell_par

ENGINE = CubaEngine()
# IV.2: what each concession costs in the draft.
CONCESSION_COST = {"M1": 120, "M2": 140, "M3": 150, "M4": 170, "M5": 180, "M6": 200}


def stock_game(
    variant: str = "4",
    seed: int = 1,
    *,
    number: int = 1,
    concessions: dict[str, int] | None = None,
    part: str | None = None,
) -> Any:
    """A game at the start of stock round `number`. `concessions`: card ->
    seat (paid for at its draft price); by default every seat in playing
    order gets as many as its variant deals, M1 first. `part`: the half of
    the map a 2-player easy game is played on (east by default)."""
    v = variants.BY_ID[variant]
    if v.partial_map and part is None:
        part = "east"
    state: Any = setup.new_game(v, seed, part)
    if concessions is None:
        cards = iter(buy_sell_par.CONCESSIONS)
        concessions = {
            next(cards): seat for _ in range(v.concessions_per_player) for seat in state["order"]
        }
    for card, seat in concessions.items():
        state["privates"][card]["owner"] = cash.player(seat)
        state["cash"] = cash.transfer(
            state["cash"], cash.player(seat), cash.BANK, CONCESSION_COST[card]
        )
    if number > 1:
        state["round"] = flow.new_round("operating", number - 1)
    else:
        state["round"] = flow.new_round("concessions", 1)
    flow.start(state, "stock")
    return state


def seat_to_act(state: Any) -> int:
    (seat,) = ENGINE.to_act(state)
    return seat


def play(state: Any, action: dict[str, Any] | str) -> Any:
    """The acting seat plays `action` (a dict or a mail line) through the
    engine, which accepts only what `legal_actions` lists."""
    seat = seat_to_act(state)
    if isinstance(action, str):
        action = ENGINE.parse(action, state, seat)
    return ENGINE.apply(state, seat, action)


def give(state: Any, sym: str, seat: int, *percents: int, source: str = "ipo") -> None:
    """Hand certificates over without the round (setting up a situation)."""
    for pct in percents:
        state["certificates"] = shares.move(
            state["certificates"], sym, source, cash.player(seat), pct
        )


def start_major(state: Any, sym: str, par: int, *, operated: bool = True) -> None:
    """A major with its marker on `par` (any price), as if started and run in
    an earlier round."""
    cell = next(c.index for c in market.CELLS if c.price == par)
    company = state["companies"][sym]
    company["par"] = cell
    company["floated"] = True
    company["operated"] = operated
    buy_sell_par.move_marker(state, sym, cell)


def to_seat(state: Any, seat: int) -> None:
    """Make `seat` the acting player (a turn in the middle of a round)."""
    state["round"]["entity"] = cash.player(seat)


def ledger_total(state: Any) -> int:
    return cash.total(state["cash"])


def check_of_type(state, seat):
    """A move is checked against the step's moves of its own type alone
    (buy_sell_par.legal_of): those are exactly its legal moves of that type."""
    from games.engines.cuba.steps import buy_sell_par

    assert buy_sell_par._LEGAL.keys() == buy_sell_par.ACTIONS  # no verb left unlisted
    listed = buy_sell_par.legal(state, seat)
    for kind in buy_sell_par.ACTIONS | {"lay", "nonsense"}:
        of_type = [a for a in listed if a["type"] == kind]
        assert buy_sell_par.legal_of(state, seat, kind) == of_type, kind
