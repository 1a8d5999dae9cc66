"""The setup commitment: players can check after the game that the shuffles
were fixed before the first move."""

from __future__ import annotations

import hashlib
import secrets

from games.engines.base import State, canonical_json


def new_salt() -> str:
    return secrets.token_hex(32)


def commit(setup: State, salt: str) -> str:
    return hashlib.sha256((canonical_json(setup) + salt).encode()).hexdigest()
