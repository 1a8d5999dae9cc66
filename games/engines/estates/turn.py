"""A turn up to the placement: illegal earnings, choosing a piece, the auction.

The auction dict of a turn::

    piece        {"kind": "cube", "cube": c, "at": "row2-left"} | {"kind": "roof",
                 "value": v} | {"kind": "permit", "value": v} | {"kind": "cancel"}
                 | {"kind": "mayor"}
    auctioneer   the active seat
    bidders      every other seat, clockwise from the auctioneer's left
    bids         [[seat, amount or None for a pass], ...] in bidding order
    high, high_bidder

The optional stash is part of the choosing action (``"stash": true``) rather
than an action of its own: an event of its own would tell every other seat
how many cheques were stashed, which the rules keep secret.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_
from . import rounds
from .board import cube_targets, roof_targets
from .data import SPECIALS
from .errors import check_keys, refuse
from .pieces import choices, cube_choice, display_slot, other_choices, special_available

State = dict[str, Any]
Action = dict[str, Any]


def start_actions(state: State, seat: int) -> list[Action]:
    return _with_stash(state, seat, choices(state))


def start_candidates(state: State, seat: int, action: Action) -> list[Action]:
    """The legal choices of the same piece (and display end) as ``action``:
    ``start_actions`` without looking at every display end."""
    if action.get("piece") == "cube":
        plain = cube_choice(state, action.get("at"))  # type: ignore[arg-type]
    else:
        plain = [a for a in other_choices(state) if a["piece"] == action.get("piece")]
    return _with_stash(state, seat, plain)


def _with_stash(state: State, seat: int, plain: list[Action]) -> list[Action]:
    if state["money"][seat] < 1:
        return plain
    return plain + [{**a, "stash": True} for a in plain]


def _piece_for(state: State, action: Action) -> Action:
    """Check the chosen piece and describe it; raises IllegalAction."""
    piece = action.get("piece")
    if piece == "cube":
        check_keys(action, {"type", "piece", "at", "stash"}, {"type", "piece", "at"})
        slot = display_slot(action["at"])
        if slot is None:
            raise refuse('name a display end like "row2-left" or "row3-right"')
        row = state["display"][slot[0]]
        if not row:
            raise refuse("display row {row} is empty", row=slot[0] + 1)
        cube = row[slot[1]]
        if not cube_targets(state["board"], cube):
            raise refuse("cube {cube} has no legal place on the board", cube=cube)
        return {"kind": "cube", "cube": cube, "at": action["at"]}
    check_keys(action, {"type", "piece", "stash"}, {"type", "piece"})
    if piece == "roof":
        if not state["roofs"]:
            raise refuse("no roofs are left")
        if not roof_targets(state["board"]):
            raise refuse("a roof may only be chosen while some building lacks one")
        return {"kind": "roof"}
    if piece not in SPECIALS:
        raise refuse("choose a cube, the roof, permit1-3, cancel or mayor")
    if not special_available(state, piece):
        # One whole sentence per reason; the piece is named as a move line does.
        where = {
            "board": N_("{piece} is not available: it is on the board"),
            "gone": N_("{piece} is not available: it is out of the game"),
        }
        reason = where.get(
            state["specials"][piece], N_("{piece} is not available: it is being auctioned")
        )
        raise refuse(reason, piece=piece)
    if piece.startswith("permit"):
        return {"kind": "permit", "value": int(piece[-1])}
    return {"kind": piece}


def check_choose(state: State, seat: int, action: Action) -> None:
    """Why choosing this piece is not allowed (raises IllegalAction)."""
    if action.get("type") != "auction":
        raise refuse('choose a piece to auction, e.g. "auction cube row1-left"')
    stash = action.get("stash", False)
    if stash is not True and "stash" in action:
        raise refuse("stash must be true or left out")
    _piece_for(state, action)
    if stash and state["money"][seat] < 1:
        raise refuse("you have no cheque in hand to stash")


def apply_choose(state: State, seat: int, action: Action) -> None:
    """Stash (optional), take the piece out of the supply, open the auction."""
    piece = _piece_for(state, action)
    if action.get("stash", False):
        state["money"][seat] -= 1
        state["stash"][seat] += 1
    if piece["kind"] == "cube":
        row = state["display"][display_slot(piece["at"])[0]]  # type: ignore[index]
        row.pop(0 if piece["at"].endswith("left") else -1)
    elif piece["kind"] == "roof":
        piece["value"] = state["roofs"].pop(0)
        if piece["value"] == 0:
            # Neue Heimat: a blank roof leaves the game and ends the turn at once.
            state["blanks"] += 1
            state["last"] = {"seat": seat, "blank_roof": True}
            rounds.end_turn(state)
            return
    elif piece["kind"] != "mayor":
        name = "cancel" if piece["kind"] == "cancel" else f"permit{piece['value']}"
        state["specials"][name] = "auction"
    players = state["players"]
    state["auction"] = {
        "piece": piece,
        "auctioneer": seat,
        "bidders": [
            (seat + k) % players
            for k in range(1, players)
            if (seat + k) % players not in state["resigned"]
        ],
        "bids": [],
        "high": 0,
        "high_bidder": None,
    }
    state["phase"] = "bid"


def bid_actions(state: State, seat: int) -> list[Action]:
    high = state["auction"]["high"]
    return [{"type": "pass"}] + [
        {"type": "bid", "amount": a} for a in range(high + 1, state["money"][seat] + 1)
    ]


def bid_candidates(state: State, seat: int, action: Action) -> list[Action]:
    """The legal bid or pass like ``action``: one of ``bid_actions`` without
    listing every amount (bids are most of the moves)."""
    if action.get("type") == "pass":
        return [{"type": "pass"}]
    amount = action.get("amount")
    if type(amount) is not int or not state["auction"]["high"] < amount <= state["money"][seat]:
        return []
    return [{"type": "bid", "amount": amount}]


def check_bid(state: State, seat: int, action: Action) -> None:
    """Why this bid or pass is not allowed (raises IllegalAction)."""
    auction = state["auction"]
    kind = action.get("type")
    if kind == "pass":
        check_keys(action, {"type"}, {"type"})
    elif kind == "bid":
        check_keys(action, {"type", "amount"}, {"type", "amount"})
        amount = action["amount"]
        if type(amount) is not int:
            raise refuse("a bid is a whole number of cheques")
        if amount <= auction["high"]:
            raise refuse("bid more than {high}", high=auction["high"])
        if amount > state["money"][seat]:
            raise refuse(
                "you cannot bid {amount}: more than the cheques in your hand", amount=amount
            )
    else:
        raise refuse('it is your turn to bid: "bid N" or "pass"')


def apply_bid(state: State, seat: int, action: Action) -> None:
    auction = state["auction"]
    if action["type"] == "pass":
        auction["bids"].append([seat, None])
    else:
        amount = action["amount"]
        auction["bids"].append([seat, amount])
        auction["high"], auction["high_bidder"] = amount, seat
    auction["bidders"].pop(0)
    if not auction["bidders"]:
        close_bidding(state)


def close_bidding(state: State) -> None:
    """Everyone has bid or passed: give/keep, or the auctioneer gets it free."""
    auction = state["auction"]
    if auction["high_bidder"] is None:
        to_placement(state, auction["auctioneer"])
    else:
        state["phase"] = "resolve"


def resolve_actions(state: State, seat: int) -> list[Action]:
    auction = state["auction"]
    give: list[Action] = [{"type": "give"}]
    if state["money"][seat] >= auction["high"]:
        return [*give, {"type": "keep"}]
    return give


def check_resolve(state: State, seat: int, action: Action) -> None:
    """Why this give or keep is not allowed (raises IllegalAction)."""
    kind = action.get("type")
    if kind not in ("give", "keep"):
        raise refuse('the bidding is over: "give" or "keep"')
    check_keys(action, {"type"}, {"type"})
    price = state["auction"]["high"]
    if kind == "keep" and state["money"][seat] < price:
        raise refuse("you cannot keep it: you hold fewer than {price} cheques", price=price)


def apply_resolve(state: State, seat: int, action: Action) -> None:
    auction = state["auction"]
    winner, price = auction["high_bidder"], auction["high"]
    if action["type"] == "give":
        state["money"][winner] -= price
        state["money"][seat] += price
        auction["decision"] = "give"
        to_placement(state, winner)
    else:
        state["money"][seat] -= price
        state["money"][winner] += price
        auction["decision"] = "keep"
        to_placement(state, seat)


def to_placement(state: State, recipient: int) -> None:
    state["recipient"] = recipient
    state["phase"] = "place"
