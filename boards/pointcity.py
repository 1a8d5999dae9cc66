"""Point City's board from the engine's view: the 4x4 market and the piles in
SVG; the civic tokens on display and each player's city, stock and tokens
as HTML below it.

The view shows each market card by its face-up side only and the pile by its
size and the top card's resource side, so that is all the board can draw.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engines.pointcity.data import RESOURCES, STOCK_KINDS

SIZE = 4
CELL_W, CELL_H, GAP = 140, 112, 8
PAD = 8
HEAD = 26  # the column letters above the grid
SIDE = 24  # the row numbers left of the grid
PILE_H = 64
NAME_FITS = 13  # characters of a building name that fit a space at 15px


def context(view: dict[str, Any], seat: int | None, names: dict[int, str]) -> dict[str, Any]:
    grid_w = SIZE * CELL_W + (SIZE - 1) * GAP
    grid_h = SIZE * CELL_H + (SIZE - 1) * GAP
    width = PAD + SIDE + grid_w + PAD
    opponent = view.get("opponent")
    over = view["phase"] == "over"
    next_spaces = set(opponent["next_spaces"]) if opponent and not over else set()
    spaces = [
        _space(i, space, space["space"] in next_spaces) for i, space in enumerate(view["market"])
    ]
    pile_y = PAD + HEAD + grid_h + GAP
    pile = view["pile"]
    top = pile["top"]
    return {
        "width": width,
        "height": pile_y + PILE_H + PAD,
        "columns": [
            {
                "label": "abcd"[c],
                "x": PAD + SIDE + c * (CELL_W + GAP) + CELL_W // 2,
                "marked": bool(opponent) and opponent["column"] == c + 1,
            }
            for c in range(SIZE)
        ],
        "rows": [
            {
                "label": r + 1,
                "y": PAD + HEAD + r * (CELL_H + GAP) + CELL_H // 2 + 6,
                "marked": bool(opponent) and opponent["row"] == r + 1,
            }
            for r in range(SIZE)
        ],
        "head_y": PAD + 18,
        "side_x": PAD + SIDE // 2,
        "spaces": spaces,
        "pile": {
            "x": PAD + SIDE,
            "y": pile_y,
            "w": grid_w,
            "h": PILE_H,
            "count": pile["count"],
            "top": _kind_text(top["resource"], top["symbols"]) if top else None,
            "top_resource": top["resource"] if top else None,
            "removed": view["removed"],
            "discard": view["discard"],
        },
        "status": _status(view, names),
        "display": view["display"],
        "civic_to_take": view.get("civic_tokens_to_take"),
        "seats": [_seat(s, view, seat, names) for s in view["seats"]],
        "opponent": _opponent(view, over) if opponent else None,
        "summary": _summary(view, spaces),
    }


def _kind_text(resource: str, symbols: int) -> str:
    return resource if symbols == 1 else f"double {resource}"


def _space(index: int, space: dict[str, Any], next_for_opponent: bool) -> dict[str, Any]:
    col, row = index % SIZE, index // SIZE
    x = PAD + SIDE + col * (CELL_W + GAP)
    y = PAD + HEAD + row * (CELL_H + GAP)
    out: dict[str, Any] = {
        "name": space["space"],
        "x": x,
        "y": y,
        "w": CELL_W,
        "h": CELL_H,
        "opponent_next": next_for_opponent,
        "empty": space.get("empty", False),
    }
    if out["empty"]:
        out["text"] = f"{space['space']}: empty"
        return out
    if space["side"] == "resource":
        out["resource"] = space["resource"]
        out["symbols"] = [
            {"cx": x + CELL_W // 2 + (i * 2 - space["symbols"] + 1) * 16, "cy": y + 48}
            for i in range(space["symbols"])
        ]
        out["label"] = space["resource"]
        out["double"] = space["symbols"] == 2
        kind = _kind_text(space["resource"], space["symbols"])
        out["text"] = f"{space['space']}: resource card, {kind}"
        return out
    cost = [
        {"resource": r, "n": n, "x": x + 10 + j * 44, "y": y + 62}
        for j, (r, n) in enumerate((r, space["cost"][r]) for r in RESOURCES if r in space["cost"])
    ]
    kind = space["building"]
    effect = (
        f"makes {space['produces']}"
        if kind == "producer"
        else "civic: takes a token"
        if kind == "civic"
        else "points only"
    )
    out.update(
        {
            "building": True,
            "title": space["name"],
            # a long name is squeezed to the card's width rather than cut
            "squeeze": len(space["name"]) > NAME_FITS,
            "tier": space["tier"],
            "points": space["points"],
            "cost": cost,
            "effect": effect,
            "produces": space["produces"],
            "text": (
                f"{space['space']}: {space['name']}, tier {space['tier']} building, "
                f"{space['points']} points, costs "
                + ", ".join(f"{c['n']} {c['resource']}" for c in cost)
                + f"; {effect}"
            ),
        }
    )
    return out


def _stock(kinds: list[str]) -> list[dict[str, Any]]:
    counts = Counter(kinds)
    return [
        {
            "resource": kind.rstrip("2"),
            "label": _kind_text(kind.rstrip("2"), 2 if kind.endswith("2") else 1),
            "n": counts[kind],
        }
        for kind in STOCK_KINDS
        if counts[kind]
    ]


def _holdings(player: dict[str, Any]) -> dict[str, Any]:
    score = player["score"]
    # A player's token part lists each token; the solo opponent's is one sum.
    tokens = score["tokens"]
    points = {t["token"]: t["points"] for t in tokens} if isinstance(tokens, list) else {}
    return {
        "score": score["total"],
        "buildings_points": score["buildings"],
        "turns": player["turns"],
        "stock": _stock(player["stock"]),
        "cards": len(player["stock"]),
        "permanent": [{"resource": r, "n": player["permanent"][r]} for r in RESOURCES],
        "city": [
            {
                "name": b["name"],
                "points": b["points"],
                "effect": f"makes {b['produces']}"
                if b["produces"]
                else b["building"].replace("_", " "),
            }
            for b in player["city"]
        ],
        "tokens": [{**t, "points": points.get(t["id"])} for t in player["tokens"]],
    }


def _seat(
    s: dict[str, Any], view: dict[str, Any], viewer: int | None, names: dict[int, str]
) -> dict[str, Any]:
    index = s["seat"]
    return {
        "seat": index,
        "name": names.get(index, f"seat {index + 1}"),
        "you": index == viewer,
        "current": view["current"] == index and view["phase"] != "over",
        "resigned": s["resigned"],
        **_holdings(s),
    }


def _opponent(view: dict[str, Any], over: bool) -> dict[str, Any]:
    opponent = view["opponent"]
    return {
        **_holdings(opponent),
        "level": view.get("level"),
        "column": "abcd"[opponent["column"] - 1],
        "row": opponent["row"],
        "next_spaces": [] if over else opponent["next_spaces"],
        "levels": [level["total"] for level in view.get("opponent_levels", [])],
        "stars": view.get("stars"),
    }


def _status(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    current = view["current"]
    return {
        "current": names.get(current, f"seat {current + 1}") if current is not None else None,
        "phase": view["phase"],
        "flipped": view["flipped"],
    }


def _summary(view: dict[str, Any], spaces: list[dict[str, Any]]) -> str:
    pile = view["pile"]
    top = pile["top"]
    shown = f", top card {_kind_text(top['resource'], top['symbols'])}" if top else ""
    return (
        "Market: "
        + "; ".join(space["text"] for space in spaces)
        + f". Pile: {pile['count']} cards{shown}."
    )
