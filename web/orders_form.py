"""A standing order as the orders page's form sends it, read into the JSON
the service takes (`games.services.orders.check_write_order`).

Each programme names its fields and their kinds (`games.engines.orders`):
`int`, `str`, `bool`, `choice:a|b`, `cards` (two cards) and `action`
(a move).  On the page a move is a line as a mail reply gives it, read by
the service as the game stands; the `after` condition of a `play` order
(a move as JSON) is the API's alone.  The inputs are named `f.<field>`.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from games.engines.orders import Unreadable, read_value

# Fields the page does not offer: a move as JSON is no input for a person.
API_ONLY = frozenset({"after"})


def fields_for(programme: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs of one programme's form, in the programme's order."""
    required = set(programme["required"])
    shown = []
    for name, kind in programme["fields"].items():
        if name in API_ONLY:
            continue
        # A play order's move is its whole point, though the API may take
        # it as `action` or as `text`, so neither is required there.
        needed = name in required or (name == "action" and programme["kind"] == "play")
        field = {"name": name, "kind": kind.split(":")[0], "spec": kind,
                 "label": LABELS.get(name, name), "required": needed}  # fmt: skip
        if kind.startswith("choice:"):
            field["options"] = kind.removeprefix("choice:").split("|")
        shown.append(field)
    return shown


LABELS = {
    "action": "The move, as a mail reply gives it",
    "phase": "Only in this round (for example SR 2, OR 2.1, round 3)",
    "if_unchanged": "Only if the game still stands as it does now",
    "price": "Highest lowest bid to stay in for",
    "amount": "Bid up to",
    "company": "Company (its letters)",
    "choice": "Choice",
    "cards": "The two cards, as your hand shows them",
}


def order_from(programme: dict[str, Any], post: QueryDict) -> dict[str, Any]:
    """The order the form describes, or Unreadable naming the field."""
    order: dict[str, Any] = {"kind": programme["kind"]}
    for field in fields_for(programme):
        raw = post.get(f"f.{field['name']}", "").strip()
        if field["kind"] == "bool":
            if raw:
                order[field["name"]] = True
            continue
        if not raw:
            if field["required"]:
                raise Unreadable(f"{field['label']}: this order needs it")
            continue
        key = "text" if field["kind"] == "action" else field["name"]
        order[key] = _value(field, raw)
    return order


def _value(field: dict[str, Any], raw: str) -> Any:
    try:
        return read_value(field["spec"], raw)
    except Unreadable as unreadable:
        raise Unreadable(f"{field['label']}: {unreadable}") from None
