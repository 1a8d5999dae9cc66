"""The board as the control: what a title's board offers to click, built
from the viewing seat's view and that seat's legal moves in words.

A title's module (`boards.havana`, ...) may expose
`controls(view, seat, names, moves) -> list[area]`; the game page draws the
areas with `boards/_controls.html`, below the board and above the move
list, which stays as it was (every legal move is also a form there).  Each
area is one part of the board, in the board's own order:

- "cells": things on the board (a building, a market space, a lot), each
  with its name and what it shows, and a button for each legal move that
  names it, inside its own `<form data-action>`;
- "picker": a move made of several picks (Havana's two cards, Point City's
  two spaces): toggle buttons that fill the form, and for each complete
  pick a send button saying the move in the mail's words; a small script
  (`web/static/web/correo.js`) shows the send buttons that match;
- "number": a number input bounded by the legal range (a bid).

Every area draws only from the view and the moves, which the seat may see
whole: it can show nothing the board and the move list do not.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any


def encode(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def said(move: dict[str, Any]) -> str:
    """A move in the mail's words: its gloss, else its line."""
    return move.get("gloss") or move["line"]


def button(move: dict[str, Any], text: str | None = None) -> dict[str, Any]:
    """One legal move as a button in its own form."""
    return {
        "type": move["action"]["type"],
        "value": encode(move["action"]),
        "text": text or said(move),
        "line": move["line"],
    }


def of_type(moves: Iterable[dict[str, Any]], *types: str) -> list[dict[str, Any]]:
    return [m for m in moves if m["action"].get("type") in types]


def cells(
    area_id: str, heading: str, items: list[dict[str, Any]], *, note: str = "", grid: int = 0
) -> dict[str, Any]:
    """Things on the board, each {"name", "detail", "buttons"}; `grid`
    columns keep a board's layout (Point City's 4x4 market), else they wrap."""
    return {
        "kind": "cells",
        "id": area_id,
        "heading": heading,
        "note": note,
        "items": items,
        "grid": grid,
    }


def picker(
    area_id: str,
    heading: str,
    action_type: str,
    groups: list[dict[str, Any]],
    moves: list[dict[str, Any]],
    key: Callable[[dict[str, Any]], list[str]],
    *,
    prompt: str,
    grid: int = 0,
) -> dict[str, Any]:
    """A move made of picks.  `groups` are [{"heading", "slot", "picks":
    [{"pick", "name", "detail"}]}]: with a slot, one pick of that group (a
    card, then the card it covers); without, as many as the move takes from
    the one group.  `key(action)` names the picks a move is made of; the
    send buttons are keyed by those picks in the order they are drawn, as
    the script reads the pressed ones."""
    order = {
        (g.get("slot") or "", p["pick"]): i
        for i, (g, p) in enumerate((g, p) for g in groups for p in g["picks"])
    }
    slots = [g.get("slot") or "" for g in groups]
    sends = []
    for move in moves:
        picks = key(move["action"])
        if len(set(slots)) > 1:
            placed = list(zip(slots, picks, strict=False))
        else:
            placed = [(slots[0], p) for p in picks]
        if any(p not in order for p in placed):
            continue  # a pick the board does not draw: the move list has it
        ordered = sorted(placed, key=order.__getitem__)
        sends.append({**button(move), "key": " ".join(p for _, p in ordered)})
    need = (
        len(groups)
        if len(set(slots)) > 1
        else max((len(key(m["action"])) for m in moves), default=1)
    )
    return {
        "kind": "picker",
        "id": area_id,
        "heading": heading,
        "type": action_type,
        "groups": groups,
        "sends": sends,
        "need": need,
        "prompt": prompt,
        "grid": grid,
    }


def number(
    area_id: str, heading: str, moves: list[dict[str, Any]], label: str
) -> dict[str, Any] | None:
    """A number input for `moves` when they are a run of whole numbers
    (`number_range`), else None."""
    found = number_range([m["action"] for m in moves])
    if found is None:
        return None
    says = moves[0].get("gloss") or ""
    return {
        "kind": "number", "id": area_id, "heading": heading, "label": label,
        "type": moves[0]["action"]["type"], "says": says, **found,
    }  # fmt: skip


# A number input for a run this long or longer; a shorter one stays buttons.
RANGE_AT_LEAST = 3


def number_range(actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """When `actions` differ only in one whole-number field whose values run
    without gaps: that field, its bounds, and the action without it (the
    form's template), else None."""
    if len(actions) < RANGE_AT_LEAST:
        return None
    fields = set(actions[0])
    if any(set(a) != fields for a in actions):
        return None
    varying = [f for f in sorted(fields) if len({json.dumps(a[f]) for a in actions}) > 1]
    if len(varying) != 1:
        return None
    field = varying[0]
    values = [a[field] for a in actions]
    if not all(type(v) is int for v in values):
        return None
    low, high = min(values), max(values)
    if sorted(values) != list(range(low, high + 1)):
        return None
    template = {k: v for k, v in actions[0].items() if k != field}
    return {"field": field, "min": low, "max": high, "template": encode(template)}


def target(href: str, box: tuple[float, float, float, float], label: str) -> dict[str, Any]:
    """A part of a board's picture that a legal move names, drawn as a link
    to the cell of the controls that makes the move (`boards/_targets.html`
    draws it; the cell carries the same `anchor`)."""
    x, y, w, h = box
    return {"href": f"#{href}", "x": x, "y": y, "w": w, "h": h, "label": label}
