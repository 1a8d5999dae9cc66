"""Lists of games: which a user may see, in what order (by the event each
viewer sees, so a delayed spectator's list tells nothing new), and each
game's summary line."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, When

from games.engines import base
from games.models import Game, Seat, listed_at, seen_late
from games.selectors.viewers import viewer_of
from games.stream import store
from games.stream.lru import LRU

MOVE_KINDS = ("action", "timeout")


def games_for(
    user,
    *,
    mine: bool = False,
    to_act: bool = False,
    player: str | None = None,
    title: str | None = None,
    status: str | None = None,
) -> QuerySet[Game]:
    """Games the user may list: their own, and public ones unless `mine`;
    narrowed to those `player` (a username) sits at, of `title`, in
    `status`.  Seats are asked with EXISTS rather than joined, so no game
    comes twice and the database needs no DISTINCT over the list before
    sorting."""
    games = _visible(user, mine=mine, to_act=to_act)
    if player:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"),
                                                        user__username=player)))  # fmt: skip
    if title:
        games = games.filter(title=title)
    if status:
        games = games.filter(status=status)
    return games


def _visible(user, *, mine: bool, to_act: bool) -> QuerySet[Game]:
    if not user.is_authenticated:
        games = Game.objects.none() if (mine or to_act) else Game.objects.filter(public=True)
        return games.prefetch_related("seats__user")
    seats = Seat.objects.filter(game=OuterRef("pk"), user=user)
    if to_act:
        games = Game.objects.filter(Exists(seats.filter(to_act=True)))
    elif mine:
        games = Game.objects.filter(Exists(seats))
    else:
        games = Game.objects.filter(Q(Exists(seats)) | Q(public=True))
    return games.prefetch_related("seats__user")


def behind(user) -> Q:
    """The games `user` sees late, as SQL: the rule of `viewer_of` and
    `held_back` (public, running, with a delay, no seat of theirs but a
    replaced one), for lists to sort and page by in the database."""
    if getattr(user, "is_moderator", False):
        return Q(pk__in=[])
    delayed = seen_late()
    if not user.is_authenticated:
        return delayed
    theirs = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return delayed & ~Q(Exists(theirs.exclude(status=Seat.Status.REPLACED)))


def newest_first(
    games: QuerySet[Game], user, *, mine: bool = False, others: bool = False
) -> QuerySet[Game]:
    """`games`, the most recently updated first as far as `user` may know:
    a game whose spectators see it late sorts by the time of the event they
    see (kept on its row: games.stream.spectators), or its place in the list
    would tell them that it moved; its own players see it as it is.  The
    database sorts and pages for everyone.

    That order is the index's (games.models.listed_at) for everyone who
    holds no seat in such a game, nearly everyone: their page is read off
    the index, at a million games as at ten.  A player who does is the one
    viewer the index cannot serve, and the database sorts what their
    filters let through.  `others`: none of `games` is the user's, so the
    strangers' order is theirs without asking; `mine`: all of them are (a
    player's own games, few enough to sort)."""
    if getattr(user, "is_moderator", False):
        return games.order_by("-updated_at", "-id")
    if mine or (not others and user.is_authenticated and _plays_delayed(user)):
        at = Case(When(behind(user), then=F("spectator_at")), default=F("updated_at"))
        return games.annotate(listed_at=at).order_by("-listed_at", "-id")
    return games.annotate(listed_at=listed_at()).order_by("-listed_at", "-id")


def _plays_delayed(user) -> bool:
    """Whether `user` holds a seat in a game that strangers see late, where
    their list's order is not the strangers' (`behind`).  Asked from those
    games' side (their index, games.models.Game.Meta): a player of five
    hundred games would otherwise read them all."""
    seats = Seat.objects.filter(game=OuterRef("pk"), user=user).exclude(
        status=Seat.Status.REPLACED
    )
    return Game.objects.filter(seen_late(), Exists(seats)).exists()


# The largest OFFSET + LIMIT the databases take (a signed 64-bit integer).
LAST_ROW = 2**63 - 1


def page_rows(rows, number: int, size: int) -> tuple[list[Any], bool]:
    """Page `number` (from 1) of `size` rows of the sliceable `rows`, and
    whether a next page exists: one row more is read than is shown, so a
    long list is never counted to page it (the archive, the API's list: a
    count of a million games took half a second)."""
    start = (number - 1) * size
    if start + size + 1 > LAST_ROW:
        return [], False  # no list is that long, and no database takes the offset
    found = list(rows[start : start + size + 1])
    return found[:size], len(found) > size


def shown_seq(user) -> Case:
    """The seq `user` sees of each game, as SQL (a delayed spectator's point)."""
    return Case(When(behind(user), then=F("spectator_seq")), default=F("seq"))


def summary(game: Game, user) -> dict[str, Any]:
    """A game in the list, as `user` may see it: a delayed spectator's stands
    at their head, like the game's detail."""
    seats = list(game.seats.all())
    viewer = viewer_of(game, user, seats)
    current = viewer.head == game.seq
    return {
        "id": game.pk,
        "title": game.title,
        "status": game.status,
        "seq": viewer.head,
        "players": [{"seat": seat.index, "username": seat.user.username} for seat in seats],
        "to_act": game.to_act if current else spectators_to_act(game),
        "deadline": game.deadline.isoformat() if game.deadline and not viewer.delayed else None,
        "updated_at": (game.updated_at if current else game.spectator_at).isoformat(),
    }


_to_act_seen = LRU(settings.CORREO_STATE_CACHE_SIZE)


def spectators_to_act(game: Game) -> list[int]:
    """Who was to act where the game's spectators stand, memoised per that
    point: the stream up to it never changes, so the key needs no head.  A
    list needs this of a delayed game only once its spectators' point
    moves, not at each of the players' pauses or notes."""
    key = (game.pk, game.spectator_seq, game.spectator_at)

    def replayed() -> list[int]:
        engine = base.get(game.title)
        return sorted(engine.to_act(store.load(game, engine, head=game.spectator_seq).state))

    return _to_act_seen.get_or_compute(key, replayed)
