"""Point City's board from the engine's view: the 4x4 market and the piles in
SVG; the civic tokens on display and each player's city, stock and tokens
as HTML below it.

The view shows each market card by its face-up side only and the pile by its
size and the top card's resource side, so that is all the board can draw.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from boards.controls import button, cells, of_type, picker, said
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


# -- the board as the control (boards.controls) ------------------------------


def controls(
    view: dict[str, Any], seat: int | None, names: dict[int, str], moves: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Point City's clickable board for `seat`: the market to take two
    adjacent cards from (a building side is built, its cost paid), each
    choice sent with its cost and the points it brings in the mail's words;
    the cards that may be flipped, the pile and the civic tokens."""
    if seat is None or not moves:
        return []
    areas: list[dict[str, Any]] = []
    # A build can be paid more ways than one: each way is its own send.
    takes = [
        {**m, "gloss": f"{said(m)}, paying {' '.join(m['action']['pay'])}"}
        if m["action"].get("pay")
        else m
        for m in of_type(moves, "take")
    ]
    if takes:
        live = {s for m in takes for s in m["action"]["spaces"]}
        picks = [
            {
                "pick": space["space"],
                "name": space["space"],
                "detail": _space_words(space),
                "live": space["space"] in live,
            }
            for space in view["market"]
        ]
        areas.append(
            picker(
                "pointcity-market", "The market: take two adjacent cards", "take",
                [{"heading": "The market", "slot": "", "picks": picks}],
                takes, lambda a: list(a["spaces"]),
                prompt="Pick two adjacent spaces: a building is built, a resource card kept.",
                grid=SIZE,
            )
        )  # fmt: skip
    flips = of_type(moves, "flip")
    if flips:
        items = [
            {
                "name": m["action"]["space"],
                "detail": "",
                "buttons": [button(m, f"Flip: {said(m)}")],
            }
            for m in flips
        ]
        areas.append(cells("pointcity-flip", "Flip a card to its building side", items))
    draws = of_type(moves, "draw")
    if draws:
        pile = view["pile"]
        items = [
            {
                "name": "The pile",
                "detail": f"{pile['count']} card{'s' if pile['count'] != 1 else ''}",
                "buttons": [button(m, f"Draw: {said(m)}") for m in draws],
            }
        ]
        areas.append(cells("pointcity-pile", "Draw from the pile", items))
    civics = of_type(moves, "civic")
    if civics:
        items = [
            {
                "name": f"Token #{m['action']['token']}",
                "detail": next(
                    (t["text"] for t in view["display"] if t["id"] == m["action"]["token"]), ""
                ),
                "buttons": [button(m, f"Take it: {said(m)}")],
            }
            for m in civics
        ]
        areas.append(cells("pointcity-civic", "Civic tokens on display", items))
    rest = [
        button(m) for m in moves if m["action"]["type"] not in ("take", "flip", "draw", "civic")
    ]
    if rest:
        areas.append(
            cells("pointcity-more", "Also", [{"name": "", "detail": "", "buttons": rest}])
        )
    return areas


def _space_words(space: dict[str, Any]) -> str:
    if space.get("empty"):
        return "empty"
    if space["side"] == "resource":
        return _kind_text(space["resource"], space["symbols"])
    cost = ", ".join(f"{space['cost'][r]} {r}" for r in RESOURCES if r in space["cost"])
    return f"{space['name']}: {space['points']} pts, costs {cost or 'nothing'}"
