"""A table's requirements, checked when someone takes a seat (the
`games.hooks.on_seat_requirement` listener): the least rating in the
table's title, the most timeouts per 100 moves.  A player with no rating
yet has a new player's (0); one with no moves yet has no timeouts."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.errors import RequirementsNotMet
from games.selectors import profile
from ratings import selectors


def check_requirements(table, user) -> None:
    wanted = table.requirements or {}
    least = wanted.get("min_rating")
    if least is not None:
        mine = selectors.rating_of(user, table.title)
        if mine < least:
            raise RequirementsNotMet(
                gettext_noop(
                    "this table asks for a rating of at least %(least)s; yours is %(mine)s"
                ),
                least=_shown(least), mine=_shown(mine),
            )  # fmt: skip
    most = wanted.get("max_timeouts_per_100")
    if most is not None:
        per_100 = profile.reliability(user)["timeouts_per_100_moves"] or 0.0
        if per_100 > most:
            raise RequirementsNotMet(
                gettext_noop(
                    "this table asks for at most %(most)s timeouts per 100 moves; "
                    "yours are %(mine)s"
                ),
                most=_shown(most), mine=_shown(per_100),
            )  # fmt: skip


def _shown(value: float) -> str:
    return f"{value:.1f}"
