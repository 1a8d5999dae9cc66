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
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from boards import cuba_panels as panels
from games.engines.cuba.data import tiles
from games.engines.cuba.map.upgrades import old_tile_name, stop_mapping

TEMPLATE = "cuba"
# The board is given the viewer's legal moves: the hexes one may lay on or
# place a station in are links to their choices (`controls`).
TAKES_ACTIONS = True

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


def _pointer(view: dict[str, Any], by_coord: dict[str, Any]):
    """Where a route's end ("e3", "s0") in a hex lies on the whole map."""
    raw = {h["hex"]: h for h in view["map"]["hexes"]}

    def point(coord: str, end: str) -> tuple[float, float] | None:
        if coord not in raw or len(end) < 2 or not end[1:].isdigit():
            return None
        cx, cy = float(by_coord[coord]["cx"]), float(by_coord[coord]["cy"])
        if end[0] == "e":
            dx, dy = edge_mid(int(end[1]) % 6)
        else:
            stops = _stop_positions(raw[coord])
            i = int(end[1:])
            dx, dy = stops[i] if i < len(stops) else (0.0, 0.0)
        return cx + dx, cy + dy

    return point


def _in_play_box(view: dict[str, Any], width: float, height: float) -> str:
    """The viewBox: the part of the map in play (a 2-player easy game plays
    half of it), else the whole map; a hex's neighbours beyond stay out."""
    shown = [h for h in view["map"]["hexes"] if h["in_play"]]
    if not view["map"].get("part") or not shown:
        return f"0 0 {_f(width)} {_f(height)}"
    xs = [h["x"] for h in shown]
    ys = [h["y"] for h in shown]
    left = MARGIN + min(xs) * W / 2 - MARGIN
    top = MARGIN + min(ys) * 1.5 * R - MARGIN
    right = MARGIN + W + max(xs) * W / 2 + MARGIN
    bottom = MARGIN + 2 * R + max(ys) * 1.5 * R + MARGIN
    return f"{_f(left)} {_f(top)} {_f(right - left)} {_f(bottom - top)}"


Carried = tuple[tuple[str, ...], ...]  # per stop of the new tile, the stations it keeps
Colours = tuple[tuple[str, str], ...]  # (company, colour)


@cache
def tile_preview(
    tile: str, rotation: int, carried: Carried = (), colours: Colours = ()
) -> SafeString:
    """A tile as it would lie at `rotation`, as a small SVG drawn like a hex
    of the map, with the stations already on the hex in the cities the
    upgrade moves them to: the choices of a lay show it.  Drawn once per
    face, rotation and stations (a lay's choices are many and the same
    every turn)."""
    h = _tile_preview(tile, rotation, carried, colours)
    parts = [format_html('<polygon class="hex-shape" points="{}"/>', outline())]
    parts += [
        format_html('<path class="track {}" d="{}"/>', t["gauge"], t["d"]) for t in h["track"]
    ]
    for st in h["stops"]:
        if st["type"] == "city":
            parts += [_slot_svg(slot) for slot in st["slots"]]
        elif st["type"] == "town":
            parts.append(
                format_html('<circle class="town" cx="{}" cy="{}" r="3.5"/>', st["x"], st["y"])
            )
        if st["revenue"]:
            parts.append(
                format_html(
                    '<text class="revenue" x="{}" y="{}" text-anchor="middle">{}</text>',
                    st["rx"],
                    st["ry"],
                    st["revenue"],
                )
            )
    if h["label"]:
        parts.append(format_html('<text class="hex-label" x="-17" y="6">{}</text>', h["label"]))
    return format_html(
        '<svg viewBox="-28 -32 56 64" width="56" height="64" aria-hidden="true" '
        'class="tile-preview hex-{}">{}</svg>',
        h["color"], mark_safe("".join(parts)),
    )  # fmt: skip


def _slot_svg(slot: dict[str, Any]) -> SafeString:
    """A city slot of a preview: empty, or a station in its company's colours."""
    if slot["sym"] is None:
        empty = '<circle class="slot" cx="{}" cy="{}" r="7.5"/>'
        return format_html(empty, slot["cx"], slot["cy"])
    circle = format_html(
        '<circle class="slot" cx="{}" cy="{}" r="7.5" style="fill:{}"/>',
        slot["cx"], slot["cy"], slot["fill"],
    )  # fmt: skip
    text = format_html(
        '<text class="token" x="{}" y="{}" dy="2" font-size="{}" text-anchor="middle" '
        'style="fill:{}">{}</text>',
        slot["cx"], slot["cy"], slot["size"], slot["ink"], slot["sym"],
    )  # fmt: skip
    return circle + text


@cache
def _tile_preview(tile: str, rotation: int, carried: Carried, colours: Colours) -> dict[str, Any]:
    face = tiles.face(tile)
    hexdata = {
        "x": 0,
        "y": 0,
        "hex": tile,
        "name": None,
        "kind": "tile",
        "color": face.color,
        "label": face.label,
        "tile": tile,
        "fc_marker": False,
        "reserved": [],
        "in_play": True,
        "stops": [
            {
                "type": st.type,
                "revenue": st.revenue,
                "slots": st.slots,
                "tokens": list(carried[i]) if i < len(carried) else [],
            }
            for i, st in enumerate(face.stops)
        ],
        "track": [
            {
                "from": f"{p.a[0]}{p.a[1]}",
                "to": f"{p.b[0]}{p.b[1]}",
                "gauge": "standard" if p.gauge == "s" else "narrow",
            }
            for p in tiles.rotated_paths(tile, rotation)
        ],
    }
    return _hex(hexdata, dict(colours))


def carried(hexview: dict[str, Any], tile: str, rotation: int) -> Carried:
    """The stations on a hex as the lay of `tile` at `rotation` would carry
    them: each old stop's into the new stop the upgrade maps it to (as the
    engine moves them), all into the first on a hex never laid."""
    old_tokens = [list(stop.get("tokens") or []) for stop in hexview["stops"]]
    if not any(old_tokens):
        return ()
    old = old_tile_name(hexview["hex"], hexview.get("tile"))
    stops = len(tiles.face(tile).stops)
    mapping: tuple[int, ...] | None = (0,) * len(old_tokens)
    if old is not None:
        mapping = stop_mapping(old, hexview.get("rotation") or 0, tile, rotation)
    if mapping is None:  # not a legal upgrade: nothing to carry
        return ()
    moved: list[list[str]] = [[] for _ in range(stops)]
    for i, owners in enumerate(old_tokens):
        moved[mapping[i]].extend(owners)
    return tuple(tuple(owners) for owners in moved)


def own_moves(
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    actions: list[dict[str, Any]],
    *,
    text: Callable[[dict[str, Any]], str],
    gloss: Callable[[dict[str, Any]], str | None],
    group: Callable[[dict[str, Any]], str | None],
    prospect: Callable[[dict[str, Any]], str | None],
) -> dict[str, Any]:
    """The viewer's legal moves as the 18Cuba page offers them (`cuba_moves.html`)."""
    return {
        "template": "boards/cuba_moves.html",
        **panels.move_controls(
            view,
            actions,
            text=text,
            gloss=gloss,
            group=group,
            prospect=prospect,
            preview=_previewer(view),
            outline=outline(),
        ),
    }


def _previewer(view: dict[str, Any]) -> Callable[[str, int, str], tuple[SafeString, str]]:
    """The lay buttons' picture of a tile on a hex, and the stations it
    shows there, in words ("" if none)."""
    hexes = {h["hex"]: h for h in view["map"]["hexes"]}
    colours = tuple(sorted((sym, c["color"]) for sym, c in view["companies"].items()))

    def preview(tile: str, rotation: int, coord: str) -> tuple[SafeString, str]:
        kept = carried(hexes[coord], tile, rotation) if coord in hexes else ()
        words = ", ".join(sym for owners in kept for sym in owners)
        return tile_preview(tile, rotation, kept, colours), words

    return preview


def _names(names: dict[int, str]):
    def name(holder: str | None) -> str:
        if holder and holder.startswith("p") and holder[1:].isdigit():
            seat = int(holder[1:])
            return names.get(seat, f"Seat {seat + 1}")
        return holder or "\u2013"

    return name


def context(
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    actions: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
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
    width = 2 * MARGIN + W / 2 * (max_x + 2)
    height = 2 * MARGIN + 1.5 * R * max_y + 2 * R
    return {
        "width": _f(width),
        "height": _f(height),
        "viewbox": _in_play_box(view, width, height),
        "targets": panels.map_targets(view, actions, by_coord),
        "routes": panels.routes(view, _pointer(view, by_coord)),
        "market": panels.market(view),
        "charters": [
            {**c, "colour": TOKEN_COLOURS.get(companies[c["sym"]]["color"], UNKNOWN_COLOUR)[0]}
            for c in panels.charters(view, name)
        ],
        "depot": panels.depot(view),
        "privates": panels.privates(view, name),
        "auction": panels.auction(view, name),
        "now": panels.now(view, name),
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
