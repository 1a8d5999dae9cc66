"""What happened without a decision, as the rules did it: the game's log of
automatic events (a train's route and revenue, a dividend per holder, a
price move and why, a phase change and what rusted, an export, the FC's
income, a forced move), recorded where the rule acts and said in words by
`words/events.py` (the page, the web log and the mail share those words).

`state["log"]` holds the events the latest move set off, in order; the
engine empties it before each move (`CubaEngine.play`), and the service
stores it with the move's event (`Engine.effects`), so each event of the
game's record carries its own consequences. Without the key (a rules test
that calls a library directly) nothing is recorded.

An event is plain JSON: `{"event": <kind>, ...its fields}`; the kinds and
their fields are listed in `words/events.py`, which says each. Seats are
player accounts ("p1"), companies symbols, cards their names, money whole
dollars, prices dollars (not market cells), so a line needs no state.
"""

from __future__ import annotations

from typing import Any

from ..data import market

LOG = "log"

State = dict[str, Any]


def start(state: State) -> None:
    """A new move: its automatic events are recorded from here."""
    state[LOG] = []


def note(state: State, event: str, **fields: Any) -> None:
    """Record one automatic event (when a move is being played)."""
    log = state.get(LOG)
    if log is not None:
        log.append({"event": event, **fields})


def events(state: State) -> list[dict[str, Any]]:
    """The automatic events of the latest move."""
    return [dict(e) for e in state.get(LOG) or []]


def price(
    state: State, sym: str, before: int | None, after: int | None, why: str, **more: Any
) -> None:
    """A share price marker moved (or could not: already at the chart's
    edge), from cell `before` to cell `after`, and why: "dividend",
    "no_dividend", "sold", "issued", "redeemed", "sold_out"."""
    if before is None or after is None:
        return
    note(
        state,
        "price",
        company=sym,
        before=market.CELLS[before].price,
        after=market.CELLS[after].price,
        why=why,
        **more,
    )
