"""One event of a game in words, as a viewer may see it: the same line in
the web log, the dashboard and the mails' "since your last turn".

Moves are told by the title (`engine.narrate`, with player names) from the
payload the viewer was given (`games.visibility`): another seat's face-down
choice arrives in its public form, so its line cannot say more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engines import base

ANSWERED = {"approve": "approved", "refuse": "refused"}


def seat_names(names: Mapping[int, str]) -> list[str]:
    """Names indexed by seat, as the engines' text functions take them."""
    if not names:
        return []
    return [names.get(seat, f"seat {seat}") for seat in range(max(names) + 1)]


def event_line(engine: base.Engine, event: Mapping[str, Any], names: Sequence[str]) -> str:
    """`event` as `games.visibility.event_for` gives it to the viewer."""
    payload, kind, seat = event["payload"], event["kind"], event["seat"]
    who = names[seat] if seat is not None and 0 <= seat < len(names) else "the game"
    if kind in ("action", "timeout") and isinstance(payload.get("action"), dict):
        line = _narrate(engine, payload["action"], seat, names)
        return f"{line} (their clock ran out)" if kind == "timeout" else line
    if kind == "created":
        return "the game started"
    if kind == "undo":
        reason = payload.get("reason")
        back = f"undone back to seq {payload.get('to_seq')}"
        return f"{back}: {reason}" if reason else back
    if kind == "resign":
        return f"{who} left the game"
    if kind == "seat_replaced":
        return f"a new player took over from {who}"
    if kind == "takeback_request":
        return f"{who} asked to take back their move"
    if kind == "takeback_answer":
        answer = {"approve": "approved", "refuse": "refused"}.get(
            payload.get("answer"), "answered"
        )
        return f"{who} {answer} the takeback"
    if kind == "clock":
        act = str(payload.get("clock", "")).replace("_", " ")
        reason = payload.get("reason")
        return f"clock: {act}" + (f" ({reason})" if reason else "")
    return kind.replace("_", " ")


def _narrate(engine: base.Engine, action: dict[str, Any], seat: int | None, names) -> str:
    if seat is None or not 0 <= seat < len(names):
        return str(action.get("type", "move")).replace("_", " ")
    narrate = getattr(engine, "narrate", None)
    try:
        if narrate is not None:
            return narrate(action, seat, names)
        return f"{names[seat]}: {engine.text(action)}"
    except Exception:
        # A public form (a face-down choice without its cards) may not be a
        # whole command; the line then says no more than its kind.
        return f"{names[seat]}: {str(action.get('type', 'move')).replace('_', ' ')}"
