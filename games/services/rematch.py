"""A rematch: the same players, title, options and clock at a new table.

A player of a game that has ended opens it (they are its host and take the
first seat); every other person who played is invited and must accept, as at
any table; the bots that played are seated at once.  The seats are rotated
by default (whoever sat second sits first), kept, or drawn at random.  The
table is unlisted: it is for these players.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext_noop

from accounts import bots
from games.errors import Conflict, InvalidRequest, NotASeat
from games.models import Game, Seat, Table
from games.services.common import require_room_for_a_game, require_room_for_a_table
from games.services.invitations import do_invite
from games.services.tables import do_create_table, do_seat_bot

ORDERS = ("rotate", "keep", "random")


def check_rematch(game: Game, user, *, order: str = "rotate") -> Table:
    if order not in ORDERS:
        raise InvalidRequest(gettext_noop("order must be one of: %(names)s"),
                             names=", ".join(ORDERS))  # fmt: skip
    seats = list(
        Seat.objects.filter(game=game).exclude(status=Seat.Status.REPLACED)
        .select_related("user").order_by("index")
    )  # fmt: skip
    if not any(seat.user_id == user.pk for seat in seats):
        raise NotASeat(gettext_noop("only the game's players may ask for a rematch"))
    if game.status == Game.Status.ACTIVE:
        raise Conflict(gettext_noop("the game is still running: a rematch follows its end"))
    with transaction.atomic():
        if not getattr(user, "is_moderator", False):
            require_room_for_a_game(user)
        require_room_for_a_table(user)
        return do_rematch(game, user, [seat.user for seat in seats], order=order)


def do_rematch(game: Game, host, players: list, *, order: str = "rotate") -> Table:
    names = [_name(player) for player in players]
    if order == "rotate":
        names = names[1:] + names[:1]
    elif order == "random":
        secrets.SystemRandom().shuffle(names)
    table = do_create_table(
        host, title=game.title, least=len(players), most=len(players), options=game.options,
        clock=_clock_as_given(game.clock), public=game.public, open=False,
        seat_order=Table.SeatOrder.HOST, spectator_delay=game.spectator_delay,
        rematch_of=game, planned_order=names, press=game.press,
        reveal_private=game.reveal_private, rated=game.rated, offer_seats=game.offer_seats,
    )  # fmt: skip
    for player in players:
        if bots.is_bot(player):
            do_seat_bot(table, player.bot)
        elif player.pk != host.pk:
            do_invite(table, host, invitee=player)
    return table


def _name(user) -> str:
    return f"{bots.PREFIX}{user.bot}" if bots.is_bot(user) else user.username


def _clock_as_given(clock: dict | None) -> dict | None:
    """A game's stored clock (seconds) as a table takes it: every field the
    clock parser reads, durations as whole seconds."""
    if not clock:
        return None
    given = {key: clock[key] for key in ("per_move", "reminders", "on_timeout",
                                          "max_timeouts", "vacation") if key in clock}  # fmt: skip
    return given
