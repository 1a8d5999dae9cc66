"""Final scoring: printed building points plus civic tokens; the solo opponent.

Resource-counting tokens count permanent resources (buildings in the city),
never cards in stock; only the Ingenuity token counts unspent cards.
"""

from __future__ import annotations

from typing import Any

from ..base import Result, Score, State, finished, rank
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


# The state's end reasons (kept as they are: they are part of the state, and
# so of its hash) and the short `ended_by` each one is reported as.
ENDED_BY = {
    "the market could not be refilled": "pile_exhausted",
    "no draft possible on the final turn": "no_draft",
    "resignation": "resignation",
}


def parts(score: dict[str, Any]) -> dict[str, Score]:
    """A player's score by the rules' categories: printed building points and
    each civic token it holds (they add up to its total)."""
    out: dict[str, Score] = {"buildings": score["buildings"]}
    for token in score["tokens"]:
        out[f"civic token {token['token']}"] = token["points"]
    return out


def multiplayer_result(state: State) -> Result:
    scores = [player_score(p) for p in state["seats"]]
    # A resigned seat ranks below everyone still playing and cannot win; then
    # the most points, then the most unspent resource cards; then a shared place.
    keys = [
        (not p["resigned"], s["total"], s["resource_cards"])
        for p, s in zip(state["seats"], scores, strict=True)
    ]
    return finished(
        rank(keys),
        [s["total"] for s in scores],
        ENDED_BY[state["end"]],
        [parts(s) for s in scores],
    )


def solo_result(state: State) -> Result:
    """One seat against the opponent's score at the chosen level, which must be
    beaten, not tied: a tie puts the player second."""
    me = player_score(state["seats"][0])
    opponent = opponent_score(state["bot"], state["level"])["total"]
    place, _ = rank([(me["total"], 0), (opponent, 1)])
    return finished([place], [me["total"]], ENDED_BY[state["end"]], [parts(me)], opponent)


def stars(state: State) -> int:
    """Solo: beating level N's opponent earns N stars (0 when none is beaten)."""
    mine = player_score(state["seats"][0])["total"]
    beaten = [lv for lv in (1, 2, 3) if mine > opponent_score(state["bot"], lv)["total"]]
    return max(beaten, default=0)


def result(state: State) -> Result | None:
    if state["phase"] != "over":
        return None
    return solo_result(state) if state["bot"] is not None else multiplayer_result(state)
