"""A moderator hands a seat to another player.

The seat's row keeps its index and is given the new user: its clock, its
place in the turn order and its view (hidden information is the seat's, not
the person's) carry over, and everything that finds a player by their seat
(`sql.active_seat`, the selectors, the outbox, a reply address's check that
the sender still holds the seat) sees the new player at once.  Who held the
seat before is in the stream (the `seat_replaced` event), which is what
`games.audit.verification` follows.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_noop

from accounts.models import User
from games.errors import InvalidRequest
from games.models import Event, Game, Seat
from games.services.common import (
    active_seat_row,
    require_active,
    require_moderator,
    required_reason,
)
from games.stream import store


def check_replace_seat(game: Game, moderator, *, seat, username, reason) -> Event:
    """A moderator gives `seat` to the player `username` (an active account
    that holds no seat in the game), with a reason."""
    require_moderator(moderator)
    reason = required_reason(reason)
    fits = isinstance(username, str) and len(username) <= 150 and username.isprintable()
    user = User.objects.filter(username=username).first() if fits else None
    game.refresh_from_db()
    require_active(game)
    active_seat_row(game, seat)
    if user is None or not user.is_active or user.suspended:
        raise InvalidRequest(gettext_noop("no such player: %(names)s"), names=str(username)[:150])
    if user.bot:
        raise InvalidRequest(
            gettext_noop("%(name)s is a bot: hand the seat to a bot instead"), name=user.username
        )
    if Seat.objects.filter(game=game, user=user).exists():
        raise InvalidRequest(
            gettext_noop("%(name)s already plays in this game"), name=user.username
        )
    return do_replace_seat(
        game, seat, user, actor=moderator, reason=reason, source=Event.Source.MODERATOR
    )


def do_replace_seat(
    game: Game, seat: int, user, *, actor, reason: str, source: str, bot: str = ""
) -> Event:
    """`user` takes `seat` over, from the current head on; `bot` names the
    kind when the new player is a bot (games.services.bots), which the
    game's bot seats then follow."""
    with transaction.atomic():
        row = Seat.objects.select_for_update().select_related("user").get(game=game, index=seat)
        previous = row.user
        # The seat changes hands before the event is appended, so the append's
        # listeners (deadlines, the outbox) already see the new player.
        Seat.objects.filter(pk=row.pk).update(user=user, timeouts=0)
        payload = {
            "seat": seat, "user": user.pk, "username": user.username,
            "previous": previous.pk, "previous_username": previous.username, "reason": reason,
        }  # fmt: skip
        if bot:
            payload["bot"] = bot
        others = [index for index in game.bot_seats if index != seat]
        return store.append(
            game, expected_seq=game.seq, kind=Event.Kind.SEAT_REPLACED, source=source,
            seat=seat, actor=actor, head_hash=game.head_hash, payload=payload,
            derived={"bot_seats": sorted([*others, seat]) if bot else others},
        )  # fmt: skip
