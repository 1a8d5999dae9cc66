"""The legal moves as a page offers them: buttons, or a short form.

A move kind with few choices is a row of buttons (one click each); one with
many (a bid, a payment, a track lay) is one small form with a list of its
choices, each labelled with its mail command, so its cost shows before it is
sent.  Every choice posts the engine's action unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from games.engines import base

BUTTONS_AT_MOST = 6


def groups(engine: base.Engine, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions grouped by type, in the order the engine lists them."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in actions:
        by_type.setdefault(str(action.get("type", "move")), []).append(
            {"value": encode(action), "text": engine.text(action)}
        )
    return [
        {
            "type": kind,
            "label": kind.replace("_", " "),
            "choices": choices,
            "as_form": len(choices) > BUTTONS_AT_MOST,
        }
        for kind, choices in by_type.items()
    ]


def encode(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def decode(value: str | None, posted: Any = None) -> dict[str, Any] | None:
    """A posted action, or None when it is not a JSON object (the service
    then refuses it with a clear message, as the API does).  A field
    `num.<key>` (a number input: a bid, a price) sets the action's <key>,
    as an int when it reads as one; the engine checks it like any other."""
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
    return action
