"""What the service modules share: the guards the acts apply, the checks of
what a request names (a seat, a reason, a text), and the retry of a short
write that met a concurrent append.  What a game's rows derive from its
stream is games.stream.derived."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.utils.translation import gettext_noop

from games.errors import (
    Conflict,
    Forbidden,
    GameLocked,
    GameNotActive,
    InvalidRequest,
    NotASeat,
    NotConsented,
    NotFound,
    StaleSeq,
    Suspended,
    TooManyGames,
    TooManyTables,
)
from games.models import Event, Game, Invitation, Seat, Table, TableSeat
from games.stream import replay, sql

# A write that re-reads the game before each try loses to a concurrent append
# only when that append lands in the few milliseconds between its read and
# its write; five in a row means something else is wrong.
STALE_RETRIES = 5

T = TypeVar("T")


def seat_of(game: Game, user) -> int:
    return held(sql.active_seat(game.pk, user.pk))


def held(seat: int | None) -> int:
    """`seat`, if the user holds one (None: they do not)."""
    if seat is None:
        raise NotASeat(gettext_noop("you do not hold a seat in this game"))
    return seat


def current_seq(game: Game, expected_seq: int) -> int:
    """The seq a player's write goes after: the one they name if it is the
    game's, else the game's own when nothing but talk came since (a message
    changes nothing a seat decides by, so a chatty table does not turn
    every move stale); StaleSeq otherwise."""
    if expected_seq == game.seq:
        return expected_seq
    if 0 <= expected_seq < game.seq:
        since = Event.objects.filter(game=game, seq__gt=expected_seq).order_by()
        if not since.exclude(kind__in=replay.TALK_KINDS).exists():
            return game.seq
    raise StaleSeq(expected_seq, game.seq)


def require_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(gettext_noop("this game is %(status)s"), status=game.status)


def require_unlocked(game: Game) -> None:
    if game.locked:
        raise GameLocked(
            gettext_noop(
                "a moderator locked this game while a dispute is open; wait until it is unlocked"
            )
        )


def require_not_suspended(user) -> None:
    """A suspended account acts nowhere (its login and tokens are refused
    too; this covers a token or session a process still trusts)."""
    if getattr(user, "suspended", False):
        raise Suspended(gettext_noop("your account is suspended"))


REASON_LENGTH = 500


def required_reason(reason) -> str:
    """`reason` stripped; a moderator's act without one is refused."""
    return text_field(reason, REASON_LENGTH, gettext_noop("a moderator's act needs a reason"))


def text_field(value, limit: int, missing: str | None) -> str:
    """`value` stripped, a text of at most `limit` characters that a
    database column can hold; `missing` is the refusal of an empty one
    (None: empty is fine)."""
    if value is None and missing is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidRequest(gettext_noop("give a text"))
    value = value.strip()
    if not value and missing is not None:
        raise InvalidRequest(missing)
    if len(value) > limit:
        raise InvalidRequest(gettext_noop("a text has at most %(count)s characters"), count=limit)
    if "\x00" in value:
        raise InvalidRequest(gettext_noop("a text cannot hold NUL characters"))
    return value


def active_seat_row(game: Game, seat) -> Seat:
    """The row of `seat`, a seat still playing in the game (a moderator's
    act names it), or InvalidRequest."""
    fits = type(seat) is int and 0 <= seat < 100
    row = Seat.objects.filter(game=game, index=seat).first() if fits else None
    if row is None:
        raise InvalidRequest(gettext_noop("this game has no seat %(seat)s"), seat=str(seat)[:20])
    if row.status != Seat.Status.ACTIVE:
        raise InvalidRequest(gettext_noop("seat %(seat)s has left the game"), seat=seat)
    return row


def require_moderator(user, message: str = gettext_noop("only moderators can do this")) -> None:
    if not getattr(user, "is_moderator", False):
        raise Forbidden(message)


def retry_on_stale(write: Callable[[], T], attempts: int = STALE_RETRIES) -> T:
    """`write()`, tried again while a concurrent append makes it stale.

    `write` must read the game afresh on every call and hold no transaction
    across calls: each try is one short transaction of its own.
    """
    for _ in range(attempts - 1):
        try:
            return write()
        except StaleSeq:
            continue
    return write()


def require_room_for_a_game(creator) -> None:
    """Refuse a game to an account that already runs the most games one may
    have started at once.  Its row is locked for the rest of the creation's
    transaction, so two creations at the same moment count each other."""
    from accounts.models import User

    limit = settings.CORREO_MAX_ACTIVE_GAMES
    list(User.objects.select_for_update().filter(pk=creator.pk).values_list("pk", flat=True))
    running = Game.objects.filter(created_by=creator, status=Game.Status.ACTIVE).count()
    if running >= limit:
        raise TooManyGames(
            gettext_noop(
                "you have started %(limit)s games that are still running, the most one "
                "account may have at once: wait until one of them ends"
            ),
            limit=limit,
        )


def locked_table(table_id: int) -> Table:
    """A table's row, locked until the transaction ends (NotFound if none):
    every act on a table takes it first, so acts on one table run one at a
    time and a table starts once."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFound(gettext_noop("no such table"))
    return table


def seated_users(table: Table) -> list:
    """The people seated at a table (bots aside), as they sat down."""
    return [seat.user for seat in table.seats.select_related("user") if seat.user is not None]


def require_host(table: Table, user) -> None:
    if table.host_id != getattr(user, "pk", None):
        raise Forbidden(gettext_noop("only the table's host may do this"))


def require_waiting(table: Table) -> None:
    if table.status != Table.Status.WAITING:
        raise Conflict(
            gettext_noop("the table is no longer waiting for players (it is %(status)s)"),
            status=table.status,
        )


def table_facts(table: Table) -> dict[str, Any]:
    """What every mail about a table says of it."""
    from games.engines import base

    try:
        title = base.get(table.title).TITLE
    except KeyError:
        title = table.title
    return {"table": table.pk, "title": table.title, "title_name": title,
            "host": table.host.username}  # fmt: skip


def require_consent(creator, players: list) -> None:
    """A game made by naming its players (`POST /api/games/`) seats a
    person only if they accepted an invitation from its creator; bots and
    the creator need none."""
    from accounts.models import User

    people = [p for p in players if isinstance(p, User) and not p.bot and p.pk != creator.pk]
    if not people:
        return
    agreed = set(
        Invitation.objects.filter(
            invited_by=creator, user__in=people, status=Invitation.Status.ACCEPTED
        ).values_list("user_id", flat=True)
    )
    refused = [person.username for person in people if person.pk not in agreed]
    if refused:
        raise NotConsented(
            gettext_noop(
                "%(names)s never accepted an invitation from you: invite them to a table "
                "instead (POST /api/tables/, then /invite/)"
            ),
            names=", ".join(refused),
        )


def require_room_for_a_table(user) -> None:
    """Refuse a seat to an account already at CORREO_MAX_WAITING_TABLES
    waiting tables.  Its row is locked for the rest of the transaction, so
    two seats taken at the same moment count each other."""
    from accounts.models import User

    limit = settings.CORREO_MAX_WAITING_TABLES
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    waiting = TableSeat.objects.filter(user=user, table__status=Table.Status.WAITING).count()
    if waiting >= limit:
        raise TooManyTables(
            gettext_noop(
                "you sit at %(limit)s waiting tables, the most one account may: leave one "
                "or wait until one starts"
            ),
            limit=limit,
        )
