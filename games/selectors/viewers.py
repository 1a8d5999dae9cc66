"""Who is asking and what of a game they may see: the Viewer (seat, moderator,
the head they stand at), and the game and seat rows a request reads first."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext_noop

from games.errors import Forbidden, NotFound
from games.models import Game, Seat
from games.stream import sql, store
from games.stream.lru import LRU
from games.stream.sql import Player


@dataclass
class Viewer:
    """Who is looking at a game, and up to which seq they may see it."""

    seat: int | None
    moderator: bool
    head: int
    # A spectator who sees the game late is never shown deadlines: the log
    # does not record them as they stood, and seeing them now would tell.
    delayed: bool = False
    # The account (None: logged out); a note to self is read by its author.
    user_id: int | None = None

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def game(pk: int) -> Game:
    """The game row as it is now (NotFound if there is none)."""
    row = sql.game(pk, after=store.known_seq(pk))
    if row is None:
        raise NotFound(gettext_noop("no such game"))
    return row


def players(game_id: int, indexes=None) -> list[Player]:
    """Who plays the game: each seat but replaced ones (or just the seats in
    `indexes`) with its index, status and user, in seat order."""
    return sql.players(game_id, indexes)


def players_of(game: Game, indexes=None) -> list[Player]:
    """`players(game.pk, indexes)`, without a query when they came with
    the game (a move's read: games.stream.sql.game)."""
    return sql.players_of(game, indexes)


def seats_of(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("index"))


_tables = LRU(settings.CORREO_STATE_CACHE_SIZE)


def game_with_seats(pk: int) -> tuple[Game, list[Seat]]:
    """A game and its seats with their users: the hot read path.

    Everything shown of a game and its seats changes only with an appended
    event, so after one small query for the head the rows are memoised per
    head hash (read-only for the caller).
    """
    head = sql.head(pk)
    if head is None:
        raise NotFound(gettext_noop("no such game"))
    key = (pk, *head)
    table = _tables.get_or_compute(key, lambda: _load_table(pk))
    if (table[0].seq, table[0].head_hash) != head:
        # The game moved on between the two reads: serve the newer rows once,
        # and keep no entry that does not match its key.
        _tables.discard(key)
    return table


def _load_table(pk: int) -> tuple[Game, list[Seat]]:
    table = sql.table(pk)
    if table is None:
        raise NotFound(gettext_noop("no such game"))
    return table


def seen_by(pk: int, user) -> tuple[Game, Viewer]:
    """Game `pk` and who `user` is in it, from the rows memoised at its head
    (`game_with_seats`): a read that shows one viewer the game asks this
    first, and the seats need not be read again for each such request."""
    game, seats = game_with_seats(pk)
    return game, viewer_of(game, user, seats)


def viewer_of(game: Game, user, seats: list[Seat] | None = None) -> Viewer:
    """The requester's seat and visible head; refuses strangers to private games."""
    seat = None
    if user.is_authenticated:
        for candidate in seats if seats is not None else seats_of(game):
            if candidate.user_id == user.pk and candidate.status != Seat.Status.REPLACED:
                seat = candidate.index
    moderator = bool(getattr(user, "is_moderator", False))
    if seat is None and not moderator and not game.public:
        raise Forbidden(gettext_noop("this game is private"))
    user_id = user.pk if user.is_authenticated else None
    if seat is None and not moderator and held_back(game):
        return Viewer(
            seat=None, moderator=False, head=game.spectator_seq, delayed=True, user_id=user_id
        )
    return Viewer(seat=seat, moderator=moderator, head=game.seq, user_id=user_id)


def held_back(game: Game) -> bool:
    """Do this game's spectators see it late?  Only while it runs: a finished
    game reveals everything to everyone."""
    return bool(game.spectator_delay) and game.status == Game.Status.ACTIVE


def reveals_all(game: Game, viewer: Viewer) -> bool:
    return game.status != Game.Status.ACTIVE
