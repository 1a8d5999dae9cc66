"""What the service modules share: the guards the acts apply, the checks of
what a request names (a seat, a reason, a text), and the retry of a short
write that met a concurrent append.  What a game's rows derive from its
stream is games.stream.derived."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.utils.translation import gettext_noop

from games.errors import (
    Forbidden,
    GameLocked,
    GameNotActive,
    InvalidRequest,
    NotASeat,
    StaleSeq,
    Suspended,
)
from games.models import Event, Game, Seat
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
