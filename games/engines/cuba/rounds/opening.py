"""The opening of the game (draft IV.1, IV.2, VI.6): the commissioners'
auction and the concession draft, each a round of one step.
"""

from __future__ import annotations

from . import flow
from .base import Round

AUCTION = Round("commissioner auction", ())
CONCESSIONS = Round("concession draft", ())
flow.register("auction", AUCTION)
flow.register("concessions", CONCESSIONS)
