"""The 18Cuba map as SVG shapes, and a short summary of the rest of the view.

The map view gives each hex in doubled coordinates of a pointy-topped grid
(hex (x, y) sits at x * w/2, y * 3/4 h) and its track as ends "e<edge>" or
"s<stop>", edges numbered clockwise from the lower left (0 SW, 1 W, 2 NW,
3 NE, 4 E, 5 SE).  Each hex is drawn in its own coordinates and moved into
place with a transform, so the shapes (outline, track between two ends) are
the same strings for every hex and are computed once (functools.cache).
18Cuba hides nothing, so every seat gets the same board.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

TEMPLATE = "cuba"

R = 30.0  # circumradius of a hex, in viewBox units
W = math.sqrt(3) * R  # width of a pointy-topped hex
MARGIN = 4.0
# (dx, dy) in doubled coordinates to the neighbour across each edge.
EDGE_OFFSETS = ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1))
CITY_R = 7.5

# Physical colours of the companies' tokens (fill, ink): the same in dark mode,
# like the wooden pieces; the outline is currentColor.
TOKEN_COLOURS = {
    "brown": ("#7a4a1e", "#ffffff"),
    "yellow": ("#f2d023", "#111111"),
    "dark green": ("#1e5b2c", "#ffffff"),
    "orange": ("#f08a24", "#111111"),
    "light blue": ("#8cc8ee", "#111111"),
    "red": ("#c62828", "#ffffff"),
    "black": ("#161616", "#ffffff"),
    "purple": ("#6a3d9a", "#ffffff"),
    "pink": ("#f4a6c8", "#111111"),
    "dark blue": ("#1a3a7a", "#ffffff"),
    "dark yellow": ("#b8930c", "#111111"),
    "light green": ("#9bd88a", "#111111"),
    "white": ("#ffffff", "#111111"),
}
UNKNOWN_COLOUR = ("#888888", "#111111")


def _f(v: float) -> str:
    return f"{v:.1f}".removesuffix(".0")


@cache
def outline() -> str:
    """The corners of a hex around (0, 0), as an SVG points list."""
    corners = ((0, -R), (W / 2, -R / 2), (W / 2, R / 2), (0, R), (-W / 2, R / 2), (-W / 2, -R / 2))
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in corners)


@cache
def edge_mid(edge: int) -> tuple[float, float]:
    """The middle of an edge: half-way to the neighbour's centre."""
    dx, dy = EDGE_OFFSETS[edge]
    return dx * W / 4, dy * 0.75 * R


@cache
def centre(x: int, y: int) -> tuple[str, str]:
    return _f(MARGIN + W / 2 + x * W / 2), _f(MARGIN + R + y * 1.5 * R)


@cache
def edge_line(edge: int) -> str:
    """The side of the hex on `edge`, as a path (for barriers)."""
    mx, my = edge_mid(edge)
    norm = math.hypot(mx, my)
    px, py = -my / norm * R / 2, mx / norm * R / 2
    return f"M{_f(mx + px)} {_f(my + py)}L{_f(mx - px)} {_f(my - py)}"


@cache
def edge_to_edge(a: int, b: int) -> str:
    """Track between two edges: a curve bent through the centre (straight when opposite)."""
    ax, ay = edge_mid(a)
    bx, by = edge_mid(b)
    return f"M{_f(ax)} {_f(ay)}Q0 0 {_f(bx)} {_f(by)}"


def _stop_positions(hexdata: dict[str, Any]) -> list[tuple[float, float]]:
    """Where each stop sits: the centre for one; else towards its own track."""
    n = len(hexdata["stops"])
    if n <= 1:
        return [(0.0, 0.0)] * n
    positions = []
    for i in range(n):
        ends = [
            edge_mid(int(end[1:]))
            for t in hexdata["track"]
            for end, other in ((t["from"], t["to"]), (t["to"], t["from"]))
            if other == f"s{i}" and end.startswith("e")
        ]
        if ends:
            sx = sum(e[0] for e in ends) / len(ends)
            sy = sum(e[1] for e in ends) / len(ends)
            norm = math.hypot(sx, sy) or 1.0
            positions.append((sx / norm * R * 0.45, sy / norm * R * 0.45))
        else:
            angle = 2 * math.pi * i / n - math.pi / 2
            positions.append((math.cos(angle) * R * 0.45, math.sin(angle) * R * 0.45))
    return positions


def _end(end: str, stops: list[tuple[float, float]]) -> tuple[float, float]:
    if end.startswith("e"):
        return edge_mid(int(end[1:]))
    return stops[int(end[1:])]


def _track(hexdata: dict[str, Any], stops: list[tuple[float, float]]) -> list[dict[str, str]]:
    out = []
    for t in hexdata["track"]:
        a, b = t["from"], t["to"]
        if a.startswith("e") and b.startswith("e"):
            d = edge_to_edge(int(a[1:]), int(b[1:]))
        else:
            (ax, ay), (bx, by) = _end(a, stops), _end(b, stops)
            d = f"M{_f(ax)} {_f(ay)}L{_f(bx)} {_f(by)}"
        out.append({"d": d, "gauge": t["gauge"]})
    return out


def _tokens_of(stop: dict[str, Any], sx: float, sy: float, colours: dict[str, str]):
    slots = max(stop.get("slots", 1), len(stop.get("tokens", [])))
    tokens = stop.get("tokens", [])
    first = sx - (slots - 1) * CITY_R
    out = []
    for k in range(slots):
        sym = tokens[k] if k < len(tokens) else None
        fill, ink = TOKEN_COLOURS.get(colours.get(sym or "", ""), UNKNOWN_COLOUR)
        out.append(
            {
                "cx": _f(first + 2 * k * CITY_R),
                "cy": _f(sy),
                "sym": sym,
                "fill": fill,
                "ink": ink,
                "size": "5" if sym and len(sym) > 2 else "6.5",
            }
        )
    return out


def _hex(hexdata: dict[str, Any], colours: dict[str, str]) -> dict[str, Any]:
    positions = _stop_positions(hexdata)
    stops = []
    for stop, (sx, sy) in zip(hexdata["stops"], positions, strict=True):
        item: dict[str, Any] = {
            "type": stop["type"],
            "revenue": stop["revenue"],
            "x": _f(sx),
            "y": _f(sy),
            # the revenue sits above a lone stop, beside one of several
            "rx": _f(sx if len(positions) == 1 else sx * 1.9),
            "ry": _f(sy - 12 if len(positions) == 1 else sy * 1.9 + 3),
        }
        if stop["type"] == "city":
            item["slots"] = _tokens_of(stop, sx, sy, colours)
            item["tokens"] = stop["tokens"]
        stops.append(item)
    cx, cy = centre(hexdata["x"], hexdata["y"])
    return {
        "hex": hexdata["hex"],
        "cx": cx,
        "cy": cy,
        "name": hexdata["name"],
        "kind": hexdata["kind"],
        "color": (hexdata["color"] or "white").replace(" ", ""),
        "label": hexdata["label"],
        "tile": hexdata["tile"],
        "track": _track(hexdata, positions),
        "stops": stops,
        "fc_marker": hexdata["fc_marker"],
        "reserved": hexdata["reserved"],
        "in_play": hexdata["in_play"],
    }


def _names(names: dict[int, str]):
    def name(holder: str | None) -> str:
        if holder and holder.startswith("p") and holder[1:].isdigit():
            seat = int(holder[1:])
            return names.get(seat, f"Seat {seat + 1}")
        return holder or "\u2013"

    return name


def context(view: dict[str, Any], seat: int | None, names: dict[int, str]) -> dict[str, Any]:
    companies = view["companies"]
    colours = {sym: c["color"] for sym, c in companies.items()}
    hexes = [_hex(h, colours) for h in view["map"]["hexes"]]
    by_coord = {h["hex"]: h for h in hexes}
    barriers = [
        {"cx": by_coord[c]["cx"], "cy": by_coord[c]["cy"], "d": edge_line(e)}
        for c, e in view["map"]["barriers"]
        if c in by_coord
    ]
    max_x = max((h["x"] for h in view["map"]["hexes"]), default=0)
    max_y = max((h["y"] for h in view["map"]["hexes"]), default=0)
    name = _names(names)
    stations = [
        {"where": h["name"] or h["hex"], "hex": h["hex"], "tokens": t}
        for h in hexes
        for t in [[tok for s in h["stops"] for tok in s.get("tokens", [])]]
        if t
    ]
    order = {s: i for i, s in enumerate(view["order"])}
    players = [
        {
            "seat": p["seat"],
            "name": name(f"p{p['seat']}"),
            "you": p["seat"] == seat,
            "cash": p["cash"],
            "certificates": p["certificates"],
            "shares": [
                {"sym": sym, "percent": sum(held)} for sym, held in sorted(p["shares"].items())
            ],
            "privates": p["privates"],
            "priority": p["seat"] == view["priority"],
            "position": order.get(p["seat"], 0) + 1,
        }
        for p in view["players"]
    ]
    rnd = view["round"]
    return {
        "width": _f(2 * MARGIN + W / 2 * (max_x + 2)),
        "height": _f(2 * MARGIN + 1.5 * R * max_y + 2 * R),
        "outline": outline(),
        "hexes": hexes,
        "named": [h for h in hexes if h["name"]],
        "barriers": barriers,
        "stations": stations,
        "players": sorted(players, key=lambda p: p["position"]),
        "companies": [
            {
                "sym": sym,
                "name": c["name"],
                "kind": c["kind"],
                "director": name(c["director"]) if c["director"] else "\u2013",
                "price": c["price"],
                "par": c["par"],
                "treasury": c["treasury"],
                "trains": c["trains"],
                "floated": c["floated"],
                "swatch": TOKEN_COLOURS.get(c["color"], UNKNOWN_COLOUR)[0],
                "acting": sym == rnd["entity"],
            }
            for sym, c in companies.items()
        ],
        "round": {
            "kind": rnd["kind"],
            "number": rnd["number"],
            "of": rnd["of"],
            "entity": name(rnd["entity"]) if rnd["entity"] else None,
        },
        "phase": view["phase"],
        "bank": view["bank"],
        "variant": view["variant"],
        "part": view["map"]["part"],
        "ending": view["ending"],
    }
