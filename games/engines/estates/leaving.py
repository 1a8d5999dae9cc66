"""A player who leaves (resigns): the game goes on without them.

The rules have nothing on this; our rule (README) is:

* the seat never becomes active again and never bids; its cheques, stash,
  certificates and buildings stay (its buildings still score for it), and it
  ranks below every player who stayed;
* a bid it made in a running auction is withdrawn: the best remaining bid
  stands;
* if it was the auctioneer, the piece is given to the high bidder (the
  auctioneer cannot keep); with no bids, or if it had already won the piece,
  the piece is "used by the house": a cube or roof goes on the first legal
  spot and nobody takes a certificate for it, a permit or the cancel cube
  goes back to the supply, the mayor stays where it was;
* with fewer than two players left the round is scored and the game ends.
"""

from __future__ import annotations

from typing import Any

from . import rounds, turn
from .board import cube_targets, roof_targets
from .state import next_seat

State = dict[str, Any]


def staying(state: State) -> list[int]:
    return [s for s in range(state["players"]) if s not in state["resigned"]]


def _house_uses(state: State) -> None:
    """The piece won by a seat that has left is used without it (see above)."""
    auction = state["auction"]
    piece = auction["piece"]
    kind, board = piece["kind"], state["board"]
    if kind == "cube":
        r, n = cube_targets(board, piece["cube"])[0]
        board[r]["floors"][n].append(piece["cube"])
    elif kind == "roof":
        r, n = roof_targets(board)[0]
        board[r]["roofs"][n] = piece["value"]
    elif kind in ("permit", "cancel"):
        name = "cancel" if kind == "cancel" else f"permit{piece['value']}"
        state["specials"][name] = "supply"
    state["last"] = {
        "auctioneer": auction["auctioneer"],
        "piece": dict(piece),
        "bids": [list(b) for b in auction["bids"]],
        "decision": auction.get("decision"),
        "recipient": state["recipient"],
        "used": {"type": "house"},
    }
    rounds.end_turn(state)


def settle(state: State) -> None:
    """Take every step that waits on a seat that has left."""
    gone = state["resigned"]
    while True:
        phase = state["phase"]
        if phase == "resolve" and state["auction"]["auctioneer"] in gone:
            turn.apply_resolve(state, state["auction"]["auctioneer"], {"type": "give"})
        elif phase == "place" and state["recipient"] in gone:
            _house_uses(state)
        elif phase == "start" and state["active"] in gone:
            state["active"] = next_seat(state, state["active"])
        else:
            return


def _withdraw_bid(auction: dict[str, Any], gone: list[int]) -> None:
    standing = [b for b in auction["bids"] if b[1] is not None and b[0] not in gone]
    if standing:
        auction["high_bidder"], auction["high"] = standing[-1]
    else:
        auction["high_bidder"], auction["high"] = None, 0


def resign(state: State, seat: int) -> State:
    """Apply the leaving rule to a fresh copy ``state`` (changed in place)."""
    if state["phase"] == "over" or seat in state["resigned"]:
        return state
    state["resigned"].append(seat)
    if len(staying(state)) < 2:
        rounds.finish_round(state, "resignation", last=True)
        return state
    auction = state["auction"]
    if state["phase"] in ("bid", "resolve"):
        if seat in auction["bidders"]:
            auction["bidders"].remove(seat)
        if auction["high_bidder"] == seat:
            _withdraw_bid(auction, state["resigned"])
        if state["phase"] == "bid" and not auction["bidders"]:
            turn.close_bidding(state)
        elif state["phase"] == "resolve" and auction["high_bidder"] is None:
            turn.to_placement(state, auction["auctioneer"])
    settle(state)
    return state
