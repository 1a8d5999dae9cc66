"""Replacement seats: a seat of a running game offered in the lobby.

A moderator offers a seat whose player will not play it on (suspended,
gone, out of time again and again); anyone may take it over, and taking it
is today's `seat_replaced` (games.services.replacement), so the seat keeps
its clock, turn order and view and the stream records who held it when.
The offer names the seat's holder when it was made: once the seat changed
hands otherwise, or the game ended, it lapses.  Blocks keep a taker out of a
game where an account kept apart from them plays, as at the tables.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import Conflict, Forbidden, InvalidRequest, NotFound
from games.models import Event, Game, Seat, SeatOffer
from games.selectors import blocks
from games.services.common import (
    active_seat_row,
    require_active,
    require_moderator,
    required_reason,
)
from games.services.replacement import do_replace_seat

# The reasons of the offers Correo makes by itself, in the lobby's words.
NO_LONGER_PLAYS = "its player can no longer play"
OUT_OF_TIME = "its player ran out of time"


def check_offer_seat(game: Game, moderator, *, seat, reason) -> SeatOffer:
    require_moderator(moderator)
    reason = required_reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_active(game)
        if not game.public:
            raise InvalidRequest(gettext_noop("only a public game's seat is offered in the lobby"))
        row = active_seat_row(game, seat)
        # An offer for the seat's former holder lapsed when it changed hands.
        open_offers = SeatOffer.objects.filter(game=game, seat=seat, closed_at=None)
        open_offers.exclude(holder_id=row.user_id).update(closed_at=timezone.now())
        if open_offers.exists():
            raise Conflict(gettext_noop("seat %(seat)s is offered already"), seat=seat)
        return do_offer_seat(game, row, moderator, reason=reason)


def do_offer_seat(game: Game, row: Seat, offered_by, *, reason: str) -> SeatOffer:
    return SeatOffer.objects.create(
        game=game, seat=row.index, holder_id=row.user_id, offered_by=offered_by, reason=reason
    )


def _offers_itself(game: Game) -> bool:
    """Whether `game` offers a lost player's seat without a moderator."""
    return game.offer_seats and game.public and game.status == Game.Status.ACTIVE


def do_offer_by_itself(game: Game, row: Seat, *, reason: str) -> SeatOffer | None:
    """Offer `row` as the table asked, in the caller's transaction, unless
    the game does not offer seats by itself or the seat is offered already
    (then None)."""
    if not _offers_itself(game) or row.status != Seat.Status.ACTIVE:
        return None
    if _is_offered(game, row.index):
        return None
    try:
        with transaction.atomic():
            return do_offer_seat(game, row, None, reason=reason)
    except IntegrityError:
        return None  # a moderator offered it at the same instant: once is enough


def _is_offered(game: Game, seat: int) -> bool:
    return SeatOffer.objects.filter(game=game, seat=seat, closed_at=None).exists()


def do_offer_seats_of(user) -> list[SeatOffer]:
    """Offer `user`'s seats in every running game that offers seats by
    itself (their account was suspended).  The reason names no suspension:
    the lobby shows it to everyone."""
    rows = Seat.objects.filter(
        user=user, status=Seat.Status.ACTIVE, game__status=Game.Status.ACTIVE,
        game__offer_seats=True, game__public=True,
    ).select_related("game")  # fmt: skip
    offered = (do_offer_by_itself(row.game, row, reason=NO_LONGER_PLAYS) for row in rows)
    return [offer for offer in offered if offer is not None]


def check_take_seat(offer_id: int, user, *, source: str = Event.Source.API) -> Event:
    """A person takes an offered seat over."""
    if getattr(user, "bot", "") or getattr(user, "suspended", False):
        raise Forbidden(gettext_noop("this account cannot take a seat"))
    with transaction.atomic():
        offer = SeatOffer.objects.select_for_update().filter(pk=offer_id).first()
        if offer is None or offer.closed_at is not None:
            raise NotFound(gettext_noop("no such seat on offer"))
        game = Game.objects.select_for_update().get(pk=offer.game_id)
        players = [s.user for s in Seat.objects.filter(game=game).select_related("user")]
        if blocks.any_between(user, players):
            raise NotFound(gettext_noop("no such seat on offer"))
        if any(player.pk == user.pk for player in players):
            raise InvalidRequest(gettext_noop("you already play in this game"))
        row = Seat.objects.filter(game=game, index=offer.seat).first()
        if game.status != Game.Status.ACTIVE or row is None or row.user_id != offer.holder_id:
            raise Conflict(gettext_noop("this seat is no longer on offer"))
        return do_take_seat(game, offer, user, source=source)


def do_take_seat(game: Game, offer: SeatOffer, user, *, source: str) -> Event:
    by = offer.offered_by.username if offer.offered_by else "the table's rule"
    reason = f"took over the seat offered by {by}: {offer.reason}"
    event = do_replace_seat(game, offer.seat, user, actor=user, reason=reason[:500], source=source)
    offer.taken_by, offer.closed_at = user, timezone.now()
    offer.save(update_fields=["taken_by", "closed_at"])
    return event


def do_close_offer(offer: SeatOffer) -> None:
    offer.closed_at = timezone.now()
    offer.save(update_fields=["closed_at"])


def check_withdraw_offer(offer_id: int, moderator) -> SeatOffer:
    require_moderator(moderator)
    with transaction.atomic():
        offer = SeatOffer.objects.select_for_update().filter(pk=offer_id, closed_at=None).first()
        if offer is None:
            raise NotFound(gettext_noop("no such seat on offer"))
        do_close_offer(offer)
        return offer
