"""A player's public profile: who they are on the server, what they played,
and how reliable a player they are as the event log shows it.

Reliability is read from the streams, not kept beside them:

- moves made: the player's own actions (a bot's or the timer's are not theirs);
- timeouts per 100 moves: the timeouts of the seats they hold, per 100 of
  their moves;
- median time to move: over their latest MEDIAN_OVER moves, from the latest
  event before each move that could change who is to act (not talk, notes or
  clock acts) to the move, less any time in it that the player was on
  vacation or the server was down (games.models.Vacation, Outage): the clocks
  stood still then, and so does this measure; and less the time a moderator
  gave that seat meanwhile (a `clock` event `extend` for the seat or for
  every seat): time granted is not time the player is blamed for.

Counts include private games (they are numbers, not games); the games listed
are the public ones only.  A seat handed to another player counts for whoever
holds it now.

A profile is the same for every reader and changes only when one of the
player's games does, so it is kept in the cache under a key made of the
player, how many seats they hold and when the latest of their games last
changed (one indexed read): a warm profile costs that read, not the ten
reads and the median.  Vacations and outages reach it within
PROFILE_SECONDS, its time in the cache.
"""

from __future__ import annotations

import datetime
import json
from statistics import median
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Max, OuterRef, Subquery
from django.utils.translation import gettext_noop

from games.engines import base
from games.errors import NotFound
from games.models import Event, Game, Outage, Seat, Vacation

MEDIAN_OVER = 500
# Events that do not change who is to act, so a wait does not start at them.
NOT_A_TURN = (
    Event.Kind.MESSAGE,
    Event.Kind.NOTE,
    Event.Kind.CLOCK,
    Event.Kind.TAKEBACK_REQUEST,
)
CURRENT_LISTED = 20
PROFILE_SECONDS = 300


def account(username: object):
    """The active person of that name (bots have no profile)."""
    from accounts.models import User

    fits = isinstance(username, str) and 0 < len(username) <= 150 and username.isprintable()
    user = User.objects.filter(username=username, is_active=True, bot="").first() if fits else None
    if user is None:
        raise NotFound(gettext_noop("no such player"))
    return user


def profile(user) -> dict[str, Any]:
    key = _cache_key(user)
    found = cache.get(key)
    if found is None:
        found = {
            "username": user.username,
            "member_since": user.date_joined.date().isoformat(),
            "titles": per_title(user),
            "current_games": current_games(user),
            "reliability": reliability(user),
        }
        cache.set(key, found, PROFILE_SECONDS)
    return found


def _cache_key(user) -> str:
    """What a profile depends on, as of now: the player's seats and the
    latest change to any of their games."""
    seats = Seat.objects.filter(user=user).aggregate(held=Count("pk"), at=Max("game__updated_at"))
    at = seats["at"].timestamp() if seats["at"] else 0
    return f"correo:profile:{user.pk}:{user.username}:{seats['held']}:{at}"


def per_title(user) -> list[dict[str, Any]]:
    """Games played, finished and won, per title, from the player's seats:
    one read of their seats' games (no sort: the few rows are counted here)."""
    rows = (
        Seat.objects.filter(user=user)
        .order_by()
        .values_list("game__title", "game__status", "index", "game__result")
    )
    counts: dict[str, dict[str, int]] = {}
    for title, status, index, result in rows:
        row = counts.setdefault(title, {"played": 0, "finished": 0, "won": 0})
        row["played"] += 1
        if status != Game.Status.FINISHED:
            continue
        row["finished"] += 1
        if isinstance(result, str):  # the result column holds JSON text
            result = json.loads(result)
        if result and index in result.get("winners", []):
            row["won"] += 1
    return [
        {"title": title, "title_name": title_name(title), **counts[title]}
        for title in sorted(counts)
    ]


def current_games(user) -> list[dict[str, Any]]:
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, public=True, seats__user=user)
        .order_by("-id")
        .values("pk", "title")[:CURRENT_LISTED]
    )
    return [
        {"id": g["pk"], "title": g["title"], "title_name": title_name(g["title"])} for g in games
    ]


def reliability(user) -> dict[str, Any]:
    moves = Event.objects.filter(actor=user, kind=Event.Kind.ACTION).exclude(
        source=Event.Source.BOT
    )
    made = moves.count()
    # One join row must be the seat that timed out: both conditions in one filter().
    timeouts = Event.objects.filter(
        kind=Event.Kind.TIMEOUT, seat__isnull=False, game__seats__user=user,
        game__seats__index=F("seat"),
    ).count()  # fmt: skip
    return {
        "moves": made,
        "timeouts": timeouts,
        "timeouts_per_100_moves": round(100 * timeouts / made, 1) if made else None,
        "median_seconds_to_move": _median_to_move(user, moves),
    }


def _median_to_move(user, moves) -> float | None:
    # The wait starts at the latest event before the move that could change
    # who is to act: talk, notes and clock acts do not restart it.
    previous = (
        Event.objects.filter(game=OuterRef("game"), seq__lt=OuterRef("seq"))
        .exclude(kind__in=NOT_A_TURN)
        .order_by("-seq")
    )
    latest = list(
        moves.order_by("-id")
        .annotate(before=Subquery(previous.values("created_at")[:1]))
        .values_list("created_at", "before", "game_id", "seat")[:MEDIAN_OVER]
    )
    if not latest:
        return None
    start = min(before or at for at, before, _, _ in latest)
    stood_still = [
        *Vacation.objects.filter(user=user, ends_at__gt=start).values_list("starts_at", "ends_at"),
        *Outage.objects.filter(ended_at__gt=start).values_list("started_at", "ended_at"),
    ]
    granted = _extensions({game for _, _, game, _ in latest}, start)
    waits = [
        max(_counted(before, at, stood_still) - _granted(granted, game, seat, before, at), 0.0)
        for at, before, game, seat in latest
        if before is not None
    ]
    return round(median(waits), 1) if waits else None


def _extensions(games: set[int], start: datetime.datetime) -> dict[int, list[tuple]]:
    """The moderators' extensions in those games since `start`, per game:
    (when, seat or None for every seat, seconds)."""
    found: dict[int, list[tuple]] = {}
    clocks = Event.objects.filter(
        game_id__in=games, kind=Event.Kind.CLOCK, created_at__gt=start
    ).order_by()
    for game, at, payload in clocks.values_list("game_id", "created_at", "payload"):
        if isinstance(payload, str):
            payload = json.loads(payload)
        if payload.get("clock") == "extend" and type(payload.get("seconds")) is int:
            found.setdefault(game, []).append((at, payload.get("seat"), payload["seconds"]))
    return found


def _granted(granted, game: int, seat, begin, end) -> float:
    """Seconds a moderator added to `seat`'s clock between `begin` and `end`."""
    return float(
        sum(
            seconds
            for at, whose, seconds in granted.get(game, ())
            if begin < at <= end and whose in (None, seat)
        )
    )


def _counted(
    begin: datetime.datetime,
    end: datetime.datetime,
    stood_still: list[tuple[datetime.datetime, datetime.datetime]],
) -> float:
    """Seconds from `begin` to `end`, less the parts inside the stretches
    when the clocks stood still (which may overlap each other)."""
    total = (end - begin).total_seconds()
    inside = sorted((max(a, begin), min(b, end)) for a, b in stood_still if a < end and b > begin)
    merged_end = None
    for a, b in inside:
        if merged_end is not None and a < merged_end:
            a = merged_end
        if b > a:
            total -= (b - a).total_seconds()
            merged_end = b if merged_end is None else max(merged_end, b)
    return max(total, 0.0)


def title_name(name: str) -> str:
    try:
        return base.get(name).TITLE
    except KeyError:
        return name
