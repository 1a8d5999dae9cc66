"""The opening of the game (draft IV.1, IV.2, VI.6): the commissioners'
auction and the concession draft, each a round of one step.

Between the two the playing order is dealt again: the player with the least
money after the auction takes the lowest playing-order card (ties keep the
old order) and with it the priority deal.
"""

from __future__ import annotations

from ...base import State
from ..rules import log
from ..rules.cash import player
from ..steps import auction, concession
from . import flow
from .base import Round


def new_order(state: State) -> None:
    """Least money first; among equals the earlier in the old order (VI.6)."""
    old = state["order"]
    state["order"] = sorted(old, key=lambda seat: (state["cash"][player(seat)], old.index(seat)))
    state["priority"] = state["order"][0]
    log.note(state, "order", seats=list(state["order"]))


AUCTION = Round(
    "commissioner auction",
    (auction,),
    begin=auction.begin,
    over=auction.over,
    finish=new_order,
)
CONCESSIONS = Round(
    "concession draft",
    (concession,),
    begin=concession.begin,
    over=concession.over,
    finish=concession.finish,
)
flow.register("auction", AUCTION)
flow.register("concessions", CONCESSIONS)
