"""Point City (Flatout Games / AEG), 1-4 players, solo against an automated opponent.

Modules: data (cards.json), setup, market, payment, turn, solo, scoring, view,
describe (the board in words), moves (each verb declared once: its line,
narration, gloss and heading), engine (the contract object).  See README.md.
"""

from __future__ import annotations

from .engine import PointCity

ENGINE = PointCity()

__all__ = ["ENGINE", "PointCity"]
