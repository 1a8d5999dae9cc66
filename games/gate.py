"""The release gate: `verify_games --status active --read-only` before a
release goes live (deploy/README.md).

It reads the live database with the new release's engines, so it must not
write to it: the session is made read-only (PostgreSQL refuses any write in
it, SQLite's query_only likewise), which also keeps out any write a later
option of the command might add.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection

from games.models import Game
from games.verification import CHUNK, game_problems, stored

_READ_ONLY = {
    "postgresql": ("SET SESSION default_transaction_read_only = on",
                   "SET SESSION default_transaction_read_only = off"),
    "sqlite": ("PRAGMA query_only = ON", "PRAGMA query_only = OFF"),
}  # fmt: skip


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Every statement of this connection's session read-only, until the end."""
    on, off = _READ_ONLY[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(on)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(off)


def problems_with_status(status: str, chunk: int = CHUNK) -> Iterator[tuple[Game, str]]:
    """Every problem of the games of one status, `chunk` games at a time
    (games.verification.all_problems, for a part of the games)."""
    last = 0
    while True:
        games = list(Game.objects.filter(status=status, pk__gt=last).order_by("pk")[:chunk])
        if not games:
            return
        last = games[-1].pk
        facts = stored(games)
        for game in games:
            for problem in game_problems(game, facts[game.pk]):
                yield game, problem
