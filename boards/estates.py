"""The Estates board as shapes: three rows of lots, the display, the auction.

Everything comes from the engine's view for one seat.  The view holds only
the viewing seat's own cheques (under ``you``) until the game is over, so the
players' panel shows "hidden" for the others: there is nothing else to draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boards.controls import button, cells, number, of_type, said, target

# The picture is a control too: each lot a won piece may go on, each street
# the mayor may stand in and each permit the cancel cube may remove is a
# link to its buttons below (boards.controls).
TAKES_ACTIONS = True

# Geometry of the SVG, in viewBox units.
LABEL_W = 34  # the street in front of the rows: row letter and mayor
LOT_W = 36
CUBE = 15  # height of one floor
ROOF_H = 13
ROW_GAP = ROOF_H + 26  # above the roof and below the ground: roof, permit, lot names
TOP = 8
DISPLAY_CUBE = 22


def _cube(cube: str) -> dict[str, Any]:
    company, _, pips = cube.rpartition("-")
    return {"company": company, "pips": int(pips), "text": f"{company} {pips}"}


def _piece_text(piece: dict[str, Any]) -> str:
    kind = piece["kind"]
    if kind == "cube":
        return f"floor {_cube(piece['cube'])['text']}"
    if kind == "roof":
        return f"roof {piece['value']}" if "value" in piece else "roof"
    if kind == "permit":
        return f"building permit {'I' * piece['value']}"
    if kind == "cancel":
        return "cancel cube"
    return "the mayor"


def _permit_text(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212")


def _rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    y0 = TOP
    for row in view["board"]:
        # Room for the tallest stack plus one floor (at least three): rows
        # grow as houses do, so an early board is not mostly empty sky.
        tallest = max(len(lot["floors"]) for lot in row["lots"])
        height = min(max(3, tallest + 1), 6) * CUBE + ROW_GAP
        base = y0 + height - 18  # ground line: floors stack up from here
        lots = []
        for n, lot in enumerate(row["lots"]):
            x = LABEL_W + n * LOT_W
            floors = [
                {**_cube(c), "x": x + 4, "y": base - (i + 1) * CUBE, "w": LOT_W - 8, "h": CUBE}
                for i, c in enumerate(lot["floors"])
            ]
            top = base - len(floors) * CUBE
            roof = None
            if lot["roof"] is not None:
                roof = {
                    "value": lot["roof"],
                    "points": f"{x + 2},{top} {x + LOT_W // 2},{top - ROOF_H} "
                    f"{x + LOT_W - 2},{top}",
                    "tx": x + LOT_W // 2,
                    "ty": top - 2,
                }
            lots.append(
                {
                    **lot,
                    "x": x,
                    "label_x": x + LOT_W // 2,
                    "cubes": floors,
                    "roof_shape": roof,
                    "permit_here": lot["lot"] == row["permit_lot"],
                }
            )
        rows.append(
            {
                **row,
                "y": y0,
                "height": height - 6,
                "base": base,
                "lot_label_y": base + 13,
                "lots": lots,
                "permits_text": " ".join(_permit_text(p) for p in row["permits"]),
                "status": "complete" if row["complete"] else "incomplete",
            }
        )
        y0 += height
    return rows


def _display(view: dict[str, Any], y0: float) -> list[dict[str, Any]]:
    out = []
    for r, row in enumerate(view["display"]):
        y = y0 + r * (DISPLAY_CUBE + 6)
        out.append(
            {
                "number": r + 1,
                "y": y,
                "ty": y + DISPLAY_CUBE // 2 + 4,
                "text": ", ".join(_cube(c)["text"] for c in row) or "empty",
                "cubes": [
                    {**_cube(c), "x": LABEL_W + i * (DISPLAY_CUBE + 6), "y": y}
                    for i, c in enumerate(row)
                ],
            }
        )
    return out


def _players(
    view: dict[str, Any], seat: int | None, names: dict[int, str]
) -> list[dict[str, Any]]:
    owners: dict[int, list[str]] = {}
    for company, owner in view["certificates"].items():
        if owner is not None:
            owners.setdefault(owner, []).append(company)
    final = view.get("cheques")
    you = view.get("you")
    players = []
    for s in range(view["players"]):
        money: str | None = None
        stash: int | None = None
        if final is not None:
            money = str(final[s])
        elif you is not None and you["seat"] == s:
            money, stash = str(you["cheques"]), you["stash"]
        players.append(
            {
                "seat": s,
                "name": names.get(s, f"Seat {s + 1}"),
                "you": s == seat,
                "money": money,
                "stash": stash,
                "colours": owners.get(s, []),
                "wins": view["round_wins"][s] if s < len(view["round_wins"]) else 0,
                "to_act": s in view["to_act"],
                "resigned": s in view["resigned"],
            }
        )
    return players


def _auction(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
    auction = view["auction"]
    if auction is None:
        return None

    def name(s: int | None) -> str | None:
        return None if s is None else names.get(s, f"Seat {s + 1}")

    return {
        "piece": _piece_text(auction["piece"]),
        "auctioneer": name(auction["auctioneer"]),
        "high": auction["high"],
        "leader": name(auction["high_bidder"]),
        "bids": [{"name": name(s), "amount": amount} for s, amount in auction["bids"]],
        "waiting": [name(s) for s in auction["waiting_for"]],
        "deciding": view["phase"] == "resolve",
    }


def _targets(
    rows: list[dict[str, Any]], actions: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The parts of the picture a legal move names, each a link to the
    control that makes it: lots (place), streets (mayor), permits (cancel)."""
    lots = {a["lot"] for a in actions if a.get("type") == "place"}
    streets = {a["row"] for a in actions if a.get("type") == "mayor"}
    cancels = {a["permit"] for a in actions if a.get("type") == "cancel"}
    targets = []
    for row in rows:
        name = row["row"].upper()
        if row["row"] in streets:
            targets.append(
                target(f"estates-mayor-{row['row']}", (0, row["y"], LABEL_W - 4, row["height"]),
                       f"Row {name}: the mayor may stand here")
            )  # fmt: skip
        for lot in row["lots"]:
            if lot["lot"] in lots:
                box = (lot["x"], row["y"], LOT_W - 2, row["base"] - row["y"] + 4)
                targets.append(
                    target(f"estates-lot-{lot['lot']}", box,
                           f"Lot {lot['lot']}: the piece may go here")
                )  # fmt: skip
            if lot["permit_here"] and cancels & {abs(c) for c in row["permits"]}:
                box = (lot["x"] + 2, row["y"] + 4, LOT_W - 6, 16)
                targets.append(
                    target(f"estates-permits-{row['row']}", box,
                           f"Row {name}'s permits: the cancel cube may remove one")
                )  # fmt: skip
    return targets


def context(
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    actions: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    rows = _rows(view)
    display_top = rows[-1]["y"] + rows[-1]["height"] + 28
    display = _display(view, display_top)
    height = display_top + len(display) * (DISPLAY_CUBE + 6) + 6
    mayor_row = next((r for r in rows if r["mayor"]), None)
    return {
        "width": LABEL_W + 10 * LOT_W + 4,
        "height": height,
        "lot_w": LOT_W,
        "street_w": LABEL_W - 4,
        "rows": rows,
        "targets": _targets(rows, actions),
        "mayor_y": None if mayor_row is None else mayor_row["base"] - 10,
        "display_label_y": display_top - 8,
        "display": display,
        "display_cube": DISPLAY_CUBE,
        "players": _players(view, seat, names),
        "auction": _auction(view, names),
        "round": view["round"],
        "rounds": view["rounds"],
        "roofs_left": view["roofs_left"],
        "numbered_roofs_left": view["numbered_roofs_left"],
        "blanks": view["blank_roofs_discarded"],
        "specials": [
            {"name": n.replace("permit", "permit "), "where": where}
            for n, where in view["specials"].items()
        ],
        "colours": view["colours"],
        "placing": None
        if view["recipient"] is None
        else names.get(view["recipient"], f"Seat {view['recipient'] + 1}"),
    }


# -- the board as the control (boards.controls) ------------------------------

ENDS = {"left": "left end", "right": "right end"}


def controls(
    view: dict[str, Any], seat: int | None, names: dict[int, str], moves: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The Estates' clickable board for `seat`: the pieces to put up for
    auction where they lie (display ends, the supply), the auction with a
    number input for the bid, the lots a won piece may go on (a permit's
    too: the lot it makes the row's new end), the rows for the mayor, and
    the permits on the board that the cancel cube may remove."""
    if seat is None or not moves:
        return []
    areas: list[dict[str, Any]] = []
    auctions = of_type(moves, "auction")
    if auctions:
        by_piece: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for m in auctions:
            a = m["action"]
            by_piece.setdefault((a["piece"], a.get("at", "")), []).append(m)
        items = []
        for (piece, at), listed in by_piece.items():
            where = "the supply"
            if at:
                row, _, end = at.partition("-")
                where = f"display {row.replace('row', 'row ')}, {ENDS.get(end, end)}"
            items.append(
                {
                    "name": said(listed[0]),
                    "detail": f"({piece if not at else 'floor'}, from {where})",
                    "buttons": [
                        button(
                            m,
                            "Auction it, paid from my stash"
                            if m["action"].get("stash")
                            else "Auction it",
                        )
                        for m in listed
                    ],
                }
            )
        areas.append(cells("estates-auction", "Put a piece up for auction", items))
    bids = of_type(moves, "bid")
    bid = number("estates-bid", "Bid in the auction", bids, "Your bid") if bids else None
    if bid:
        bid["send"] = "Bid"
        areas.append(bid)
    answers = of_type(moves, "pass", "give", "keep", "discard")
    if bids and not bid:
        answers = [*bids, *answers]
    if answers:
        auction = _auction(view, names)
        detail = f"{auction['piece']}, highest bid {auction['high']}" if auction else ""
        items = [
            {
                "name": "The auction",
                "detail": detail,
                "buttons": [button(m, _answer(m)) for m in answers],
            }
        ]
        areas.append(cells("estates-answer", "The auction: your answer", items))
    places = of_type(moves, "place")
    mayors = of_type(moves, "mayor")
    cancels = of_type(moves, "cancel")
    if places or mayors or cancels:
        for row in view["board"]:
            here = [m for m in places if m["action"]["lot"].startswith(row["row"])]
            there = [m for m in mayors if m["action"]["row"] == row["row"]]
            # The cancel cube is used on the permit it removes, where it lies.
            held = {abs(change) for change in row["permits"]}
            removed = [m for m in cancels if m["action"]["permit"] in held]
            if not here and not there and not removed:
                continue
            items = []
            if removed:
                items.append(
                    {"name": "The permits", "anchor": f"estates-permits-{row['row']}",
                     "detail": "the row's length changed by "
                     + " ".join(_permit_text(p) for p in row["permits"]),
                     "buttons": [button(m, f"Cancel it: {said(m)}") for m in removed]}
                )  # fmt: skip
            if there:
                items.append(
                    {"name": "The street", "anchor": f"estates-mayor-{row['row']}",
                     "detail": "the mayor's place",
                     "buttons": [button(m, f"The mayor here: {said(m)}") for m in there]}
                )  # fmt: skip
            for lot in row["lots"]:
                placed = [
                    button(m, f"Place on {lot['lot']}: {said(m)}")
                    for m in here
                    if m["action"]["lot"] == lot["lot"]
                ]
                if not lot["in_play"] and not placed:
                    continue  # past the row's length: only a permit reaches it
                floors = len(lot["floors"])
                items.append(
                    {
                        "name": lot["lot"],
                        "anchor": f"estates-lot-{lot['lot']}",
                        "detail": (
                            f"{floors} floor{'s' if floors != 1 else ''}" if floors else "empty"
                        )
                        + (", roofed" if lot["roof"] is not None else "")
                        + (", one floor only" if lot["single"] else ""),
                        "buttons": placed,
                    }
                )
            permits = " ".join(_permit_text(p) for p in row["permits"])
            areas.append(
                cells(
                    f"estates-row-{row['row']}",
                    f"Row {row['row']}: {row['requirement']} lots needed"
                    + (f", permits {permits}" if permits else ""),
                    items,
                )
            )
    rest = [
        button(m)
        for m in moves
        if m["action"]["type"]
        not in ("auction", "bid", "pass", "give", "keep", "discard", "place", "mayor", "cancel")
    ]
    if rest:
        areas.append(
            cells("estates-more", "More moves", [{"name": "", "detail": "", "buttons": rest}])
        )
    return areas


def _answer(move: dict[str, Any]) -> str:
    """An answer in an auction: what it is, then the mail's gloss."""
    a = move["action"]
    what = f"Bid {a['amount']}" if a["type"] == "bid" else a["type"].capitalize()
    return f"{what}: {move['gloss']}" if move.get("gloss") else what
