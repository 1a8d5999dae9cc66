"""A moderator suspends an account, and lifts the suspension.

A suspended account cannot log in (accounts.backends), its API tokens are
refused (accounts.authentication, accounts.token_memory), its moves and mail are refused
(`common.require_not_suspended`, notifications.inbound).  Its games go on
without it: nothing pauses its clocks, so its seats time out by each game's
policy, unless a moderator hands them to another player
(`replacement.check_replace_seat`), and a game whose table asked for it
offers its seat in the lobby at once (`seat_offers.do_offer_seats_of`).  A
vacation it cannot start either.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import token_memory
from accounts.models import Suspension, User
from games.errors import Conflict, InvalidRequest
from games.models import Vacation
from games.services import seat_offers
from games.services.common import REASON_LENGTH, require_moderator, required_reason, text_field


def check_suspend(user: User, moderator, *, reason) -> Suspension:
    require_moderator(moderator)
    reason = required_reason(reason)
    if user.pk == moderator.pk:
        raise InvalidRequest(gettext_noop("you cannot suspend yourself"))
    return do_suspend(user, by=moderator, reason=reason)


def do_suspend(user: User, *, by, reason: str) -> Suspension:
    now = timezone.now()
    with transaction.atomic():
        if not User.objects.filter(pk=user.pk, suspended=False).update(suspended=True):
            raise Conflict(gettext_noop("%(name)s is suspended already"), name=user.username)
        user.suspended = True
        suspension = Suspension.objects.create(user=user, reason=reason, suspended_by=by)
        # A vacation ends with the suspension: a seat coming to act gets its
        # time from now, not from the vacation's end.  Deadlines the vacation
        # moved when it began stay where they are.
        Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).update(ends_at=now)
        seat_offers.do_offer_seats_of(user)
    # This process trusts none of the account's tokens it looked up before
    # now (a lookup racing the suspension included); the others within
    # CORREO_TOKEN_CACHE_SECONDS, as for a revoked token.
    token_memory.forget_user(user.pk)
    return suspension


def check_unsuspend(user: User, moderator, *, reason="") -> Suspension:
    require_moderator(moderator)
    reason = text_field(reason, REASON_LENGTH, None)
    return do_unsuspend(user, by=moderator, reason=reason)


def do_unsuspend(user: User, *, by, reason: str) -> Suspension:
    with transaction.atomic():
        suspension = (
            Suspension.objects.select_for_update()
            .filter(user=user, lifted_at__isnull=True)
            .first()
        )
        if suspension is None:
            raise Conflict(gettext_noop("%(name)s is not suspended"), name=user.username)
        suspension.lifted_at, suspension.lifted_by = timezone.now(), by
        suspension.lift_reason = reason
        suspension.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        User.objects.filter(pk=user.pk).update(suspended=False)
        user.suspended = False
    return suspension
