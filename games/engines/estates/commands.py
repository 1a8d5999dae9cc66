"""Text commands for play by email: one line per action.

    auction cube row2-left        stash, auction roof       auction permit2
    auction cancel                auction mayor             bid 3      pass
    give        keep              place lot b3              cancel permit 2
    mayor row a                   discard

``text`` writes the canonical line; ``parse`` also accepts looser spellings
(``auction row 2 left``, ``permit II``, ``mayor row 1``, ``place b3``).
"""

from __future__ import annotations

import re
from typing import Any

from .data import ROWS
from .errors import IllegalAction, refuse

Action = dict[str, Any]

_ROMAN = {"1": 1, "2": 2, "3": 3, "i": 1, "ii": 2, "iii": 3}
_STASH = re.compile(r"^stash\b\s*(?:[,;+]|\band\b|\bthen\b)?\s*(.*)$")
_CUBE = re.compile(r"^(?:auction\s+)?(?:cube\s+)?row\s*([1-3])\s*-?\s*(left|right)$")
_PIECE = re.compile(
    r"^(?:auction\s+)?(?:(roof|rooftop|mayor)|(cancel)(?:\s+cube)?"
    r"|permit\s*-?\s*(1|2|3|iii|ii|i))$"
)
_BID = re.compile(r"^bid\s+(\d{1,3})$")
_PLACE = re.compile(r"^place\s+(?:lot\s+)?([abc])\s*-?\s*(10|[1-9])$")
_CANCEL = re.compile(r"^cancel\s+(?:permit\s*)?(1|2|3|iii|ii|i)$")
_MAYOR = re.compile(r"^mayor\s+(?:row\s*)?([abc1-3])$")
_WORDS = {"pass": {"type": "pass"}, "give": {"type": "give"}, "keep": {"type": "keep"}}
_WORDS["discard"] = {"type": "discard"}


def text(action: Action) -> str:
    """The line a player types for this action."""
    kind = action.get("type")
    if kind == "auction":
        piece = action["piece"]
        line = f"auction cube {action['at']}" if piece == "cube" else f"auction {piece}"
        return f"stash, {line}" if action.get("stash") else line
    if kind == "bid":
        return f"bid {action['amount']}"
    if kind == "place":
        return f"place lot {action['lot']}"
    if kind == "cancel":
        return f"cancel permit {action['permit']}"
    if kind == "mayor":
        return f"mayor row {action['row']}"
    if kind in _WORDS:
        return str(kind)
    # A guard, not a refusal: ``text`` only ever writes the engine's own legal
    # actions (a player's action is refused by the phase's checks).
    raise IllegalAction(f"not an Estates action: {action!r}")


def _normalise(line: str) -> str:
    line = line.strip().lower().rstrip(".!")
    return re.sub(r"\s+", " ", line)


def _choose(line: str) -> Action | None:
    match = _CUBE.match(line)
    if match:
        return {"type": "auction", "piece": "cube", "at": f"row{match[1]}-{match[2]}"}
    match = _PIECE.match(line)
    if not match:
        return None
    if match[1]:
        return {"type": "auction", "piece": "roof" if match[1] != "mayor" else "mayor"}
    if match[2]:
        return {"type": "auction", "piece": "cancel"}
    return {"type": "auction", "piece": f"permit{_ROMAN[match[3]]}"}


def _other(line: str) -> Action | None:
    if line in _WORDS:
        return dict(_WORDS[line])
    if match := _BID.match(line):
        return {"type": "bid", "amount": int(match[1])}
    if match := _PLACE.match(line):
        return {"type": "place", "lot": f"{match[1]}{match[2]}"}
    if match := _CANCEL.match(line):
        return {"type": "cancel", "permit": _ROMAN[match[1]]}
    if match := _MAYOR.match(line):
        row = match[1]
        return {"type": "mayor", "row": ROWS[int(row) - 1] if row.isdigit() else row}
    return None


def parse(line: str) -> Action:
    """One email line -> action; raises IllegalAction for anything else."""
    if not isinstance(line, str):
        # A guard, not a refusal: a mail's line is always text.
        raise IllegalAction("a command is a line of text")
    clean = _normalise(line)
    stash = _STASH.match(clean)
    if stash:
        rest = stash[1]
        chosen = _choose(rest) if rest else None
        if chosen is None:
            raise refuse(
                'stash on the same line as the piece you choose, e.g. "stash, auction roof"'
            )
        return {**chosen, "stash": True}
    action = _choose(clean) or _other(clean)
    if action is None:
        raise refuse("not understood: {line}", line=repr(line.strip()[:80]))
    return action
