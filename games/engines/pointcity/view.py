"""What a seat may see.  Cards are shown by their visible face only, never by id.

Public: the face-up side of every market card, the top pile card's resource
side, the pile size, every stock (open, by resource side: see README), cities,
civic tokens taken and on display, the solo opponent's market tokens.
Hidden from everyone while the game runs: the other side of market cards, the
pile below its top card, the removed cards and the unrevealed civic tokens.
Seats see the same thing (no hand is secret); ``you`` says whose view it is.
"""

from __future__ import annotations

from typing import Any

from ..base import State
from .data import CARDS, TOKENS
from .market import NAMES, RESOURCE
from .payment import KIND_ORDER, permanent
from .scoring import opponent_score, player_score, result, stars
from .solo import opponent_spaces


def resource_face(card_id: int) -> dict[str, Any]:
    card = CARDS[card_id]
    return {"resource": card.resource, "symbols": card.symbols}


def building_face(card_id: int) -> dict[str, Any]:
    card = CARDS[card_id]
    return {
        "name": card.name,
        "tier": card.tier,
        "building": card.building,
        "cost": dict(card.cost),
        "points": card.points,
        "produces": card.produces,
    }


def token_face(token_id: int) -> dict[str, Any]:
    token = TOKENS[token_id]
    return {"id": token.id, "kind": token.kind, "text": token.text}


def stock_face(stock: list[int]) -> list[str]:
    return sorted((CARDS[c].stock_kind for c in stock), key=KIND_ORDER.__getitem__)


def market_view(market: list[Any]) -> list[dict[str, Any]]:
    spaces = []
    for i, slot in enumerate(market):
        if slot is None:
            spaces.append({"space": NAMES[i], "empty": True})
        elif slot["side"] == RESOURCE:
            spaces.append({"space": NAMES[i], "side": RESOURCE, **resource_face(slot["card"])})
        else:
            face = building_face(slot["card"])
            spaces.append({"space": NAMES[i], "side": slot["side"], **face})
    return spaces


def player_view(player: dict[str, Any]) -> dict[str, Any]:
    return {
        "stock": stock_face(player["stock"]),
        "city": [building_face(c) for c in player["city"]],
        "permanent": permanent(player["city"]),
        "tokens": [token_face(t) for t in player["tokens"]],
        "score": player_score(player),
        "turns": player["turns"],
    }


def opponent_view(state: State) -> dict[str, Any]:
    bot = state["bot"]
    return {
        **player_view(bot),
        "score": opponent_score(bot, state["level"]),
        "column": bot["column"] + 1,
        "row": bot["row"] + 1,
        "next_spaces": [NAMES[i] for i in opponent_spaces(bot)],
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    pile = state["pile"]
    out: dict[str, Any] = {
        "you": seat,
        "players": state["players"],
        "solo": state["bot"] is not None,
        "current": state["current"],
        "phase": state["phase"],
        "flipped": state["flipped"],
        "market": market_view(state["market"]),
        "pile": {"count": len(pile), "top": resource_face(pile[0]) if pile else None},
        "removed": len(state["removed"]),
        "discard": len(state["discard"]),
        "display": [token_face(t) for t in state["display"]],
        "seats": [
            {"seat": i, "resigned": p["resigned"], **player_view(p)}
            for i, p in enumerate(state["seats"])
        ],
        # The card values are a fan port's (README, the last table): the
        # seat's own copy of the game's flag, for a client reading the view.
        "provisional": ["cards"],
    }
    if state["bot"] is not None:
        out["level"] = state["level"]
        out["opponent"] = opponent_view(state)
    if state["phase"] == "civic":
        out["civic_tokens_to_take"] = state["pending"]["civic"]
    if state["phase"] == "over":
        out["result"] = result(state)
        if state["bot"] is not None:
            # What the solo result leaves out: the opponent at every level,
            # and the stars earned by beating them.
            out["opponent_levels"] = [opponent_score(state["bot"], lv) for lv in (1, 2, 3)]
            out["stars"] = stars(state)
    return out
