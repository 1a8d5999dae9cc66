"""Tables as each person may see them: the lobby, one table, my invitations.

Who sees a table: anyone (logged in or not) an open one; its seated players,
its invitees and whoever holds a valid link any one; moderators all.  Blocks
hide a table from both sides: a person never sees a waiting table where an
account they blocked, or that blocked them, holds a seat (the lobby leaves
it out, its page is not found), and is told nothing of why.  Only the host
sees the table's link, and only its players the names of those invited.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext_noop

from games import hooks
from games.engines import base
from games.errors import NotFound
from games.models import Invitation, InviteLink, Table, TableSeat
from games.selectors import blocks, invite_tokens


def lobby(user, *, title: str | None = None, open_only: bool = True) -> QuerySet[Table]:
    """Waiting tables with free seats, newest first: the open ones, and (when
    not `open_only`) also those where `user` sits or is invited.  Tables
    where an account kept apart from `user` sits are left out."""
    tables = Table.objects.filter(status=Table.Status.WAITING)
    listed = Q(open=True, seated__lt=F("max_seats"))
    if not open_only and getattr(user, "is_authenticated", False):
        seated = TableSeat.objects.filter(table=OuterRef("pk"), user=user)
        invited = Invitation.objects.filter(
            table=OuterRef("pk"), user=user, status=Invitation.Status.PENDING, hidden=False
        )
        listed |= Q(Exists(seated)) | Q(Exists(invited))
    tables = tables.filter(listed)
    if title:
        tables = tables.filter(title=title)
    apart = blocks.apart(user)
    if apart:
        tables = tables.exclude(
            Exists(TableSeat.objects.filter(table=OuterRef("pk"), user_id__in=apart))
        )
    return tables.order_by("-created_at", "-id")


def mine_waiting(user) -> QuerySet[Table]:
    """The waiting tables where `user` holds a seat, newest first."""
    return Table.objects.filter(status=Table.Status.WAITING, seats__user=user).order_by(
        "-created_at", "-id"
    )


def with_seats(tables: QuerySet[Table]) -> QuerySet[Table]:
    """The tables with their host and seats' players, reading only the
    names a table's answer shows (a list reads 25 tables in two queries)."""
    seats = TableSeat.objects.select_related("user").only(
        "table_id", "bot", "joined_at", "user__username"
    )
    return (
        tables.select_related("host")
        .defer(*HOST_UNREAD)
        .prefetch_related(Prefetch("seats", queryset=seats))
    )


# The host's columns no table answer reads.
HOST_UNREAD = [
    "host__password", "host__email", "host__first_name", "host__last_name",
    "host__webhook_url", "host__username_key", "host__username_look_key",
]  # fmt: skip


def table(pk: int) -> Table:
    found = with_seats(Table.objects.filter(pk=pk)).first()
    if found is None:
        raise NotFound(gettext_noop("no such table"))
    return found


def may_see(table: Table, user, *, token: str | None = None) -> bool:
    """Whether `user` may see `table` (a link's valid token lets anyone)."""
    authenticated = getattr(user, "is_authenticated", False)
    if authenticated and getattr(user, "is_moderator", False):
        return True
    people = [seat.user for seat in table.seats.all() if seat.user is not None]
    if authenticated and any(person.pk == user.pk for person in people):
        return True
    if authenticated and blocks.any_between(user, people):
        return False
    if table.open:
        return True
    if authenticated and invited(table, user):
        return True
    return token is not None and link_fits(table, token)


def visible(pk: int, user, *, token: str | None = None) -> Table:
    """The table, if `user` may see it; NotFound otherwise, as for a table
    that does not exist (an unlisted table's number tells nobody anything)."""
    found = table(pk)
    if not may_see(found, user, token=token):
        raise NotFound(gettext_noop("no such table"))
    return found


def invited(table: Table, user) -> bool:
    return Invitation.objects.filter(
        table=table, user=user, status=Invitation.Status.PENDING, hidden=False
    ).exists()


def link_fits(table: Table, token: str) -> bool:
    """Whether `token` is a live link to `table`."""
    from django.utils import timezone

    from games.errors import InvalidLink

    try:
        link = invite_tokens.link_named(token)
    except InvalidLink:
        return False
    return (
        link.table_id == table.pk
        and link.revoked_at is None
        and not (link.single_use and link.used_at is not None)
        and (link.expires_at is None or link.expires_at > timezone.now())
    )


def current_link(table: Table) -> InviteLink | None:
    """The host's newest link that still seats someone."""
    from django.utils import timezone

    links = table.links.filter(revoked_at=None).filter(
        Q(expires_at=None) | Q(expires_at__gt=timezone.now())
    )
    return links.exclude(single_use=True, used_at__isnull=False).order_by("-id").first()


def entry_name(seat: TableSeat) -> str:
    return seat.user.username if seat.user is not None else f"bot:{seat.bot}"


def title_name(name: str) -> str:
    try:
        return base.get(name).TITLE
    except KeyError:
        return name


def summary(table: Table, user=None) -> dict[str, Any]:
    """A table as the lobby lists it (seats prefetched)."""
    return {
        "id": table.pk,
        "title": table.title,
        "title_name": title_name(table.title),
        "host": table.host.username,
        "seats": {"min": table.min_seats, "max": table.max_seats},
        "players": [entry_name(seat) for seat in table.seats.all()],
        "free": table.free,
        "options": table.options,
        "clock": table.clock,
        "public": table.public,
        "open": table.open,
        "seat_order": table.seat_order,
        "spectator_delay": table.spectator_delay,
        "press": table.press,
        "reveal_private": table.reveal_private,
        "rated": table.rated,
        "offer_seats": table.offer_seats,
        "requirements": table.requirements or {},
        "status": table.status,
        "game": table.game_id,
        "created_at": table.created_at.isoformat(),
        "expires_at": table.expires_at.isoformat(),
    }


def listed(page: Sequence[Table]) -> list[dict[str, Any]]:
    """A page of the lobby: each table's summary, with what other apps add
    to it (hooks.table_rows: the players' ratings)."""
    rows = [summary(table) for table in page]
    hooks.tables_listed(page, rows)
    return rows


def detail(table: Table, user) -> dict[str, Any]:
    """One table as `user` may see it: the lobby's facts, whether they sit
    there, who is invited (to its players), and the link (to its host)."""
    authenticated = getattr(user, "is_authenticated", False)
    names = [seat.user_id for seat in table.seats.all()]
    seated = authenticated and user.pk in names
    answer = summary(table, user)
    answer["your_seat"] = bool(seated)
    answer["host_is_you"] = authenticated and table.host_id == user.pk
    answer["invited"] = invited_names(table) if seated else []
    answer["invite_url"] = answer["invite_token"] = None
    if answer["host_is_you"] and table.status == Table.Status.WAITING:
        link = current_link(table)
        if link is not None:
            answer["invite_token"] = invite_tokens.link_token(link)
            answer["invite_url"] = invite_path(table, answer["invite_token"])
            answer["link"] = {
                "single_use": link.single_use,
                "expires_at": link.expires_at.isoformat() if link.expires_at else None,
            }
    return answer


def link_record(link: InviteLink) -> dict[str, Any]:
    token = invite_tokens.link_token(link)
    return {
        "invite_token": token,
        "invite_url": invite_path(link.table, token),
        "single_use": link.single_use,
        "expires_at": link.expires_at.isoformat() if link.expires_at else None,
    }


def invite_path(table: Table, token: str) -> str:
    """The page link that carries a link's token (absolute in mail and API)."""
    from urllib.parse import urlencode

    from django.conf import settings

    path = reverse("web:table", args=[table.pk]) + "?" + urlencode({"token": token})
    return settings.CORREO_BASE_URL.rstrip("/") + path


def invited_names(table: Table) -> list[str]:
    """Who is invited and has not answered: usernames, and addresses shown
    only by their first letter and domain."""
    names = []
    pending = table.invitations.filter(status=Invitation.Status.PENDING).select_related("user")
    for invitation in pending.order_by("id"):
        if invitation.user is not None:
            names.append(invitation.user.username)
        else:
            local, _, domain = invitation.email.rpartition("@")
            names.append(f"{local[:1]}…@{domain}")
    return names


def invitations_for(user, *, pending_only: bool = True) -> list[dict[str, Any]]:
    """The invitations `user` received (hidden ones never), newest first."""
    found = Invitation.objects.filter(user=user, hidden=False)
    if pending_only:
        found = found.filter(status=Invitation.Status.PENDING)
    found = found.select_related("table", "table__host", "invited_by").order_by("-id")[:100]
    return [invitation_record(invitation) for invitation in found]


def invitation_record(invitation: Invitation) -> dict[str, Any]:
    table = invitation.table
    return {
        "id": invitation.pk,
        "table": table.pk,
        "title": table.title,
        "title_name": title_name(table.title),
        "from": invitation.invited_by.username,
        "host": table.host.username,
        "status": invitation.status,
        "seats": {"min": table.min_seats, "max": table.max_seats},
        "seated": table.seated,
        "created_at": invitation.created_at.isoformat(),
    }


def addressed(token: object) -> Invitation:
    """The address invitation a mail's token names, if it can still be
    answered (InvalidLink otherwise)."""
    from games.errors import InvalidLink

    invitation = invite_tokens.invitation_named(token)
    if invitation.status != Invitation.Status.PENDING:
        raise InvalidLink(gettext_noop("this invitation was answered or has lapsed"))
    return invitation


def seat_offers(user) -> list[dict[str, Any]]:
    """Seats of running public games offered to whoever takes them over,
    newest first: not those of games `user` plays, nor where an account
    kept apart from them plays, nor offers that lapsed (the seat changed
    hands, the game ended)."""
    from games.models import Game, Seat, SeatOffer

    # Open offers are few and often none: one indexed probe spares the
    # lobby the join below (a fifth of the page's time) when there are none.
    if not SeatOffer.objects.filter(closed_at=None).exists():
        return []
    offers = SeatOffer.objects.filter(
        closed_at=None, game__status=Game.Status.ACTIVE, game__public=True,
        game__seats__index=F("seat"), game__seats__user=F("holder"),
    ).select_related("game", "offered_by").order_by("-created_at", "-id")[:100]  # fmt: skip
    offers = list(offers)
    seats: dict[int, list] = {}
    for seat in Seat.objects.filter(game__in=[o.game_id for o in offers]).select_related("user"):
        seats.setdefault(seat.game_id, []).append(seat)
    apart = blocks.apart(user)
    mine = getattr(user, "pk", None)
    found = []
    for offer in offers:
        players = sorted(seats.get(offer.game_id, []), key=lambda seat: seat.index)
        ids = {seat.user_id for seat in players}
        if mine in ids or ids & apart:
            continue
        found.append({
            "id": offer.pk, "game": offer.game_id, "title": offer.game.title,
            "title_name": title_name(offer.game.title), "seat": offer.seat,
            "reason": offer.reason, "players": [seat.user.username for seat in players],
            "offered_at": offer.created_at.isoformat(),
        })  # fmt: skip
    return found
