"""A player's dashboard: their invitations, waiting tables and tournaments,
their games (the ones waiting for them first), games they can watch, and
the form that opens a table (where a new game starts)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Subquery, prefetch_related_objects

from games.engines import base
from games.models import Event, Game
from games.selectors import listing, narration, tables, visibility
from ops.throttling import CreateRateThrottle
from tournaments import selectors as tournaments

WATCHABLE = 20


def context(user) -> dict[str, Any]:
    mine_first = listing.newest_first(listing.games_for(user, mine=True), user, mine=True)
    others = listing.games_for(user).exclude(seats__user=user)
    watch_first = listing.newest_first(others, user, others=True)
    # Both lists' seats and players are read together, once both pages are.
    mine = list(mine_first.prefetch_related(None)[:100])
    watch = list(watch_first.prefetch_related(None)[:WATCHABLE])
    prefetch_related_objects([*mine, *watch], "seats__user")
    moves = last_moves([*mine, *watch], user)
    mine_rows = [_row(game, user, moves.get(game.pk)) for game in mine]
    mine_rows.sort(key=lambda row: (not row["my_turn"], row["status"] != Game.Status.ACTIVE))
    watch_rows = [_row(game, user, moves.get(game.pk)) for game in watch]
    waiting = tables.with_seats(tables.mine_waiting(user))
    return {
        "mine": mine_rows, "watch": watch_rows, "titles": title_choices(),
        "limits": creation_limits(user), "fresh": True,
        "invitations": tables.invitations_for(user),
        "waiting": [tables.summary(table) for table in waiting],
        "tournaments": tournaments.mine(user),
    }  # fmt: skip


PER = {1: "a second", 60: "a minute", 3600: "an hour", 86400: "a day"}


def creation_limits(user) -> dict[str, Any]:
    """What the form tells before anyone is refused: how many games one may
    start in a while (ops.throttling.CreateRateThrottle) and have running
    at once (none for a moderator, who may set up games for others)."""
    throttle = CreateRateThrottle()
    starts = None
    if throttle.rate:
        count, seconds = throttle.parse_rate(throttle.rate)
        starts = f"{count} games {PER.get(seconds, f'every {seconds} s')}"
    moderator = getattr(user, "is_moderator", False)
    return {"starts": starts, "running": None if moderator else settings.CORREO_MAX_ACTIVE_GAMES}


def _row(game: Game, user, last: Event | None) -> dict[str, Any]:
    summary = listing.summary(game, user)
    seats = {p["seat"]: p["username"] for p in summary["players"]}
    my_seats = [p["seat"] for p in summary["players"] if p["username"] == user.username]
    my_turn = summary["status"] == Game.Status.ACTIVE and any(
        seat in summary["to_act"] for seat in my_seats
    )
    return {
        **summary,
        "last_move": last_move(game, last, my_seats[0] if my_seats else None, seats),
        "title_name": _title(game.title),
        "names": [p["username"] for p in summary["players"]],
        "to_act_names": [seats.get(seat, "?") for seat in summary["to_act"]],
        "my_turn": my_turn,
    }


def last_moves(games: list[Game], user) -> dict[int, Event]:
    """Each game's latest move at the seq `user` sees of it, by game id: two
    queries for the whole dashboard, however many games it lists.  The first
    finds each game's move on the (game, seq) key, back from the seq the
    viewer sees; the second reads those events by id (asked in one
    statement, the planner may scan every event to join them)."""
    if not games:
        return {}
    latest = Event.objects.filter(
        game=OuterRef("pk"), kind__in=listing.MOVE_KINDS, seq__lte=OuterRef("shown_seq")
    ).order_by("-seq")
    ids = (
        Game.objects.filter(pk__in=[game.pk for game in games])
        .annotate(shown_seq=listing.shown_seq(user))
        .values_list(Subquery(latest.values("pk")[:1]), flat=True)
    )
    events = Event.objects.filter(pk__in=[pk for pk in ids if pk is not None]).order_by()
    return {event.game_id: event for event in events}


def last_move(
    game: Game, event: Event | None, seat: int | None, names: dict[int, str]
) -> str | None:
    """The latest move the viewer may see, as the game's log says it."""
    if event is None:
        return None
    shown = visibility.event_for(
        event, seat, reveal_all=game.status != Game.Status.ACTIVE,
        chain_version=game.chain_version,
    )  # fmt: skip
    return narration.event_line(base.get(game.title), shown, narration.seat_names(names))


def _title(name: str) -> str:
    try:
        return base.get(name).TITLE
    except KeyError:
        return name


def words(name: str) -> str:
    """An option's or a choice's name in words: `map_part` is "Map part",
    `neue-heimat` is "Neue heimat"; the form still sends the name."""
    return name.replace("_", " ").replace("-", " ").capitalize()


def title_choices() -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "title": engine.TITLE,
            "min_players": engine.MIN_PLAYERS,
            "max_players": engine.MAX_PLAYERS,
            "options": [
                {
                    "key": key,
                    **spec,
                    "label": words(key),
                    "choices": spec.get("choices"),
                    "choice_words": [(c, words(str(c))) for c in spec.get("choices") or []],
                }
                for key, spec in engine.OPTIONS.items()
            ],
        }
        for name, engine in sorted(base.available().items())
    ]
