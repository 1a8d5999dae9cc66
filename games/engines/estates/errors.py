"""The one error players see, and a helper to reject malformed actions early.

``refuse`` makes that error from the estates catalogue's words (an English
msgid with named values), so a reply mail can say it in its reader's
language; the message itself stays English."""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction
from ..i18n import Words

__all__ = ["IllegalAction", "check_keys", "refuse"]

refuse = Words("estates").refuse


def check_keys(action: dict[str, Any], allowed: set[str], required: set[str]) -> None:
    """Reject unknown or missing keys, so only postable actions get through."""
    extra = sorted(set(action) - allowed)
    if extra:
        raise refuse(
            "unexpected field(s) in the action: {fields}", fields=", ".join(map(str, extra))
        )
    missing = sorted(required - set(action))
    if missing:
        raise refuse("missing field(s) in the action: {fields}", fields=", ".join(missing))
