"""Bots at a game's seats: the accounts a new game seats for the bots
asked for, which seats bots hold, which one is to act, and the seed of a
bot's move.

The seed is an HMAC of the seq and seat under the game's secret seed and
salt: fresh for every move, the same on every replay, and no help in
recovering the secret (which also shuffled the game's hidden orders).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
from collections.abc import Iterator
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext_noop

from accounts import bots as accounts
from games.engines import bots as engine_bots
from games.engines.base import Engine
from games.errors import InvalidRequest
from games.models import Game, Seat
from games.selectors import viewers

SEED_HEX_DIGITS = 16


def seat_holders(engine: Engine, players: list) -> list:
    """`players` with each bot entry (accounts.bots.Wanted) replaced by the
    account that bot plays its seat under; a title without that bot refuses."""
    available = engine_bots.kinds_for(engine)
    holders = []
    for seat, player in enumerate(players):
        if isinstance(player, accounts.Wanted):
            if player.kind not in available:
                raise InvalidRequest(
                    gettext_noop("%(title)s has no %(kind)s bot"),
                    title=engine.TITLE, kind=player.kind,
                )  # fmt: skip
            player = accounts.account(player.kind, seat)
        holders.append(player)
    return holders


def bot_seats(players: list) -> list[int]:
    """The seats of `players` (users) that bots play."""
    return [seat for seat, user in enumerate(players) if accounts.is_bot(user)]


def seed_for(game: Game, seq: int, seat: int) -> str:
    """The seed of the bot's move after event `seq`, as hex digits."""
    key = f"correo-bot:{game.seed}:{game.salt}".encode()
    digest = hmac.new(key, f"{seq}:{seat}".encode(), hashlib.sha256).hexdigest()
    return digest[:SEED_HEX_DIGITS]


def bot_to_act(game: Game) -> viewers.Player | None:
    """The first seat to act that a bot holds, with its account, or None."""
    due = sorted(set(game.to_act or []) & set(game.bot_seats or []))
    if not due:
        return None
    for player in viewers.players_of(game, due):
        if accounts.is_bot(player.user) and player.status == Seat.Status.ACTIVE:
            return player
    return None


# A game whose bot should have moved this long after the pace is queued
# again by the sweep (games.tasks.sweep_bots).
OVERDUE_SECONDS = 60


def has_bots(game: Game) -> bool:
    return bool(game.bot_seats)


def bot_due(game: Game) -> bool:
    """A bot holds a seat that is to act in this running game."""
    return game.status == Game.Status.ACTIVE and bool(
        set(game.to_act or []) & set(game.bot_seats or [])
    )


def overdue(now: datetime.datetime) -> Iterator[Game]:
    """Running games whose bot should have moved by `now` and has not (its
    message was lost, or its worker died)."""
    late = now - timedelta(seconds=settings.CORREO_BOT_PACE_SECONDS + OVERDUE_SECONDS)
    games = Game.objects.filter(status=Game.Status.ACTIVE, updated_at__lt=late).exclude(
        bot_seats=[]
    )
    for game in games.only("pk", "seq", "status", "to_act", "bot_seats").iterator():
        if bot_due(game):
            yield game
