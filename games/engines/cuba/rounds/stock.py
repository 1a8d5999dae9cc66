"""The stock round (draft VI): sell, then buy one certificate, or pass; the
first stock round also converts concessions into minors (VI.7).
"""

from __future__ import annotations

from . import flow
from .base import Round

STOCK = Round("stock round", ())
flow.register("stock", STOCK)
