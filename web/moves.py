"""The legal moves as a page offers them: buttons, a short list, or a number.

Each move is said as the turn mail says it (`narration.move_words`): its
gloss first where the title has one ("Siesta + Refreshment: number 01"),
then the line a mail reply would carry (`choose 0 1`), so the page and the
mail say the same thing.  A move kind with few choices is a row of buttons
(one click each); one with many is one small form with a list of its
choices; one whose choices differ only in a whole number that runs without
gaps (a bid from 1 to 12) is a number input bounded by that range.  Every
choice posts the engine's action unchanged (a number is put into the
action's field before it goes to the service, which judges it as any move).
"""

from __future__ import annotations

import json
from typing import Any

from boards.controls import number_range

BUTTONS_AT_MOST = 6


def words(move: dict[str, Any]) -> str:
    """A move as the page lists it: the gloss, then the mail's line."""
    return f"{move['gloss']} ({move['line']})" if move.get("gloss") else move["line"]


def groups(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves (`shown.legal_moves_in_words`) grouped by type, in the order
    the engine lists them."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for move in moves:
        by_type.setdefault(str(move["action"].get("type", "move")), []).append(move)
    out = []
    for kind, listed in by_type.items():
        number = number_range([m["action"] for m in listed])
        out.append(
            {
                "type": kind,
                "label": kind.replace("_", " "),
                "choices": [
                    {"value": encode(m["action"]), "text": words(m), "gloss": m.get("gloss")}
                    for m in listed
                ],
                "as_form": len(listed) > BUTTONS_AT_MOST,
                "number": number,
            }
        )
    return out


def encode(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class BadNumber(ValueError):
    """A number field that holds no whole number."""


def decode(
    value: str | None,
    field: str | None = None,
    number: str | None = None,
    posted: Any = None,
) -> dict[str, Any] | None:
    """A posted action, or None when it is not a JSON object (the service
    then refuses it with a clear message, as the API does).  With `field`,
    the posted `number` goes into that field (the move list's number input);
    a number that is not a whole number raises BadNumber.  A posted field
    `num.<key>` (18Cuba's board: a bid, a price) sets the action's <key>, as
    an int when it reads as one.  The engine checks the result like any move."""
    if not value:
        return None
    try:
        action = json.loads(value)
    except ValueError:
        return None
    if not isinstance(action, dict):
        return None
    for name in getattr(posted, "keys", lambda: ())():
        if name.startswith("num.") and len(name) > 4:
            said = str(posted.get(name, "")).strip()
            action[name[4:]] = int(said) if said.lstrip("-").isdigit() and len(said) < 12 else said
    if field:
        try:
            action[field] = int(str(number).strip())
        except ValueError:
            raise BadNumber(field) from None
    return action
