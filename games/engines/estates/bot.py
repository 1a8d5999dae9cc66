"""The greedy bot's score for The Estates (games.engines.bots): see
README.md, "The greedy bot"."""

from __future__ import annotations

from typing import Any

from .scoring import score_round

State = dict[str, Any]

# A cheque in hand is worth less than a point: it only becomes one when
# stashed, and it is what the bot bids and pays with.
MONEY_WEIGHT = 0.5
# What the others' buildings gain counts against the bot as much as its own
# gain counts for it: a building scores for whoever holds the certificate of
# its top floor, so most placements are good for one player and bad for the
# others, and the bot must see both (half as much won 0.78 of 200 games
# against the random bot, not at all 0.6).
OTHERS_WEIGHT = 1.0
# A bid is a cost to come (paid if it wins) with no gain yet: the bot bids
# low, and rather passes.
BID_COST = 0.01


def points(state: State, seat: int) -> float:
    """The seat's points so far if the round ended now: rounds already
    scored, its buildings and its own stash; its cheques at MONEY_WEIGHT."""
    done = sum(r["scores"][seat] for r in state["round_results"])
    live = 0 if state["result"] is not None else score_round(state)["scores"][seat]
    return done + live + MONEY_WEIGHT * state["money"][seat]


def buildings(state: State, seat: int) -> float:
    """Another seat's points as the bot may know them: its buildings only
    (cheques in hand and stashed are hidden)."""
    done = sum(r["buildings"][seat] for r in state["round_results"])
    live = 0 if state["result"] is not None else score_round(state)["buildings"][seat]
    return done + live


def score(before: State, seat: int, action: dict[str, Any], after: State) -> float:
    """The seat's gain in `points`, less OTHERS_WEIGHT of what the other
    seats' buildings gained; a bid scores only its cost, BID_COST a cheque,
    so the bot passes (what a piece is worth to it shows only once placed)."""
    if action["type"] == "bid":
        return -BID_COST * action["amount"]
    mine = points(after, seat) - points(before, seat)
    others = sum(
        buildings(after, s) - buildings(before, s) for s in range(before["players"]) if s != seat
    )
    return mine - OTHERS_WEIGHT * others
