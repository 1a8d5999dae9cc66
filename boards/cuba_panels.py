"""The 18Cuba page's panels and move controls, from the seat's view alone.

`boards.cuba` draws the map; this module reads the rest of the view into
what an 18xx player looks for (the market with its stacks, each charter,
the depot and the next phase, the commissioners and concessions, the
auction, what the acting company does now, the routes just run) and groups
the seat's legal moves into controls: a number input for a range of amounts
(a bid, a par price), the tiles of a hex drawn as they would lie, and a
button with the mail's gloss for every other move.  Static data (names,
prices, phases, abilities) comes from the engine's tables; nothing here
reads the state, so it cannot show more than the view does.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

from django.utils.html import format_html

from games.engines.cuba.data import phases, trains
from games.engines.cuba.data.companies import BY_SYM, in_game
from games.engines.cuba.data.hexes import HEXES
from games.engines.cuba.map.laying import COMMISSIONER_TILES, FC_FEE, SUGAR_FIELD_COST
from games.engines.cuba.map.tokens import TOKEN_COSTS, tokens_available
from games.engines.cuba.rules.privates import COMMISSIONER_BY_CARD, CONCESSION_BY_CARD
from games.engines.cuba.words.describe import DEPOT_ORDER

# One colour per train of a run, in the order the run lists them; readable
# on the hex colours and told apart without colour by their number.
ROUTE_COLOURS = ("#d81b60", "#1e88e5", "#7b1fa2", "#00897b", "#f4511e", "#3949ab")
# A range of amounts is a number input from this many choices on.
NUMBER_INPUT_FROM = 4
# The fields that hold an amount a player picks (a bid, a price).
AMOUNT_KEYS = ("amount", "price")
MAP_MOVES = ("lay", "station", "home")


def _place(coord: str) -> str:
    h = HEXES.get(coord)
    return f"{h.name} ({coord})" if h is not None and h.name else coord


# --- the panels ----------------------------------------------------------


def market(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every cell, lowest first as the track runs; markers top of the stack first."""
    return [
        {
            "price": cell["price"],
            "par": cell["par"],
            "provisional": cell["provisional"],
            "markers": [
                {"sym": sym, "colour": view["companies"].get(sym, {}).get("color", "")}
                for sym in cell["markers"]
            ],
        }
        for cell in view["market"]
    ]


def _percent(c: dict[str, Any], holder: str) -> int:
    return sum(c["certificates"].get(holder, []))


def charters(view: dict[str, Any], name: Callable[[str | None], str]) -> list[dict[str, Any]]:
    """Each company in the printed order, as its charter shows it."""
    out = []
    for sym in in_game(view["companies"]):
        c = view["companies"][sym]
        started = c["director"] is not None or c["par"] is not None or c["kind"] == "fc"
        treasury_shares = _percent(c, "treasury")
        if c["kind"] == "major":
            tokens_left: int | None = max(
                0, tokens_available(treasury_shares) - c["tokens_placed"]
            )
        elif c["kind"] == "minor":
            tokens_left = 0 if c["tokens_placed"] else 1
        else:
            tokens_left = None
        out.append(
            {
                "sym": sym,
                "name": c["name"],
                "kind": c["kind"],
                "started": started,
                "president": name(c["director"]) if c["director"] else None,
                "price": c["price"],
                "par": c["par"],
                "floated": c["floated"],
                "treasury": c["treasury"],
                "ipo": _percent(c, "ipo"),
                "pool": _percent(c, "pool"),
                "own": treasury_shares,
                "trains": c["trains"] if c["kind"] != "fc" else view["fc_trains"][-1:] or ["1"],
                "wagons": c["wagons"],
                "machines": c["machines"],
                "cubes": c["cubes"],
                "stations": c["tokens_placed"],
                "tokens_left": tokens_left,
                "home": _place(c["home"][0]) if c["home"] else None,
                "acting": sym == view["round"]["entity"],
            }
        )
    return out


def _stack_label(stack: str) -> tuple[str, str, int | None]:
    """(kind, label, price) of a depot stack."""
    if stack.startswith("machine-"):
        generation = int(stack.split("-")[1])
        m = trains.MACHINE_BY_GENERATION[generation]
        return "machine", f"machine gen {generation} (+${m.bonus})", m.prices[0]
    wagon = next((w for w in trains.WAGONS if w.name == stack), None)
    if wagon is not None:
        return "wagon", stack, wagon.price
    card = trains.BY_NAME.get(stack)
    return ("narrow" if stack.endswith("n") else "train"), stack, card.price if card else None


def depot(view: dict[str, Any]) -> dict[str, Any]:
    """What is for sale, the next phase and what it does to the trains."""
    stacks = []
    for stack in DEPOT_ORDER:
        left = view["depot"].get(stack, 0)
        if left is None or left:
            kind, label, price = _stack_label(stack)
            stacks.append(
                {"stack": stack, "kind": kind, "label": label, "price": price, "left": left}
            )
    current = view["phase"]
    nxt = phases.BY_NUMBER.get(current + 1)
    upcoming = None
    if nxt is not None:
        upcoming = {
            "number": nxt.number,
            "trigger": nxt.trigger,
            "tiles": list(nxt.tiles),
            "rusts": list(nxt.rusts),
            "obsolete": list(nxt.obsolete),
            "operating_rounds": nxt.operating_rounds,
            "train_limit": nxt.major_train_limit,
        }
    return {
        "stacks": stacks,
        "pool": view["pool_trains"],
        "phase": current,
        "next": upcoming,
        "tiles": list(phases.BY_NUMBER[current].tiles) if current in phases.BY_NUMBER else [],
    }


def _ability(card: str) -> str:
    if card in COMMISSIONER_BY_CARD:
        c = COMMISSIONER_BY_CARD[card]
        colour, kind = COMMISSIONER_TILES[c.number]
        return (
            f"{c.function}: one extra {colour} {kind} tile lay; "
            f"the bank pays its owner ${c.funding} for it"
        )
    if card in CONCESSION_BY_CARD:
        m = CONCESSION_BY_CARD[card]
        text = f"${m.cost}; becomes a minor's 60%"
        return f"{text}; {m.text}" if m.text else text
    return ""


def privates(view: dict[str, Any], name: Callable[[str | None], str]) -> list[dict[str, Any]]:
    """The commissioners and concessions with their abilities and owners."""
    out = []
    for card in sorted(
        view["privates"], key=lambda c: (c[0], int(c[1:]) if c[1:].isdigit() else 0)
    ):
        p = view["privates"][card]
        info = COMMISSIONER_BY_CARD.get(card) or CONCESSION_BY_CARD.get(card)
        status = []
        if p.get("minor"):
            status.append(f"became {p['minor']}")
        if p.get("company"):
            status.append(f"ability in {p['company']}")
        if p.get("out") and not p.get("minor"):
            status.append("used" if p.get("owner") else "out of the game")
        out.append(
            {
                "card": card,
                "kind": "commissioner" if card in COMMISSIONER_BY_CARD else "concession",
                "name": info.name if info else card,
                "ability": _ability(card),
                "owner": name(p["owner"]) if p.get("owner") else None,
                "status": ", ".join(status),
            }
        )
    return out


def auction(view: dict[str, Any], name: Callable[[str | None], str]) -> dict[str, Any] | None:
    """The commissioners' auction: every lot, the one up, its bid and who may still bid."""
    steps = view["round"]["steps"]
    if view["round"]["kind"] != "auction" or "auction" not in steps:
        return None
    a = steps["auction"]
    passed = set(a.get("passed") or [])
    lots = []
    for card in sorted(c for c in view["privates"] if c in COMMISSIONER_BY_CARD):
        p = view["privates"][card]
        lots.append(
            {
                "card": card,
                "name": COMMISSIONER_BY_CARD[card].name,
                "ability": _ability(card),
                "up": card == a["card"],
                "owner": name(p["owner"]) if p.get("owner") else None,
            }
        )
    return {
        "card": a["card"],
        "lots": lots,
        "bid": a.get("bid"),
        "leader": name(f"p{a['leader']}") if a.get("leader") is not None else None,
        "bidders": [name(f"p{s}") for s in view["order"] if s not in passed],
        "passed": [name(f"p{s}") for s in view["order"] if s in passed],
    }


def now(view: dict[str, Any], name: Callable[[str | None], str]) -> dict[str, Any]:
    """The round, the phase, OR x of y, who acts and what their company has done."""
    r = view["round"]
    turn = r["steps"].get("turn") or {}
    entity = r["entity"]
    company = BY_SYM.get(entity) if isinstance(entity, str) else None
    director = view["companies"].get(entity, {}).get("director") if company else None
    done = []
    if turn.get("issued"):
        done.append("issued or redeemed")
    if turn.get("laid"):
        done.append("laid track")
    if turn.get("station"):
        done.append("placed a station")
    if turn.get("run") is not None:
        done.append(f"ran for ${turn['run'].get('income', 0)}")
    if turn.get("paid"):
        done.append("paid out" if turn["paid"] == "payout" else "kept the income")
    return {
        "kind": r["kind"],
        "number": r["number"],
        "index": r["index"],
        "of": r["of"],
        "phase": view["phase"],
        "company": f"{entity} ({company.name})" if company else None,
        "director": name(director) if director else None,
        "player": name(entity) if isinstance(entity, str) and not company else None,
        "stage": (turn.get("stage") or "").replace("_", " "),
        "done": done,
        "emergency": bool(turn.get("emergency")),
        "offer": turn.get("offer"),
    }


# --- the map: where the seat's moves go, and the routes run ----------------


def map_targets(
    view: dict[str, Any], actions: Sequence[dict[str, Any]], by_coord: dict[str, Any]
) -> list[dict[str, Any]]:
    """Each hex where a legal lay, station or home goes, with the words of
    its link ("F21 Bayamo, 3 tiles may be laid")."""
    counts: dict[str, dict[str, set]] = {}
    for a in actions:
        if a.get("type") in MAP_MOVES and a.get("hex") in by_coord:
            seen = counts.setdefault(a["hex"], {"lay": set(), "station": set()})
            if a["type"] == "lay":
                seen["lay"].add((a["tile"], a.get("card")))
            else:
                seen["station"].add((a["type"], a.get("city", 0)))
    out = []
    for coord, seen in sorted(counts.items()):
        h = by_coord[coord]
        parts = []
        if seen["lay"]:
            n = len({t for t, _c in seen["lay"]})
            parts.append(f"{n} tile{'s' if n != 1 else ''} may be laid")
        if seen["station"]:
            parts.append("a station may be placed")
        label = f"{coord}{' ' + h['name'] if h['name'] else ''}, {' and '.join(parts)}"
        out.append({"hex": coord, "cx": h["cx"], "cy": h["cy"], "label": label})
    return out


def routes(
    view: dict[str, Any], point: Callable[[str, str], tuple[float, float] | None]
) -> dict[str, Any] | None:
    """The routes the operating company's trains run this turn, as the
    optimiser found them (the view's run), drawn per train and listed."""
    turn = view["round"]["steps"].get("turn") or {}
    run = turn.get("run")
    if not run:
        return None
    drawn = []
    for n, route in enumerate(run.get("routes", [])):
        d = []
        for piece in route.get("paths", []):
            coord, _sep, ends = piece.partition(":")
            a, _dash, b = ends.partition("-")
            p, q = point(coord, a), point(coord, b)
            if p is None or q is None:
                continue
            (ax, ay), (bx, by) = p, q
            d.append(f"M{ax:.1f} {ay:.1f}L{bx:.1f} {by:.1f}")
        stops = [_place(s.split(".")[0]) for s in route.get("stops", [])]
        drawn.append(
            {
                "number": n + 1,
                "train": route.get("train"),
                "colour": ROUTE_COLOURS[n % len(ROUTE_COLOURS)],
                "d": "".join(d),
                "stops": stops,
                "revenue": route.get("revenue", 0),
                "wagon": route.get("wagon"),
                "fc_passes": route.get("fc_passes") or [],
            }
        )
    return {
        "company": turn.get("company"),
        "trains": drawn,
        "revenue": run.get("revenue", 0),
        "sugar": run.get("sugar", 0),
        "fc_fees": run.get("fc_fees", 0),
        "income": run.get("income", 0),
        "exact": run.get("exact", True),
        "paid": turn.get("paid"),
    }


# --- the moves -------------------------------------------------------------


def _amount_key(action: dict[str, Any]) -> str | None:
    return next((k for k in AMOUNT_KEYS if isinstance(action.get(k), int)), None)


def _ranges(actions: list[dict[str, Any]]):
    """Split `actions` into ranges (the same move but for an evenly spaced
    amount, from NUMBER_INPUT_FROM choices on) and single moves."""
    by_rest: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        key = _amount_key(a)
        if key is None:
            continue
        rest = {k: v for k, v in a.items() if k != key}
        by_rest.setdefault(repr(sorted(rest.items())) + key, []).append(a)
    ranged: dict[int, dict[str, Any]] = {}
    for same in by_rest.values():
        key = _amount_key(same[0])
        values = sorted(a[key] for a in same)
        steps = {b - a for a, b in itertools.pairwise(values)}
        if len(values) >= NUMBER_INPUT_FROM and len(steps) == 1:
            ranged[id(same[0])] = {
                "key": key,
                "min": values[0],
                "max": values[-1],
                "step": steps.pop(),
                "members": {id(a) for a in same},
                "first": min(same, key=lambda a: a[key]),
            }
    return ranged


def _cost_of(view: dict[str, Any], action: dict[str, Any], kinds: dict[str, Any]) -> int:
    """What a lay or station costs the operating company (terrain, station
    price, $20 per FC station passed), from the view and the move."""
    sym = (view["round"]["steps"].get("turn") or {}).get("company")
    c = view["companies"].get(sym, {})
    fees = FC_FEE * len(action.get("fc_passes") or [])
    if action["type"] == "lay":
        terrain = (
            SUGAR_FIELD_COST
            if c.get("kind") == "major" and kinds.get(action["hex"]) == ("sugar", None)
            else 0
        )
        return terrain + fees
    if action["type"] == "station" and c.get("kind") == "major":
        placed = c.get("tokens_placed", 1)
        return (TOKEN_COSTS[placed - 1] if 0 < placed <= len(TOKEN_COSTS) else 0) + fees
    return fees


def move_controls(
    view: dict[str, Any],
    actions: list[dict[str, Any]],
    *,
    text: Callable[[dict[str, Any]], str],
    gloss: Callable[[dict[str, Any]], str | None],
    group: Callable[[dict[str, Any]], str | None],
    prospect: Callable[[dict[str, Any]], str | None],
    preview: Callable[[str, int, str], tuple[Any, str]],
    outline: str,
) -> dict[str, Any]:
    """The seat's legal moves as the page's controls: the map's hexes (each
    with its tiles drawn per rotation, its cost and what it opens, and its
    stations), ranges as number inputs, every other move a button with its
    gloss, under the mail's headings."""
    ranges = _ranges(actions)
    kinds = {h["hex"]: (h["kind"], h["tile"]) for h in view["map"]["hexes"]}
    in_range: set[int] = set()
    for r in ranges.values():
        in_range |= r["members"]
    hexes: dict[str, dict[str, Any]] = {}
    groups: dict[str, dict[str, Any]] = {}
    for a in actions:
        if a.get("type") in MAP_MOVES and isinstance(a.get("hex"), str):
            panel = hexes.setdefault(
                a["hex"], {"hex": a["hex"], "place": _place(a["hex"]), "lays": [], "stations": []}
            )
            cost = _cost_of(view, a, kinds)
            words = gloss(a)
            if a["type"] == "lay":
                card = a.get("card")
                by = f" with {card}" if card else ""
                passes = ", ".join(a.get("fc_passes") or [])
                passing = f", passing the FC at {passes}" if passes else ""
                sets = panel.setdefault("lay_sets", {})
                if card not in sets:
                    name = COMMISSIONER_BY_CARD[card].name if card in COMMISSIONER_BY_CARD else ""
                    sets[card] = {
                        "card": card,
                        "heading": f"With {card} {name} (an extra lay)" if card else "Own lay",
                        "lays": [],
                    }
                picture, stations = preview(a["tile"], a["rotation"], a["hex"])
                keeps = f", keeping the stations {stations}" if stations else ""
                opens = prospect(a)
                label = (
                    f"Lay tile {a['tile']} on {_place(a['hex'])}, rotation "
                    f"{a['rotation']}{by}, cost ${cost}{passing}{keeps}"
                    + (f": {opens}" if opens else "")
                )
                line = text(a)
                # Drawn here rather than in the template: a hex may offer a
                # hundred lays, and a template node per field of each costs
                # more than the rest of the page.
                lay = {
                    "label": label,
                    "inner": format_html(
                        '<input type="hidden" name="action" value="{}">'
                        '<button type="submit" class="tile-button" aria-label="{}" title="{}">'
                        '{}<span class="tile-caption">{} rot {}<br>${}{}</span>{}</button>',
                        encode(a),
                        label,
                        f"{line}: {words}" if words else line,
                        picture,
                        a["tile"],
                        a["rotation"],
                        cost,
                        f" {card}" if card else "",
                        format_html('<span class="tile-opens">{}</span>', opens) if opens else "",
                    ),
                }
                sets[card]["lays"].append(lay)
                panel["lays"].append(lay)
            else:
                what = "home station" if a["type"] == "home" else "station"
                panel["stations"].append(
                    {
                        "value": encode(a),
                        "type": a["type"],
                        "label": f"Place the {what} in {_place(a['hex'])}"
                        + (f", city {a['city'] + 1}" if a.get("city") else "")
                        + (f", cost ${cost}" if a["type"] == "station" else ""),
                        "line": text(a),
                        "gloss": words,
                    }
                )
            continue
        if id(a) in in_range and id(a) not in ranges:
            continue  # shown as its range's number input
        heading = group(a) or a.get("type", "move").replace("_", " ").capitalize()
        g = groups.setdefault(heading, {"heading": heading, "type": a.get("type"), "moves": []})
        if id(a) in ranges:
            r = ranges[id(a)]
            first = r["first"]
            template = {k: v for k, v in first.items() if k != r["key"]}
            g["moves"].append(
                {
                    "range": True,
                    "type": a["type"],
                    "value": encode(template),
                    "key": r["key"],
                    "min": r["min"],
                    "max": r["max"],
                    "step": r["step"],
                    "label": _range_label(first, r),
                    "gloss": gloss(first),
                    "line": text(first).rsplit(" ", 1)[0],
                }
            )
        else:
            g["moves"].append(
                {"type": a["type"], "value": encode(a), "line": text(a), "gloss": gloss(a)}
            )
    for panel in hexes.values():
        sets = panel.pop("lay_sets", {}).values()
        panel["lay_sets"] = sorted(sets, key=lambda g: (g["card"] is not None, g["card"] or ""))
    return {
        "hexes": [hexes[k] for k in sorted(hexes)],
        "groups": list(groups.values()),
        "outline": outline,
    }


def encode(action: dict[str, Any]) -> str:
    """The engine's action as the page posts it, unchanged (JSON)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _range_label(action: dict[str, Any], r: dict[str, Any]) -> str:
    what = {
        "bid": "Bid on {card}",
        "par": "Par {company} at",
        "convert": "Convert {card} into {company} at",
        "offer": "Offer to buy {from}'s {card} for",
        "buy_train": "Pay for {card}",
    }.get(action["type"], action["type"].replace("_", " ").capitalize())
    try:
        head = what.format(**action)
    except (KeyError, IndexError):
        head = what
    return f"{head} (${r['min']} to ${r['max']}, in steps of ${r['step']})"
