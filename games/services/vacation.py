"""Starting a vacation: a yearly budget of days in which a player's clocks
stand still in every game they play (games may opt out with
clock.vacation = false).  The budget is read in `games.clocks.vacation`."""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.clocks import deadlines
from games.clocks.vacation import budget, used_days
from games.errors import InvalidRequest, StaleSeq
from games.models import Game, Seat, Vacation
from games.services import clocks
from games.services.common import require_not_suspended

log = logging.getLogger(__name__)


def check_start_vacation(user, *, days: int, now: datetime.datetime | None = None) -> Vacation:
    """A player begins a vacation now, within their budget."""
    # A suspended player's clocks keep running: their seats time out by each
    # game's policy unless a moderator hands them over.
    require_not_suspended(user)
    now = now or timezone.now()
    if type(days) is not int or days < settings.CORREO_VACATION_MIN_DAYS:
        raise InvalidRequest(
            gettext_noop("a vacation lasts at least %(days)s day(s)"),
            days=settings.CORREO_VACATION_MIN_DAYS,
        )
    if used_days(user, now.year) + days > settings.CORREO_VACATION_DAYS_PER_YEAR:
        raise InvalidRequest(
            gettext_noop("not enough vacation left this year (%(days)s days)"),
            days=budget(user, now)["left"],
        )
    if deadlines.vacation_end(user.pk, now):
        raise InvalidRequest(gettext_noop("you are already on vacation"))
    return do_start_vacation(user, length=datetime.timedelta(days=days), now=now)


def do_start_vacation(user, *, length: datetime.timedelta, now: datetime.datetime) -> Vacation:
    """Book the vacation, then tell each of the player's games.

    The booking commits first and each game is its own short transaction: a
    move in one game costs that game a retry, not the whole vacation.  A game
    still untold when this returns (or when the process dies) is told by the
    next sweep (`do_announce_vacation` of every vacation not yet announced).
    """
    vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=now + length)
    do_announce_vacation(vacation)
    return vacation


def do_announce_vacation(vacation: Vacation) -> list[int]:
    """Tell every game of the player that has not been told; once all have,
    the vacation is announced.  Returns the games left for a later try."""
    seats = Seat.objects.filter(
        user_id=vacation.user_id, status=Seat.Status.ACTIVE, game__status=Game.Status.ACTIVE
    ).order_by("game_id")
    left = []
    for game_id, index in seats.values_list("game_id", "index"):
        try:
            clocks.do_vacation_notice(game_id, index, vacation)
        except StaleSeq:
            log.warning("vacation %s: game %s kept moving; the sweep tells it",
                        vacation.pk, game_id)  # fmt: skip
            left.append(game_id)
    if not left:
        Vacation.objects.filter(pk=vacation.pk).update(announced_at=timezone.now())
    return left
