"""Final scoring: printed building points plus civic tokens; the solo opponent.

Resource-counting tokens count permanent resources (buildings in the city),
never cards in stock; only the Ingenuity token counts unspent cards.
"""

from __future__ import annotations

from typing import Any

from ..base import State
from .data import CARDS, RESOURCES, SOLO, TOKENS, WILD, Token
from .payment import permanent


def ingenuity_cards(stock: list[int]) -> int:
    return sum(1 for c in stock if CARDS[c].resource == WILD)


def token_points(token: Token, perm: dict[str, int], ingenuity: int) -> int:
    p = token.params
    points = p["points"]
    kind = token.kind
    if kind == "flat":
        return points
    if kind == "per_full_set":
        return points * min(perm[r] for r in p["resources"])
    if kind == "per_pair_set":
        return points * min(perm[r] for r in p["resources"])
    if kind == "per_permanent_resource":
        return points * perm[p["resource"]]
    if kind == "per_type_with_at_least":
        return points * sum(1 for r in RESOURCES if perm[r] >= p["threshold"])
    if kind == "per_missing_type":
        return points * sum(1 for r in RESOURCES if perm[r] == 0)
    if kind == "per_unspent_ingenuity_card":
        return points * ingenuity
    raise ValueError(f"unknown token kind {kind}")  # data.py rejects these at import


def building_points(city: list[int]) -> int:
    return sum(CARDS[c].points for c in city)


def player_score(player: dict[str, Any]) -> dict[str, Any]:
    """The breakdown of one player's score (also used live in the view)."""
    perm = permanent(player["city"])
    ingenuity = ingenuity_cards(player["stock"])
    tokens = [
        {"token": t, "points": token_points(TOKENS[t], perm, ingenuity)} for t in player["tokens"]
    ]
    buildings = building_points(player["city"])
    total = buildings + sum(t["points"] for t in tokens)
    return {
        "buildings": buildings,
        "tokens": tokens,
        "total": total,
        "resource_cards": len(player["stock"]),
        "permanent": perm,
    }


def opponent_score(bot: dict[str, Any], level: int) -> dict[str, Any]:
    """The solo opponent's score at a difficulty level (1-3 stars)."""
    rule = SOLO["levels"][level - 1]
    perm = permanent(bot["city"])
    buildings = building_points(bot["city"])
    if "per_permanent_resource" in rule:
        resources = rule["per_permanent_resource"] * sum(perm.values())
    else:
        steps = rule["per_resource_type_with_1_2_3plus"]
        resources = sum(steps[min(perm[r], 3) - 1] for r in RESOURCES if perm[r])
    tokens = rule["per_civic_token"] * len(bot["tokens"])
    ingenuity = rule["per_ingenuity_card"] * ingenuity_cards(bot["stock"])
    return {
        "level": level,
        "buildings": buildings,
        "resources": resources,
        "tokens": tokens,
        "ingenuity": ingenuity,
        "total": buildings + resources + tokens + ingenuity,
    }


def _places(keys: list[tuple[int, ...]]) -> list[int]:
    """1-based places; equal keys share a place (competition ranking)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def multiplayer_result(state: State) -> dict[str, Any]:
    scores = [player_score(p) for p in state["seats"]]
    # A resigned seat ranks below everyone still playing and cannot win.
    keys = [
        (0 if p["resigned"] else 1, s["total"], s["resource_cards"])
        for p, s in zip(state["seats"], scores, strict=True)
    ]
    places = _places(keys)
    ranking = sorted(range(len(keys)), key=lambda i: (places[i], i))
    return {
        "scores": [s["total"] for s in scores],
        "ranking": ranking,
        "places": places,
        "winners": [i for i in ranking if places[i] == 1 and keys[i][0]],
        "breakdown": scores,
        "end": state["end"],
    }


def solo_result(state: State) -> dict[str, Any]:
    me = player_score(state["seats"][0])
    levels = [opponent_score(state["bot"], level) for level in (1, 2, 3)]
    chosen = levels[state["level"] - 1]
    won = me["total"] > chosen["total"]  # the opponent must be beaten, not tied
    return {
        "scores": [me["total"]],
        "ranking": [0],
        "places": [1 if won else 2],
        "winners": [0] if won else [],
        "breakdown": [me],
        "opponent": chosen,
        "opponent_levels": levels,
        "level": state["level"],
        # Beating level N's opponent earns N stars.
        "stars": max((lv["level"] for lv in levels if me["total"] > lv["total"]), default=0),
        "end": state["end"],
    }


def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    return solo_result(state) if state["bot"] is not None else multiplayer_result(state)
