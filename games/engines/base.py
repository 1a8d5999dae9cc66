"""The engines' shared parts under the one name their users import.

Each part is its own module: the protocol every title implements
(``protocol``), the finished game's shape and ranking (``results``), the
refusal (``errors``), ``EngineBase`` with its one ``apply`` and the words of
a move made from the title's verbs (``template``), the JSON helpers
(``jsondata``) and the registry of titles (``registry``).  The pages, mails,
services and titles import them from here as they always have.
"""

from __future__ import annotations

from .errors import IllegalAction
from .jsondata import canonical_json, clone, same_json
from .protocol import Action, Engine, State
from .registry import KNOWN_TITLES, available, get, register, unregister
from .results import Opponent, Result, Score, finished, rank
from .template import EngineBase

__all__ = [
    "KNOWN_TITLES",
    "Action",
    "Engine",
    "EngineBase",
    "IllegalAction",
    "Opponent",
    "Result",
    "Score",
    "State",
    "available",
    "canonical_json",
    "clone",
    "finished",
    "get",
    "rank",
    "register",
    "same_json",
    "unregister",
]
