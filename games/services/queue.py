"""The moderators' queue: items filed for a game (a clock's `moderator`
policy or a failed timeout flagged it, `verify_games --flag` found it
broken, a player reported it), which a moderator takes and closes.

Items are not events: a report may come from a spectator, and the queue is
the moderators' work list, not the game's history.  What a moderator then
does to the game is an event, through the other service modules.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import Conflict, InvalidRequest, NotFound
from games.models import Event, Game, ModerationItem
from games.selectors import talk, viewers
from games.services.common import (
    REASON_LENGTH,
    require_moderator,
    require_not_suspended,
    text_field,
)
from ops.keys import LARGEST_ID

Kind, State = ModerationItem.Kind, ModerationItem.State
NOTE_LENGTH = 2000
UNCLOSED = (State.OPEN, State.TAKEN)


def do_file_item(game: Game, kind: str, reason: str) -> ModerationItem | None:
    """An item of `kind` (flagged, verify) for the game, unless one is still
    open or taken: a game flagged again before a moderator closed the first
    item needs no second one.  None when there is one."""
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        if ModerationItem.objects.filter(game=game, kind=kind, state__in=UNCLOSED).exists():
            return None
        return ModerationItem.objects.create(game=game, kind=kind, reason=reason)


def check_flag_broken(game: Game, problems: list[str]) -> ModerationItem | None:
    """`verify_games --flag`: an item for a game whose stream fails the checks."""
    if not problems or not all(isinstance(problem, str) for problem in problems):
        raise InvalidRequest(gettext_noop("a broken game is filed with its problems"))
    return do_file_item(game, Kind.VERIFY, "\n".join(problems))


def check_report(game: Game, user, *, reason) -> ModerationItem:
    """Anyone who may see the game (a player; any account for a public
    game) reports it to the moderators, once until the report is closed."""
    require_not_suspended(user)
    viewers.viewer_of(game, user)  # refuses a stranger to a private game
    reason = text_field(reason, REASON_LENGTH, gettext_noop("a report needs a reason"))
    return do_report(game, user, reason=reason)


def do_report(game: Game, user, *, reason: str) -> ModerationItem:
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        mine = ModerationItem.objects.filter(
            game=game,
            kind=Kind.REPORT,
            reported_by=user,
            state__in=UNCLOSED,
            message_seq=None,
        )
        if mine.exists():
            raise Conflict(
                gettext_noop("you reported this game already; a moderator will look at it")
            )
        return ModerationItem.objects.create(
            game=game, kind=Kind.REPORT, reason=reason, reported_by=user
        )


def check_report_message(game: Game, user, *, seq, reason) -> ModerationItem:
    """Someone who may read a message reports it to the moderators, once
    until the report is closed.  The item names the message by its seq; a
    moderator reads it in the audit, and may hide it
    (games.services.talk.check_hide_message)."""
    require_not_suspended(user)
    viewer = viewers.viewer_of(game, user)
    reason = text_field(reason, REASON_LENGTH, gettext_noop("a report needs a reason"))
    message = None
    if type(seq) is int and 1 <= seq <= viewer.head:
        message = Event.objects.filter(game=game, seq=seq, kind=Event.Kind.MESSAGE).first()
    readable = message is not None and talk.reader_for(game, viewer).state(message) != talk.SEALED
    if not readable or message.payload.get("to") == talk.MODERATORS:
        # One the reporter may not read is no more known to them than none.
        raise InvalidRequest(gettext_noop("there is no message %(seq)s you can read"),
                             seq=str(seq)[:20])  # fmt: skip
    return do_report_message(game, user, seq=seq, reason=reason)


def do_report_message(game: Game, user, *, seq: int, reason: str) -> ModerationItem:
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        mine = ModerationItem.objects.filter(
            game=game, kind=Kind.REPORT, reported_by=user, message_seq=seq, state__in=UNCLOSED
        )
        if mine.exists():
            raise Conflict(
                gettext_noop("you reported this message already; a moderator will look at it")
            )
        return ModerationItem.objects.create(
            game=game, kind=Kind.REPORT, reason=reason, reported_by=user, message_seq=seq
        )


def check_take(item_id: int, moderator, *, note="") -> ModerationItem:
    """A moderator takes an open item (the others see who handles it),
    with an optional note."""
    require_moderator(moderator)
    note = _note(note)
    fields = {"note": note} if note else {}
    return do_move_item(item_id, (State.OPEN,), State.TAKEN, taken_by=moderator,
                        taken_at=timezone.now(), **fields)  # fmt: skip


def check_close(item_id: int, moderator, *, note="") -> ModerationItem:
    """A moderator closes an open or taken item, with an optional note."""
    require_moderator(moderator)
    note = _note(note)
    fields = {"note": note} if note else {}
    return do_move_item(item_id, UNCLOSED, State.CLOSED, closed_by=moderator,
                        closed_at=timezone.now(), **fields)  # fmt: skip


def _note(note) -> str:
    return text_field(note, NOTE_LENGTH, None)


def do_move_item(item_id: int, sources, target: str, **fields) -> ModerationItem:
    """The item moved to `target`, if it is in one of `sources` (a conditional
    update: two moderators taking it at once cannot both win)."""
    if type(item_id) is not int or not 0 < item_id <= LARGEST_ID:
        raise NotFound(gettext_noop("no such item"))
    if not ModerationItem.objects.filter(pk=item_id).exists():
        raise NotFound(gettext_noop("no such item"))
    moved = ModerationItem.objects.filter(pk=item_id, state__in=sources).update(
        state=target, **fields
    )
    if not moved:
        state = ModerationItem.objects.values_list("state", flat=True).get(pk=item_id)
        raise Conflict(gettext_noop("the item is %(state)s"), state=state)
    return ModerationItem.objects.select_related("game").get(pk=item_id)
