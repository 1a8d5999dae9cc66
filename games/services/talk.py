"""Table talk: a message to the table, to one seat, to the spectators or to
oneself, and a moderator hiding one.

A message is an event of the game's stream (kind `message`, source `talk`,
no seat), hash-chained and sealed like every other, which no engine sees
and no undo makes inert.  Who may read it is games.selectors.talk's to say;
what is decided here is who may send what:

| to | who sends | press |
|---|---|---|
| `"table"` | a player (any seat still theirs), a moderator | `full`, `public` |
| a seat number | a player, to another seat | `full` |
| `"spectators"` | someone without a seat (a spectator, a moderator) | any |
| `"me"` | a player (a note to self) | any |

The spectators' room and a note are no talk between the players, so the
press setting does not govern them.  A message is plain text of at most
CORREO_MESSAGE_LENGTH characters, and each account sends at most the
"talk" rate (THROTTLE_TALK) whatever the door.
"""

from __future__ import annotations

import unicodedata
from math import ceil
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

from games.errors import Forbidden, InvalidRequest, NotASeat, TooFast
from games.models import Event, Game, Mute, Press, Seat
from games.selectors import talk, viewers
from games.services.common import (
    require_moderator,
    require_not_suspended,
    require_unlocked,
    required_reason,
    retry_on_stale,
    text_field,
)
from games.stream import store
from ops.throttling import Budget

# Control characters a plain-text message may hold; and the marks that turn
# the direction of the text around, which would let a message show other
# words than it holds (a move line read backwards).
ALLOWED_CONTROLS = frozenset("\n\t")
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_send_message(game: Game, user, *, to: Any, text: Any, source: str) -> Event:
    """A person's message in `game` (a page, the API, a mail reply)."""
    require_not_suspended(user)
    viewer = viewers.viewer_of(game, user)  # a private game refuses strangers
    audience = _audience(game, viewer, to)
    words = _words(text)
    if not viewer.moderator:
        require_unlocked(game)
    wait = Budget("talk").spend(str(user.pk))
    if wait is not None:
        raise TooFast(gettext_noop("too many messages: wait %(wait)s s"), wait, wait=ceil(wait))
    return do_send_message(game, actor=user, seat=viewer.seat, to=audience, text=words, via=source)


def do_send_message(game: Game, *, actor, seat: int | None, to: Any, text: str, via: str) -> Event:
    """Append the message after whatever the game's head is now."""
    payload = {"to": to, "from": seat, "by": actor.username, "text": text, "via": via}
    return retry_on_stale(lambda: _append(game.pk, payload, actor))


def check_hide_message(game: Game, moderator, *, seq: Any, reason: Any) -> Event:
    """A moderator hides a message: a message to the moderators naming it.
    The message stays in the stream (and in the audit); everyone who could
    read it is shown that a moderator hid it, no more."""
    require_moderator(moderator, gettext_noop("only moderators can hide a message"))
    reason = required_reason(reason)
    target = _message_at(game, seq)
    if target.payload.get("to") == talk.MODERATORS:
        raise InvalidRequest(gettext_noop("event %(seq)s is not a message"), seq=seq)
    return do_hide_message(game, actor=moderator, seq=target.seq, reason=reason)


def do_hide_message(game: Game, *, actor, seq: int, reason: str) -> Event:
    payload = {"to": talk.MODERATORS, "hide": seq, "reason": reason,
               "by": actor.username, "via": Event.Source.MODERATOR}  # fmt: skip
    return retry_on_stale(lambda: _append(game.pk, payload, actor))


def _message_at(game: Game, seq: Any) -> Event:
    """The message event at `seq`, or InvalidRequest."""
    found = None
    if type(seq) is int and 1 <= seq <= game.seq:
        found = Event.objects.filter(game=game, seq=seq, kind=Event.Kind.MESSAGE).first()
    if found is None:
        raise InvalidRequest(gettext_noop("event %(seq)s is not a message"), seq=str(seq)[:20])
    return found


def _append(game_id: int, payload: dict[str, Any], actor) -> Event:
    game = viewers.game(game_id)
    return store.append(
        game, expected_seq=game.seq, kind=Event.Kind.MESSAGE, source=Event.Source.TALK,
        payload=payload, seat=None, actor=actor, head_hash=game.head_hash,
    )  # fmt: skip


def _audience(game: Game, viewer: viewers.Viewer, to: Any) -> Any:
    """`to` checked against who sends and the game's press setting."""
    player = viewer.seat is not None
    if to == talk.TABLE:
        if game.press == Press.NONE:
            raise Forbidden(gettext_noop("this game has no table talk (press: none)"))
        if not (player or viewer.moderator):
            raise NotASeat(gettext_noop("only the players talk to the table"))
        return to
    if to == talk.SPECTATORS:
        if player:
            raise Forbidden(gettext_noop("the spectators' room is for those without a seat"))
        return to
    if to == talk.ME:
        if not player:
            raise NotASeat(gettext_noop("notes are for the players"))
        return to
    if type(to) is int:
        if game.press != Press.FULL:
            raise Forbidden(
                gettext_noop("this game has no private messages (press: %(press)s)"),
                press=game.press,
            )
        if not player:
            raise NotASeat(gettext_noop("only the players send private messages"))
        if not 0 <= to < Seat.objects.filter(game=game).count() or to == viewer.seat:
            raise InvalidRequest(gettext_noop("there is no other seat %(seat)s"), seat=to)
        return to
    raise InvalidRequest(
        gettext_noop('to is "table", "spectators", "me" or a seat number'),
    )


def _words(text: Any) -> str:
    words = text_field(
        text, settings.CORREO_MESSAGE_LENGTH, gettext_noop("a message needs some words")
    )
    if any(
        (unicodedata.category(c) == "Cc" and c not in ALLOWED_CONTROLS) or c in BIDI_CONTROLS
        for c in words
    ):
        raise InvalidRequest(gettext_noop("a message is plain text: no control characters"))
    return words


def check_mute_seat(game: Game, user, *, seat: Any) -> Mute:
    """A viewer chooses not to see one seat's messages in this game (theirs
    alone: a preference, not an event; the others see them as before)."""
    viewer = viewers.viewer_of(game, user)
    _other_seat(game, viewer, seat)
    return do_mute_seat(game, user, seat)


def do_mute_seat(game: Game, user, seat: int) -> Mute:
    return Mute.objects.get_or_create(game=game, user=user, seat=seat)[0]


def check_unmute_seat(game: Game, user, *, seat: Any) -> None:
    viewer = viewers.viewer_of(game, user)
    _other_seat(game, viewer, seat)
    do_unmute_seat(game, user, seat)


def do_unmute_seat(game: Game, user, seat: int) -> None:
    Mute.objects.filter(game=game, user=user, seat=seat).delete()


def _other_seat(game: Game, viewer: viewers.Viewer, seat: Any) -> None:
    if type(seat) is not int or not 0 <= seat < Seat.objects.filter(game=game).count():
        raise InvalidRequest(gettext_noop("this game has no seat %(seat)s"), seat=str(seat)[:20])
    if seat == viewer.seat:
        raise InvalidRequest(gettext_noop("you cannot mute yourself"))
