"""The next round, made once the last game of a round has ended.

A `games.hooks.on_committed` listener hears of every game that finished or
was aborted; if it is a tournament's, the Celery task `advance` is queued,
which locks the tournament and makes the next round if the whole round
has ended (tournaments.services.do_advance: at most once per round, however
many games end at once).  A message lost while the broker was away is made
good by the beat's `sweep_rounds` (every CORREO_TOURNAMENT_SWEEP_INTERVAL
seconds), or sooner by the organiser's `advance` (the API and the page).
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.models import Game
from tournaments import selectors, services
from tournaments.models import Seating

log = logging.getLogger(__name__)


def just_ended(game: Game) -> bool:
    return game.status in services.ENDED


def advance_after_commit(game: Game, event) -> None:
    """The on_committed listener; never raises: the move has committed."""
    try:
        found = (
            Seating.objects.filter(game_id=game.pk)
            .values_list("round__tournament_id", flat=True)
            .first()
        )
        if found is not None:
            advance.delay(found)
    except Exception:
        log.exception("tournament round after game %s not queued (advance by hand)", game.pk)


@shared_task(acks_late=True, ignore_result=True)
def advance(tournament_id: int) -> None:
    services.advance(tournament_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_rounds() -> int:
    """Every running tournament whose round has ended and not been followed:
    the rounds seated."""
    seated = 0
    for tournament_id in selectors.waiting_rounds():
        try:
            seated += bool(services.advance(tournament_id))
        except Exception:
            log.exception("tournament %s: the next round failed (swept again)", tournament_id)
    return seated
