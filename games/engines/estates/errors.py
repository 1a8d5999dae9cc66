"""The one error players see, and a helper to reject malformed actions early."""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction

__all__ = ["IllegalAction", "check_keys"]


def check_keys(action: dict[str, Any], allowed: set[str], required: set[str]) -> None:
    """Reject unknown or missing keys, so only postable actions get through."""
    extra = sorted(set(action) - allowed)
    if extra:
        raise IllegalAction(f"unexpected field(s) in the action: {', '.join(map(str, extra))}")
    missing = sorted(required - set(action))
    if missing:
        raise IllegalAction(f"missing field(s) in the action: {', '.join(missing)}")
