"""Players' profiles and the archive of games, with its filters."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.engines import base
from games.selectors import listing, profile
from ratings import selectors as ratings
from web import dashboard
from web.paging import page_of
from web.views.common import readable

ARCHIVE_PAGE = 25
LEADERBOARD_PAGE = 50
STATUSES = ("finished", "active", "aborted")


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = readable(lambda: profile.account(username))
    return render(
        request,
        "web/profile.html",
        {"p": profile.profile(user), "ratings": ratings.of_player(user)},
    )


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """A title's rated players, best first (the title chosen, else the first)."""
    titles = dashboard.title_choices()
    names = [t["name"] for t in titles]
    title = request.GET.get("title", "")
    title = title if title in names else (names[0] if names else "")
    total = ratings.count(title)
    page = Paginator(range(total), LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    board = ratings.leaderboard(
        title, offset=(page.number - 1) * LEADERBOARD_PAGE, limit=LEADERBOARD_PAGE, total=total
    )
    # the profiles' path before the username, reversed once for all rows
    players = reverse("web:player", args=["~"]).removesuffix("~/")
    return render(request, "web/ratings.html", {
        "board": board, "page": page, "title": title, "titles": titles, "players": players,
    })  # fmt: skip


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    """Games the viewer may see, filtered by player, title and status
    (finished unless asked otherwise), newest first."""
    title = request.GET.get("title", "")
    title = title if title in base.available() else ""
    status = request.GET.get("status", "finished")
    status = status if status in STATUSES else "finished"
    who = request.GET.get("player", "").strip()[:150]
    games = listing.games_for(request.user, player=who or None, title=title or None,
                              status=status)  # fmt: skip
    # No "page 3 of N": counting a million finished games costs a hundred pages.
    page = page_of(listing.newest_first(games, request.user), request.GET.get("page"),
                   ARCHIVE_PAGE)  # fmt: skip
    rows = [
        {
            **listing.summary(game, request.user),
            "title_name": profile.title_name(game.title),
            "result": game.result,
        }
        for game in page
    ]
    query = "&".join(f"{k}={v}" for k, v in (("player", who), ("title", title)) if v)
    return render(request, "web/archive.html", {
        "page": page, "rows": rows, "player": who, "title": title, "status": status,
        "titles": dashboard.title_choices(), "statuses": STATUSES, "query": query,
    })  # fmt: skip
