"""The Estates / Neue Heimat (Klaus Zoch): an auction and building game.

See README.md in this package for the rules decisions, options and commands.
"""

from __future__ import annotations

from .engine import EstatesEngine

ENGINE = EstatesEngine()

__all__ = ["ENGINE", "EstatesEngine"]
