"""Tables: a game being gathered, before it starts.

A host opens a table (title, seats, options, clock, who may watch, whether
the lobby lists it, how seats are ordered) and takes its first seat.  Others
take a seat themselves: from the lobby when the table is open, by a link the
host hands out, or by accepting an invitation (games.services.invitations).
Anyone seated may leave before the start; the host may remove a player and
start once the minimum is seated; a full table starts by itself.  Starting
is `games.services.creation.do_create_game`, today's creation, so the game's
commitment, clocks and seals are those of every other game.

Why tables live in the game service and not in an app of their own: a
table's start creates its game in the same transaction that takes the last
seat (so a table starts exactly once, under its row lock), the old
`POST /api/games/` door asks the invitations whether a player consented
(`check_create_game`), and the mail door (notifications), the pages (web)
and the API reach tables as they reach games, from above.  A separate app
would sit between `games` and `notifications` and need the same hooks.  Its
mail goes out as games' does, through a hook the outbox listens to
(`hooks.on_table_notice`), in the act's own transaction.

Concurrency: every act on a table locks its row first (`select_for_update`),
so two people taking the last seat at the same moment are served one after
the other: the first fills the table and starts the game, the second finds
it started.  An account's row is locked after a table's, never before, when
its waiting tables are counted.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import bots
from games import hooks
from games.clocks import options as clock_options
from games.engines import base
from games.engines import bots as engine_bots
from games.errors import (
    Conflict,
    Forbidden,
    InvalidLink,
    InvalidRequest,
    NotFound,
)
from games.models import Event, Game, Invitation, InviteLink, Press, Table, TableSeat
from games.selectors import blocks, invite_tokens
from games.services.common import (
    locked_table,
    require_host,
    require_room_for_a_game,
    require_room_for_a_table,
    require_waiting,
    seated_users,
    table_facts,
)
from games.services.creation import do_create_game

SEAT_ORDERS = tuple(Table.SeatOrder.values)


def _expiry_from(now: datetime.datetime) -> datetime.datetime:
    return now + datetime.timedelta(days=settings.CORREO_TABLE_EXPIRY_DAYS)


def check_create_table(
    host,
    *,
    title: str,
    seats: Any = None,
    options: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    public: bool = True,
    open: bool = True,
    seat_order: str = Table.SeatOrder.RANDOM,
    spectator_delay: int = 0,
    press: str = Press.FULL,
    reveal_private: bool = True,
    rated: bool = True,
    requirements: dict[str, Any] | None = None,
    offer_seats: bool = False,
    source: str = Event.Source.API,
) -> Table:
    """A person opens a table and takes its first seat.  They may sit at no
    more than CORREO_MAX_WAITING_TABLES waiting tables, and must have room
    for one more running game they started (the game will be theirs)."""
    if bots.is_bot(host):
        raise Forbidden(gettext_noop("a bot cannot open a table"))
    engine = _engine(title)
    least, most = _seats(engine, seats)
    resolved = engine.resolve_options(options)
    clock_options.parse(clock)
    if not isinstance(public, bool) or not isinstance(open, bool):
        raise InvalidRequest(gettext_noop("public and open must be true or false"))
    if type(spectator_delay) is not int or not 0 <= spectator_delay <= 1000:
        raise InvalidRequest(
            gettext_noop("spectator_delay must be a number of moves from 0 to 1000")
        )
    if seat_order not in SEAT_ORDERS:
        raise InvalidRequest(
            gettext_noop("seat_order must be one of: %(names)s"), names=", ".join(SEAT_ORDERS)
        )
    if press not in Press.values:
        raise InvalidRequest(gettext_noop("press must be full, public or none"))
    if not isinstance(reveal_private, bool):
        raise InvalidRequest(gettext_noop("reveal_private must be true or false"))
    if not isinstance(rated, bool):
        raise InvalidRequest(gettext_noop("rated must be true or false"))
    if not isinstance(offer_seats, bool):
        raise InvalidRequest(gettext_noop("offer_seats must be true or false"))
    if offer_seats and not public:
        raise InvalidRequest(gettext_noop(
            "offer_seats needs a public game: an offered seat is listed in the lobby"
        ))  # fmt: skip
    requirements = _checked_requirements(requirements)
    with transaction.atomic():
        if not getattr(host, "is_moderator", False):
            require_room_for_a_game(host)
        require_room_for_a_table(host)
        return do_create_table(
            host, title=title, least=least, most=most, options=resolved, clock=clock,
            public=public, open=open, seat_order=seat_order, spectator_delay=spectator_delay,
            press=press, reveal_private=reveal_private, source=source, rated=rated,
            requirements=requirements, offer_seats=offer_seats,
        )  # fmt: skip


def do_create_table(
    host,
    *,
    title: str,
    least: int,
    most: int,
    options: dict[str, Any],
    clock: dict[str, Any] | None,
    public: bool,
    open: bool,
    seat_order: str,
    spectator_delay: int,
    press: str = Press.FULL,
    reveal_private: bool = True,
    source: str = Event.Source.API,
    rematch_of: Game | None = None,
    planned_order: list[str] | None = None,
    rated: bool = True,
    requirements: dict[str, Any] | None = None,
    offer_seats: bool = False,
) -> Table:
    """Open the table with `host` in its first seat and a link to hand
    out; a table of one seat starts at once."""
    now = timezone.now()
    table = Table.objects.create(
        title=title, options=options, clock=clock, public=public, open=open,
        spectator_delay=spectator_delay, seat_order=seat_order, min_seats=least,
        max_seats=most, seated=1, host=host, expires_at=_expiry_from(now),
        rematch_of=rematch_of, planned_order=planned_order or [], press=press,
        reveal_private=reveal_private, rated=rated, requirements=requirements or {},
        offer_seats=offer_seats,
    )  # fmt: skip
    TableSeat.objects.create(table=table, user=host)
    InviteLink.objects.create(table=table, nonce=invite_tokens.new_nonce())
    if table.seated >= table.max_seats:
        do_start_table(table, actor=host, source=source)
    return table


REQUIREMENTS = {
    # the least rating (ordinal) in the table's title, and the most
    # timeouts per 100 moves: what the `ratings` app checks on joining
    "min_rating": (-100.0, 100.0),
    "max_timeouts_per_100": (0.0, 100.0),
}


def _checked_requirements(requirements: object) -> dict[str, float]:
    """A table's `requirements`, checked: an object of known names with
    numbers in range."""
    if requirements in (None, {}):
        return {}
    if not isinstance(requirements, dict) or not set(requirements) <= set(REQUIREMENTS):
        raise InvalidRequest(
            gettext_noop("requirements must be an object with some of: %(names)s"),
            names=", ".join(REQUIREMENTS),
        )
    checked = {}
    for name, value in requirements.items():
        least, most = REQUIREMENTS[name]
        if type(value) not in (int, float) or not least <= value <= most:
            raise InvalidRequest(
                gettext_noop("%(name)s must be a number from %(least)s to %(most)s"),
                name=name, least=least, most=most,
            )  # fmt: skip
        checked[name] = float(value)
    return checked


def _engine(title: object) -> base.Engine:
    try:
        return base.get(title) if isinstance(title, str) else base.get("")
    except KeyError:
        raise InvalidRequest(gettext_noop("unknown title %(title)r"), title=title) from None


def _seats(engine: base.Engine, seats: Any) -> tuple[int, int]:
    """(least, most) players from `seats`: a number, {min, max}, or None
    for the title's whole range."""
    if seats is None:
        least, most = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    elif type(seats) is int:
        least = most = seats
    elif isinstance(seats, dict) and set(seats) <= {"min", "max"}:
        least = seats.get("min", engine.MIN_PLAYERS)
        most = seats.get("max", engine.MAX_PLAYERS)
    else:
        raise InvalidRequest(gettext_noop("seats must be a number or {min, max}"))
    if (
        type(least) is not int
        or type(most) is not int
        or not (engine.MIN_PLAYERS <= least <= most <= engine.MAX_PLAYERS)
    ):
        raise InvalidRequest(
            gettext_noop("%(title)s takes %(least)s-%(most)s players"),
            title=engine.TITLE, least=engine.MIN_PLAYERS, most=engine.MAX_PLAYERS,
        )  # fmt: skip
    return least, most


def check_join_table(table_id: int, user, *, token: str | None = None, source: str = "api"):
    """A person takes a seat: at an open table, with a link's token, or with
    an invitation of theirs.  A table they may not see is not found, and
    neither is one where a player blocked them or they blocked a player
    (blocks are private)."""
    if bots.is_bot(user):
        raise Forbidden(gettext_noop("a bot cannot join a table"))
    with transaction.atomic():
        table = locked_table(table_id)
        link = _usable_link(table, token) if token is not None else None
        invitation = _pending_invitation(table, user)
        if not (table.open or link or invitation) or blocks.any_between(user, seated_users(table)):
            raise NotFound(gettext_noop("no such table"))
        return do_join_table(table, user, link=link, invitation=invitation, source=source)


def _usable_link(table: Table, token: object) -> InviteLink:
    """The link `token` names, if it still seats someone at this table."""
    link = invite_tokens.link_named(token)
    if link.table_id != table.pk:
        raise InvalidLink(gettext_noop("this invitation link is not valid"))
    if link.revoked_at is not None:
        raise InvalidLink(gettext_noop("the host has withdrawn this link"))
    if link.single_use and link.used_at is not None:
        raise InvalidLink(gettext_noop("this link was for one player, and was used"))
    if link.expires_at is not None and link.expires_at <= timezone.now():
        raise InvalidLink(gettext_noop("this invitation link has expired"))
    return link


def _pending_invitation(table: Table, user) -> Invitation | None:
    return (
        Invitation.objects.filter(table=table, user=user, status=Invitation.Status.PENDING)
        .exclude(hidden=True)
        .first()
    )


def do_join_table(
    table: Table,
    user,
    *,
    link: InviteLink | None = None,
    invitation: Invitation | None = None,
    source: str = "api",
) -> Table:
    """Seat `user` at the locked `table`; the seat that fills it starts it."""
    require_waiting(table)
    if table.seats.filter(user=user).exists():
        raise Conflict(gettext_noop("you already have a seat at this table"))
    if table.seated >= table.max_seats:
        raise Conflict(gettext_noop("the table is full"))
    if table.requirements:
        hooks.seat_requirements(table, user)
    require_room_for_a_table(user)
    now = timezone.now()
    TableSeat.objects.create(table=table, user=user)
    table.seated += 1
    table.expires_at = _expiry_from(now)
    table.save(update_fields=["seated", "expires_at"])
    if link is not None and link.single_use:
        link.used_at = now
        link.save(update_fields=["used_at"])
    if invitation is not None:
        invitation.status, invitation.answered_at = Invitation.Status.ACCEPTED, now
        invitation.save(update_fields=["status", "answered_at"])
    if table.seated >= table.max_seats:
        do_start_table(table, actor=user, source=source)
    return table


def check_seat_bot(table_id: int, user, kind: str) -> Table:
    """The host seats a bot (bots need no consent)."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_host(table, user)
        require_waiting(table)
        if kind not in engine_bots.kinds_for(base.get(table.title)):
            raise InvalidRequest(
                gettext_noop("%(title)s has no %(kind)s bot"),
                title=base.get(table.title).TITLE, kind=kind,
            )  # fmt: skip
        return do_seat_bot(table, kind)


def do_seat_bot(table: Table, kind: str, *, source: str = "api") -> Table:
    """Seat a bot of `kind` at the locked, waiting `table`."""
    if table.seated >= table.max_seats:
        raise Conflict(gettext_noop("the table is full"))
    TableSeat.objects.create(table=table, bot=kind)
    table.seated += 1
    table.save(update_fields=["seated"])
    if table.seated >= table.max_seats:
        do_start_table(table, actor=table.host, source=source)
    return table


def check_leave_table(table_id: int, user) -> Table:
    """A seated player leaves before the start.  A host who leaves hands the
    table to the player who sat down first after them; the last player out
    closes it."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_waiting(table)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise Conflict(gettext_noop("you have no seat at this table"))
        return do_give_up_seat(table, seat)


def check_remove_from_table(table_id: int, user, username: str) -> Table:
    """The host removes a seated player (`bot:<kind>` removes a bot)."""
    if not isinstance(username, str):
        raise InvalidRequest(gettext_noop("username must be a string"))
    with transaction.atomic():
        table = locked_table(table_id)
        require_host(table, user)
        require_waiting(table)
        if kind := bots.kind_named(username):
            seat = table.seats.filter(bot=kind).last()
        else:
            seat = table.seats.filter(user__username=username).first()
        if seat is None:
            raise Conflict(gettext_noop("%(name)s has no seat at this table"), name=username)
        if seat.user_id == user.pk:
            raise Conflict(gettext_noop("the host leaves a table rather than removing themself"))
        return do_give_up_seat(table, seat)


def do_give_up_seat(table: Table, seat: TableSeat) -> Table:
    """Free `seat` at the locked, waiting `table`.  A host who leaves hands
    the table to the player who sat down first after them; a table no
    person sits at any more closes."""
    leaving = seat.user_id
    seat.delete()
    table.seated -= 1
    fields = ["seated"]
    if not table.seats.exclude(user=None).exists():
        table.status, table.ended_at = Table.Status.CLOSED, timezone.now()
        fields += ["status", "ended_at"]
        _withdraw_invitations(table)
    elif leaving is not None and leaving == table.host_id:
        table.host = seated_users(table)[0]
        fields.append("host")
    table.save(update_fields=fields)
    return table


def check_start_table(
    table_id: int, user, *, order: list[str] | None = None, source: str = "api"
) -> Table:
    """The host starts the game once the minimum is seated; with the seat
    order `host`, `order` names the seated players (usernames, bots as
    `bot:<kind>`) in the order they will sit."""
    with transaction.atomic():
        table = locked_table(table_id)
        require_host(table, user)
        require_waiting(table)
        if table.seated < table.min_seats:
            raise Conflict(
                gettext_noop("the table needs at least %(least)s players to start"),
                least=table.min_seats,
            )
        if order is not None and table.seat_order != Table.SeatOrder.HOST:
            raise InvalidRequest(gettext_noop("order is given only at a table whose host orders"))
        return do_start_table(table, actor=user, order=order, source=source)


def do_start_table(
    table: Table, *, actor=None, order: list[str] | None = None, source: str = "api"
) -> Table:
    """Create the game of the locked, waiting `table` with its seated
    players, through the same creation every game goes through, and tell
    them.  Called once per table: the row lock and the status it sets see
    to that."""
    seats = list(table.seats.select_related("user"))
    players = _ordered(table, seats, order)
    game = do_create_game(
        title=table.title, players=players, options=table.options, creator=table.host,
        source=source, public=table.public, spectator_delay=table.spectator_delay,
        clock=table.clock, press=table.press, reveal_private=table.reveal_private,
        rated=table.rated, offer_seats=table.offer_seats,
    )  # fmt: skip
    table.status, table.game, table.ended_at = Table.Status.STARTED, game, timezone.now()
    table.save(update_fields=["status", "game", "ended_at"])
    _withdraw_invitations(table)
    _tell_started(table, game, seats)
    return table


def _ordered(table: Table, seats: list[TableSeat], order: list[str] | None) -> list:
    """The players in seat order: as they sat down, shuffled, or as the host says."""
    entries = [seat.user if seat.user is not None else bots.Wanted(seat.bot) for seat in seats]
    if order is None and table.planned_order:
        # The order planned beforehand (a rematch's rotation), for those of
        # it who sat down; anyone else after them, as they joined.
        planned = {name: place for place, name in enumerate(table.planned_order)}
        return sorted(entries, key=lambda e: planned.get(_entry_name(e), len(planned)))
    if table.seat_order == Table.SeatOrder.RANDOM:
        secrets.SystemRandom().shuffle(entries)
    elif table.seat_order == Table.SeatOrder.HOST and order is not None:
        names = [_entry_name(entry) for entry in entries]
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(names):
            raise InvalidRequest(
                gettext_noop("order must name each seated player once: %(names)s"),
                names=", ".join(names),
            )
        remaining = list(entries)
        ordered = []
        for name in order:
            entry = next(e for e in remaining if _entry_name(e) == name)
            remaining.remove(entry)
            ordered.append(entry)
        entries = ordered
    return entries


def _entry_name(entry) -> str:
    return f"{bots.PREFIX}{entry.kind}" if isinstance(entry, bots.Wanted) else entry.username


def _withdraw_invitations(table: Table) -> None:
    table.invitations.filter(status=Invitation.Status.PENDING).update(
        status=Invitation.Status.WITHDRAWN, answered_at=timezone.now()
    )


def _tell_started(table: Table, game: Game, seats: list[TableSeat]) -> None:
    players = list(game.seats.order_by("index").values_list("user__username", flat=True))
    for seat in seats:
        if seat.user is None:
            continue
        hooks.table_noticed(
            hooks.Notice(
                kind="table_started", table=table, user=seat.user,
                key=f"table_started:{table.pk}:{seat.user_id}",
                context={**table_facts(table), "game": game.pk, "players": players},
            )
        )  # fmt: skip


def do_expire_table(table: Table) -> Table:
    """The locked, waiting `table` has waited too long: it expires and its
    players are told."""
    table.status, table.ended_at = Table.Status.EXPIRED, timezone.now()
    table.save(update_fields=["status", "ended_at"])
    _withdraw_invitations(table)
    for user in seated_users(table):
        hooks.table_noticed(
            hooks.Notice(
                kind="table_expired", table=table, user=user,
                key=f"table_expired:{table.pk}:{user.pk}",
                context={**table_facts(table), "days": settings.CORREO_TABLE_EXPIRY_DAYS},
            )
        )  # fmt: skip
    return table
