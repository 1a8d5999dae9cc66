"""One event of a game in words, as a viewer may see it: the same line in
the web log, the dashboard and the mails' "since your last turn".

Moves are told by the title (`engine.narrate`, with player names) from the
payload the viewer was given (`games.selectors.visibility`): another seat's face-down
choice arrives in its public form, so its line cannot say more.

Every line is said in the active language (a mail's is its recipient's):
the generic ones through Django's catalogue, the title's own through the
title's (`games.engines.i18n`), as engines import nothing from Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.engines import base
from games.selectors import talk

# The clock acts by their names in the events (games.services.clock).
CLOCK_ACTS = {
    "vacation": pgettext_lazy("clock act", "vacation"),
    "pause": pgettext_lazy("clock act", "pause"),
    "resume": pgettext_lazy("clock act", "resume"),
    "extend": pgettext_lazy("clock act", "extend"),
    "outage": pgettext_lazy("clock act", "outage"),
    "lock": pgettext_lazy("clock act", "locked by a moderator"),
    "unlock": pgettext_lazy("clock act", "unlocked by a moderator"),
}


def seat_names(names: Mapping[int, str]) -> list[str]:
    """Names indexed by seat, as the engines' text functions take them."""
    if not names:
        return []
    return [names.get(seat, _("seat %(seat)s") % {"seat": seat}) for seat in range(max(names) + 1)]


def move_words(
    engine: base.Engine, state: Any, seat: int, action: Mapping[str, Any], names: Sequence[str]
) -> dict[str, Any]:
    """A legal move of `seat` in words, the same for the turn mail and the
    game page: the line to reply with, a few words where the line alone is
    cryptic (the title's gloss, or None) and the heading it is listed under
    (or None).  Only for the seat's own legal moves, which the seat may see
    whole; said in the active language."""
    language = get_language()
    gloss = (
        engine.gloss(state, seat, action, names, language=language)
        if hasattr(engine, "gloss")
        else None
    )
    group = (
        engine.move_group(state, seat, action, language=language)
        if hasattr(engine, "move_group")
        else None
    )
    return {"line": engine.text(action), "gloss": gloss, "group": group}


def event_line(engine: base.Engine, event: Mapping[str, Any], names: Sequence[str]) -> str:
    """`event` as `games.selectors.visibility.event_for` gives it to the viewer."""
    payload, kind, seat = event["payload"], event["kind"], event["seat"]
    who = names[seat] if seat is not None and 0 <= seat < len(names) else _("the game")
    if kind in ("action", "timeout") and isinstance(payload.get("action"), dict):
        line = _narrate(engine, payload["action"], seat, names)
        return _("%(move)s (their clock ran out)") % {"move": line} if kind == "timeout" else line
    if kind == "message":
        # Whole to those who may read it, else empty (games.selectors.talk).
        return talk.line(payload or {"private": True}, names)
    if kind == "created":
        return _("the game started")
    if kind == "undo":
        reason = payload.get("reason")
        back = _("undone back to seq %(seq)s") % {"seq": payload.get("to_seq")}
        return f"{back}: {reason}" if reason else back
    if kind == "resign":
        return _("%(who)s left the game") % {"who": who}
    if kind == "seat_replaced":
        if payload.get("username") and payload.get("previous_username"):
            return _("%(new)s took over from %(old)s: %(reason)s") % {
                "new": payload["username"], "old": payload["previous_username"],
                "reason": payload.get("reason", ""),
            }  # fmt: skip
        return _("a new player took over from %(who)s") % {"who": who}
    if kind == "abort":
        return _("a moderator aborted the game: %(reason)s") % {"reason": payload.get("reason")}
    if kind == "note" and payload.get("note") == "pinned":
        return _("a moderator's note: %(text)s") % {"text": payload.get("reason")}
    if kind == "takeback_request":
        return _("%(who)s asked to take back their move") % {"who": who}
    if kind == "takeback_answer":
        answered = {
            "approve": _("%(who)s approved the takeback"),
            "refuse": _("%(who)s refused the takeback"),
        }.get(payload.get("answer"), _("%(who)s answered the takeback"))
        return answered % {"who": who}
    if kind == "clock":
        act = str(payload.get("clock", ""))
        act = str(CLOCK_ACTS.get(act, act.replace("_", " ")))
        reason = payload.get("reason")
        line = pgettext("event", "clock: %(act)s") % {"act": act}
        return line + (f" ({reason})" if reason else "")
    return kind.replace("_", " ")


def effect_lines(engine: base.Engine, event: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """What the move of `event` set off without a decision (the title's
    automatic events: a train's route and revenue, a dividend, a price
    move), in words, after its own line; none for any other event."""
    payload = event["payload"]
    effects = payload.get("effects")
    tell = getattr(engine, "tell_effects", None)
    if event["kind"] not in ("action", "timeout") or not effects or tell is None:
        return []
    try:
        return list(tell(effects, names, language=get_language()))
    except Exception:
        # An event an older or newer engine recorded: its move's line stands.
        return []


def _narrate(engine: base.Engine, action: dict[str, Any], seat: int | None, names) -> str:
    if seat is None or not 0 <= seat < len(names):
        return str(action.get("type", "move")).replace("_", " ")
    narrate = getattr(engine, "narrate", None)
    try:
        if narrate is not None:
            return narrate(action, seat, names, language=get_language())
        return f"{names[seat]}: {engine.text(action)}"
    except Exception:
        # A public form (a face-down choice without its cards) may not be a
        # whole command; the line then says no more than its kind.
        return f"{names[seat]}: {str(action.get('type', 'move')).replace('_', ' ')}"
