"""Clock options: parsing and validating what a game's creator asks for."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_noop

from games.errors import InvalidRequest

POLICIES = ("auto", "skip", "forfeit", "moderator")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MAX_SECONDS = 90 * 86400


def seconds(value: Any, what: str) -> int:
    """'72h', '30m', '2d', '45s' or a whole number of seconds."""
    if isinstance(value, int) and not isinstance(value, bool):
        total = value
    elif isinstance(value, str) and (match := re.fullmatch(r"\s*(\d{1,7})\s*([smhd])\s*", value)):
        total = int(match.group(1)) * UNITS[match.group(2)]
    else:
        raise InvalidRequest(
            gettext_noop("%(what)s must be a duration like '72h', '30m', '2d' or seconds"),
            what=what,
        )
    if not 1 <= total <= MAX_SECONDS:
        raise InvalidRequest(
            gettext_noop("%(what)s must be between 1 second and 90 days"), what=what
        )
    return total


def parse(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    """The stored clock configuration, or None for a game without a clock."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise InvalidRequest(gettext_noop("clock must be an object"))
    unknown = set(clock) - {"per_move", "reminders", "on_timeout", "max_timeouts", "vacation"}
    if unknown:
        raise InvalidRequest(
            gettext_noop("unknown clock option(s): %(names)s"), names=", ".join(sorted(unknown))
        )
    if "per_move" not in clock:
        raise InvalidRequest(gettext_noop("clock.per_move is required, e.g. '72h'"))
    per_move = seconds(clock["per_move"], "clock.per_move")
    reminders = clock.get("reminders", [])
    if not isinstance(reminders, list) or len(reminders) > 5:
        raise InvalidRequest(gettext_noop("clock.reminders must be a list of at most 5 durations"))
    offsets = sorted({seconds(r, "a reminder") for r in reminders}, reverse=True)
    if any(offset >= per_move for offset in offsets):
        raise InvalidRequest(
            gettext_noop("each reminder must come before the deadline (shorter than per_move)")
        )
    policy = clock.get("on_timeout", "auto")
    if policy not in POLICIES:
        raise InvalidRequest(
            gettext_noop("clock.on_timeout must be one of: %(names)s"), names=", ".join(POLICIES)
        )
    max_timeouts = clock.get("max_timeouts", 3)
    if type(max_timeouts) is not int or not 0 <= max_timeouts <= 100:
        raise InvalidRequest(
            gettext_noop("clock.max_timeouts must be a whole number from 0 (no limit) to 100")
        )
    vacation = clock.get("vacation", True)
    if not isinstance(vacation, bool):
        raise InvalidRequest(gettext_noop("clock.vacation must be true or false"))
    return {
        "per_move": per_move,
        "reminders": offsets,
        "on_timeout": policy,
        "max_timeouts": max_timeouts,
        "vacation": vacation,
    }
