"""Havana (Reinhard Staupe, 2009): the rules engine for API name ``havana``.

Modules by concern: ``data`` (component data, validated at import), ``setup``,
``order`` (turn order), ``actions`` (the action cards), ``buying``,
``rounds`` (phases and turns), ``describe`` (the board in words),
``moves`` (each verb declared once: its line, narration and gloss), ``view``,
``scoring``; ``engine`` wires them to the protocol of ``games.engines.base``.
"""

from __future__ import annotations

from .engine import HavanaEngine

ENGINE = HavanaEngine()

__all__ = ["ENGINE", "HavanaEngine"]
