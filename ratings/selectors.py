"""Reading ratings: a title's leaderboard, a player's rating and history,
the ratings of the players at a lobby's tables."""

from __future__ import annotations

from typing import Any

from games.selectors.profile import title_name
from ratings import skill
from ratings.models import Rating, RatingChange

HISTORY = 50


def shown(value: float) -> float:
    return round(value, 1)


def rating_of(user, title: str) -> float:
    """The player's rating (ordinal) in `title`; a new player's if none."""
    value = Rating.objects.filter(user=user, title=title).values_list("ordinal", flat=True).first()
    return skill.Skill().ordinal if value is None else value


def count(title: str) -> int:
    """How many players are rated in `title` (the board's index alone)."""
    return Rating.objects.filter(title=title).count()


def leaderboard(
    title: str, *, offset: int = 0, limit: int = 50, total: int | None = None
) -> dict[str, Any]:
    """The title's rated players, best first (equal ratings: the older
    account first, which the board's index gives without a sort), with
    their place counted over the whole board; `total` if the caller counted
    them already.  Every rated account is listed, a closed one too: its
    rating is what its games gave."""
    rows = (
        Rating.objects.filter(title=title)
        .order_by("-ordinal", "user_id")
        .values_list("user__username", "ordinal", "mu", "sigma", "games")[offset : offset + limit]
    )
    return {
        "title": title,
        "title_name": title_name(title),
        "count": count(title) if total is None else total,
        "ratings": [
            {
                "rank": offset + i + 1,
                "username": name,
                "rating": shown(ordinal),
                "mu": round(mu, 3),
                "sigma": round(sigma, 3),
                "games": games,
            }
            for i, (name, ordinal, mu, sigma, games) in enumerate(rows)
        ],
    }


def of_player(user) -> list[dict[str, Any]]:
    """The player's ratings per title, each with its latest HISTORY changes,
    newest first."""
    out = []
    for rating in Rating.objects.filter(user=user).order_by("title"):
        changes = (
            RatingChange.objects.filter(user=user, title=rating.title)
            .order_by("-event")
            .values_list("event__game_id", "event__game__public", "event__finished_at", "place",
                         "share", "mu_before", "sigma_before", "mu_after", "sigma_after")[:HISTORY]
        )  # fmt: skip
        out.append(
            {
                "title": rating.title,
                "title_name": title_name(rating.title),
                "rating": shown(rating.ordinal),
                "games": rating.games,
                # a private game's change is shown without the game and its time
                "history": [
                    {
                        "game": game if public else None,
                        "finished_at": at.isoformat() if at and public else None,
                        "place": place,
                        "share": round(share, 3),
                        "before": shown(skill.ordinal(mu0, s0)),
                        "after": shown(skill.ordinal(mu1, s1)),
                    }
                    for game, public, at, place, share, mu0, s0, mu1, s1 in changes
                ],
            }
        )
    return out


def for_players(title: str, user_ids: list[int]) -> dict[int, float]:
    """Ratings of these players in `title` (a new player's where none)."""
    found = dict(
        Rating.objects.filter(title=title, user_id__in=user_ids).values_list("user_id", "ordinal")
    )
    new = skill.Skill().ordinal
    return {user: shown(found.get(user, new)) for user in user_ids}


def at_tables(pairs: list[tuple[str, int]]) -> dict[tuple[str, int], float]:
    """Ratings of (title, user id) pairs in one read, a new player's where
    none (the lobby's seated players, each in their table's title)."""
    titles = {title for title, _ in pairs}
    users = {user for _, user in pairs}
    found = {
        (title, user): ordinal
        for title, user, ordinal in Rating.objects.filter(
            title__in=titles, user_id__in=users
        ).values_list("title", "user_id", "ordinal")
    }
    new = skill.Skill().ordinal
    return {pair: shown(found.get(pair, new)) for pair in pairs}


def add_to_table_rows(tables, rows: list[dict[str, Any]]) -> None:
    """The `table_rows` listener: each lobby row gets `ratings`, beside its
    `players`, each seated player's rating in the table's title (None for
    a bot, which is not rated)."""
    pairs = [(t.title, seat.user_id) for t in tables for seat in t.seats.all() if seat.user_id]
    known = at_tables(pairs)
    for table, row in zip(tables, rows, strict=True):
        row["ratings"] = [
            known[(table.title, seat.user_id)] if seat.user_id else None
            for seat in table.seats.all()
        ]
