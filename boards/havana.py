"""Havana's board from the engine's view: the building rows and the centre in
SVG, each player's cards and goods as HTML panels below it.

Everything drawn comes from the view.  Hands and discards are open in Havana;
the one hidden thing, a face-down choice, is in the view only as the viewer's
own `choice` (other seats show `chosen: true`), so the board can only say
"chosen" for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boards.controls import button as controls_button
from boards.controls import cells as controls_cells
from boards.controls import of_type as controls_of_type
from boards.controls import picker as controls_picker
from boards.controls import target as controls_target
from games.engines import base
from games.engines.havana.data import ALL_COST_FIELDS, CARD_BY_CODE, CUBES, card_sort_key

CARD_W, GAP = 100, 8
CARD_HEAD = 46  # id, VP and the Architect note above the cost
COST_LINE = 24  # one line holds two cost items
COST_LINES = 3  # enough for the current list; a longer cost makes the cards taller
CARD_FOOT = 24  # "for sale"
ROW_LABEL_H = 24
PAD = 8
MIN_SLOTS = 6  # a full row; the SVG keeps this width even when rows shrink
CENTRE_H = 100

PHASES = {
    "choose": "choosing two cards (face down)",
    "replace": "playing a new card on one of two (face down)",
    "actions": "actions and buying",
    "over": "game over",
}
MARKS = {"workers": "W", "pesos": "$", "any_colored": "?"}
WORDS = {  # singular, plural
    "workers": ("worker", "workers"),
    "pesos": ("peso", "pesos"),
    "any_colored": ("cube of any colour", "cubes of any colour"),
}


# The picture is a control too: each building the seat may buy or conserve
# is a link to its buttons below (boards.controls).
TAKES_ACTIONS = True


def context(
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    actions: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    slots = max(MIN_SLOTS, *(len(row) for row in view["rows"]))
    width = 2 * PAD + slots * CARD_W + (slots - 1) * GAP
    widest = max(
        (len(view["buildings"][str(b)]["cost"]) for r in view["rows"] for b in r), default=0
    )
    card_h = CARD_HEAD + max(COST_LINES, (widest + 1) // 2) * COST_LINE + CARD_FOOT
    rows, y = [], PAD
    for number, row in enumerate(view["rows"], start=1):
        rows.append(_row(view, number, row, y, card_h))
        y += ROW_LABEL_H + card_h + GAP
    centre = _centre(view, y, width)
    return {
        "width": width,
        "height": y + CENTRE_H + PAD,
        "rows": rows,
        "targets": _targets(rows, actions),
        "centre": centre,
        # The engine's flag, as the API shows it: on this board it is the
        # buildings' costs and VP that are provisional.
        "provisional": base.get("havana").PROVISIONAL_DATA,
        "status": _status(view, names),
        "seats": [_seat(view, s, seat, names) for s in view["seats"]],
        "summary": _summary(view, rows),
    }


def _targets(
    rows: list[dict[str, Any]], actions: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The buildings a legal move names (buy, conserve), each a link to its
    cell among the controls."""
    named = {a["building"] for a in actions if a.get("type") in ("buy", "conserve")}
    return [
        controls_target(f"havana-building-{card['id']}",
                        (card["x"], card["y"], card["w"], card["h"]),
                        f"B{card['id']}: buy or conserve it")
        for row in rows for card in row["cards"] if card["id"] in named
    ]  # fmt: skip


def _name(names: dict[int, str], seat: int) -> str:
    return names.get(seat, f"seat {seat + 1}")


def cost_text(cost: dict[str, int]) -> str:
    words = (f"{n} {WORDS.get(f, (f, f))[n > 1]}" for f, n in cost.items())
    return ", ".join(words)


def _row(
    view: dict[str, Any], number: int, row: list[int], top: int, card_h: int
) -> dict[str, Any]:
    cards = []
    last = len(row) - 1
    for i, bid in enumerate(row):
        x = PAD + i * (CARD_W + GAP)
        y = top + ROW_LABEL_H
        building = view["buildings"][str(bid)]
        cost = {f: building["cost"][f] for f in ALL_COST_FIELDS if f in building["cost"]}
        items = [
            {
                "field": field,
                "n": n,
                # two columns of cost items under the card's head
                "x": x + 8 + (j % 2) * (CARD_W // 2 - 2),
                "y": y + CARD_HEAD + (j // 2) * COST_LINE,
                "mark": MARKS.get(field, ""),
            }
            for j, (field, n) in enumerate(cost.items())
        ]
        end = i in (0, last)
        cards.append(
            {
                "id": bid,
                "x": x,
                "y": y,
                "w": CARD_W,
                "h": card_h,
                "foot_y": y + card_h - 8,
                "vp": building["vp"],
                "architect": building["architect"],
                "end": end,
                "cost": items,
                "text": (
                    f"B{bid}: {building['vp']} VP, costs {cost_text(cost)}"
                    + ("; needs the Architect" if building["architect"] else "")
                    + ("; at an end, can be bought" if end else "")
                ),
            }
        )
    return {"number": number, "y": top + ROW_LABEL_H - 7, "cards": cards, "size": len(row)}


def _centre(view: dict[str, Any], top: int, width: int) -> dict[str, Any]:
    cubes = view["centre"]["cubes"]
    swatches = [
        {"colour": c, "n": cubes[c], "x": PAD + 120 + i * 76, "y": top + 28}
        for i, c in enumerate(CUBES)
    ]
    return {
        "x": PAD,
        "y": top,
        "w": width - 2 * PAD,
        "h": CENTRE_H,
        "pesos": view["centre"]["pesos"],
        "cubes": swatches,
        "line2_y": top + 86,
        "workers": view["workers_in_supply"],
        "bag": view["bag_size"],
        "pile": view["pile_size"],
        "boxed": len(view["boxed"]),
    }


def card_label(code: str) -> str:
    card = CARD_BY_CODE[code]
    return f"{card['value']} {card['name']}"


def _cards(codes: list[str]) -> list[str]:
    return [card_label(c) for c in sorted(codes, key=card_sort_key)]


def _number(codes: list[str]) -> str | None:
    """The two-digit number two face-up cards make (it sets the turn order)."""
    if len(codes) != 2:
        return None
    return "".join(str(v) for v in sorted(CARD_BY_CODE[c]["value"] for c in codes))


def _choice(choice: dict[str, Any]) -> str:
    if "cards" in choice:
        return " and ".join(_cards(choice["cards"]))
    return f"{card_label(choice['card'])} on {card_label(choice['cover'])}"


def _seat(
    view: dict[str, Any], s: dict[str, Any], viewer: int | None, names: dict[int, str]
) -> dict[str, Any]:
    index = s["seat"]
    choosing = view["phase"] in ("choose", "replace") and not s["resigned"]
    return {
        "seat": index,
        "name": _name(names, index),
        "you": index == viewer,
        "current": view["current"] == index,
        "resigned": s["resigned"],
        "vp": s["vp"],
        "pesos": s["pesos"],
        "workers": s["workers"],
        "cubes": [{"colour": c, "n": s["cubes"][c]} for c in CUBES],
        "cards": [card_label(c) for c in s["cards"]],
        "number": _number(s["cards"]),
        "hand": _cards(s["hand"]),
        "discard": _cards(s["discard"]),
        "buildings": [
            {"id": b, "vp": view["buildings"][str(b)]["vp"]}
            for b in s["buildings"]
            if str(b) in view["buildings"]
        ],
        # Only the viewer's own face-down choice is in the view at all.
        "choice": _choice(s["choice"]) if "choice" in s else None,
        "chosen": s["chosen"],
        "choosing": choosing,
    }


def _status(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    order = [_name(names, i) for i in view["order"]]
    current = view["current"]
    return {
        "round": view["round"],
        "phase": PHASES.get(view["phase"], view["phase"]),
        "order": order,
        "current": None if current is None else _name(names, current),
        "done": [card_label(c) for c in view["done"]],
        "buying": view["buying"],
        "target": view["target"],
    }


def _summary(view: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    parts = [
        f"Row {row['number']}: " + ("; ".join(c["text"] for c in row["cards"]) or "empty")
        for row in rows
    ]
    centre = view["centre"]
    cubes = ", ".join(f"{n} {c}" for c, n in centre["cubes"].items() if n) or "no cubes"
    parts.append(
        f"Centre: {centre['pesos']} pesos, {cubes}. Supply: {view['workers_in_supply']} workers. "
        f"Bag: {view['bag_size']} cubes. Pile: {view['pile_size']} buildings."
    )
    return ". ".join(parts)


# -- the board as the control (boards.controls) ------------------------------


def controls(
    view: dict[str, Any], seat: int | None, names: dict[int, str], moves: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Havana's clickable board for `seat`: the hand to pick two cards from
    (or one to play on a face-up card), the face-up cards with what each
    does now, the buildings for sale with their cost beside the seat's
    goods, and the targets of the thieves, the tax and Mama."""
    if seat is None or not moves:
        return []
    me = next(s for s in view["seats"] if s["seat"] == seat)
    hand = sorted(me["hand"], key=card_sort_key)
    areas: list[dict[str, Any]] = []
    choose = controls_of_type(moves, "choose")
    if choose:
        areas.append(
            controls_picker(
                "havana-choose", "Your hand: pick two action cards", "choose",
                [{"heading": "Your hand", "slot": "", "picks": _card_picks(hand)}],
                choose, lambda a: list(a["cards"]),
                prompt="Pick two cards: their numbers, the smaller first, make your "
                "number for the turn order.",
            )
        )  # fmt: skip
    replace = controls_of_type(moves, "replace")
    if replace:
        areas.append(
            controls_picker(
                "havana-replace", "Play a card from your hand on one of your face-up cards",
                "replace",
                [
                    {"heading": "A card from your hand", "slot": "card",
                     "picks": _card_picks(hand)},
                    {"heading": "The face-up card it covers", "slot": "cover",
                     "picks": _card_picks(me["cards"])},
                ],
                replace, lambda a: [a["card"], a["cover"]],
                prompt="Pick a card from your hand, then the face-up card it covers.",
            )
        )  # fmt: skip
    used: set[int] = set()
    cards = []
    for code in me["cards"]:
        label = card_label(code)
        buttons = []
        for i, move in enumerate(moves):
            gloss = move.get("gloss") or ""
            if i not in used and gloss.startswith((label, f"skip {label}")):
                used.add(i)
                buttons.append(controls_button(move, _move_text(move, names)))
        if buttons:
            cards.append({"name": label, "detail": "", "buttons": buttons})
    if cards:
        areas.append(controls_cells("havana-cards", "Your face-up cards: use or skip", cards))
    buy_or_box = [i for i, m in enumerate(moves) if m["action"]["type"] in ("buy", "conserve")]
    if buy_or_box:
        used.update(buy_or_box)
        areas.append(
            controls_cells(
                "havana-buildings", "Buildings for sale (the ends of each row)",
                _for_sale(view, [moves[i] for i in buy_or_box]),
                note=f"You have {_goods(me)}.",
            )
        )  # fmt: skip
    rest = [
        controls_button(m, _move_text(m, names))
        for i, m in enumerate(moves)
        if i not in used and m["action"]["type"] not in ("choose", "replace")
    ]
    if rest:
        items = [{"name": "", "detail": "", "buttons": rest}]
        areas.append(controls_cells("havana-more", "Targets and the end of your turn", items))
    return areas


def _card_picks(codes: list[str]) -> list[dict[str, Any]]:
    return [{"pick": c, "name": card_label(c), "detail": "", "live": True} for c in codes]


def _goods(s: dict[str, Any]) -> str:
    cubes = [f"{s['cubes'][c]} {c}" for c in CUBES if s["cubes"].get(c)]
    return ", ".join([f"{s['pesos']} pesos", f"{s['workers']} workers", *cubes])


def _for_sale(view: dict[str, Any], moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    items = []
    for number, row in enumerate(view["rows"], start=1):
        for bid in dict.fromkeys((row[0], row[-1]) if row else ()):
            b = view["buildings"][str(bid)]
            cost = {f: b["cost"][f] for f in ALL_COST_FIELDS if f in b["cost"]}
            buttons = []
            for move in moves:
                action = move["action"]
                if action.get("building") != bid:
                    continue
                if action["type"] == "buy":
                    pay = cost_text(action.get("pay") or {}) or "nothing"
                    text = f"Buy B{bid}, paying {pay}" + (
                        f": {move['gloss']}" if move.get("gloss") else ""
                    )
                else:
                    text = f"Conserve B{bid}: {move.get('gloss') or move['line']}"
                buttons.append(controls_button(move, text))
            items.append(
                {
                    "name": f"B{bid} (row {number})",
                    "anchor": f"havana-building-{bid}",
                    "detail": f"{b['vp']} VP, costs {cost_text(cost)}"
                    + (", needs the Architect" if b["architect"] else ""),
                    "buttons": buttons,
                }
            )
    return items


def _move_text(move: dict[str, Any], names: dict[int, str]) -> str:
    """A target move's button: who and what it takes, then the mail's gloss."""
    action = move["action"]
    gloss = move.get("gloss")
    kind = action["type"]
    if kind == "mama":
        return "Mama: take " + ", ".join(action["cubes"])
    if kind == "steal_cubes":
        victim = _name(names, action["victim"])
        return f"Steal {', '.join(action['cubes'])} from {victim}" + (
            f" ({gloss})" if gloss else ""
        )
    if kind == "tax":
        taken = [f"{c} from {_name(names, int(s))}" for s, c in action.get("take", {}).items()]
        return "Tax: " + (", ".join(taken) or "nobody") + (f" ({gloss})" if gloss else "")
    if kind == "end":
        return "End my turn"
    return gloss or move["line"]
