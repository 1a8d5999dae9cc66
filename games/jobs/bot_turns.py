"""When a bot is to act, its move is queued: a `games.hooks.on_committed`
listener for the games that have bots (Game.bot_seats), and a sweep that
queues again what a lost message left waiting.

The move itself is the Celery task `games.tasks.play_bot(game_id, seq)`
(games.services.bots.do_bot_move): it plays only while the game still stands
at `seq`, so a task that finds the game moved on does nothing, and two tasks
for the same seq make one move (the second one's append is stale).

Pace: the task runs CORREO_BOT_PACE_SECONDS after the event (its countdown),
so people at the table can follow.  With no broker (Celery eager, the
embedded default) a timer thread waits out the pace instead; with a pace of
0 the moves run right away in this thread, one after the other in a loop
rather than nested in each other's commit (a game of bots alone would
otherwise recurse once per move).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import hooks
from games.models import Game

log = logging.getLogger(__name__)

# A game whose bot should have moved this long after the pace is queued
# again by the sweep.
OVERDUE_SECONDS = 60

_inline = threading.local()


def has_bots(game: Game) -> bool:
    return bool(game.bot_seats)


def bot_due(game: Game) -> bool:
    return game.status == Game.Status.ACTIVE and bool(
        set(game.to_act or []) & set(game.bot_seats or [])
    )


def after_commit(game: Game, event) -> None:
    """The on_committed listener: queue the bot's move if one is to act."""
    if bot_due(game):
        queue(game.pk, event.seq)


def queue(game_id: int, seq: int) -> None:
    """Have a bot move after event `seq` of the game, at the pace; never raises
    (a message that could not be sent waits for the sweep)."""
    from games import tasks

    pace = settings.CORREO_BOT_PACE_SECONDS
    if not tasks.play_bot.app.conf.task_always_eager:
        options = {"queue": settings.CORREO_BOT_QUEUE} if settings.CORREO_BOT_QUEUE else {}
        try:
            tasks.play_bot.apply_async((game_id, seq), countdown=pace, retry=False, **options)
        except Exception as error:
            log.warning("bot move of game %s not queued (the sweep retries): %s", game_id, error)
    elif pace > 0:
        timer = threading.Timer(pace, _play_in_thread, (game_id, seq))
        timer.daemon = True
        timer.start()
    else:
        _play_in_turn(game_id, seq)


def _play_in_turn(game_id: int, seq: int) -> None:
    """Play now, or after the move this thread is already playing."""
    pending = getattr(_inline, "pending", None)
    if pending is not None:
        pending.append((game_id, seq))
        return
    _inline.pending = pending = deque([(game_id, seq)])
    try:
        while pending:
            _play(*pending.popleft())
    finally:
        _inline.pending = None


def _play_in_thread(game_id: int, seq: int) -> None:
    try:
        _play_in_turn(game_id, seq)
    finally:
        connection.close()  # this thread's own connection


def _play(game_id: int, seq: int) -> None:
    from games import tasks

    try:
        tasks.play_bot.apply((game_id, seq), throw=True)
    except Exception:
        # The move that called us has committed: a bot's failure must not
        # turn it into an error for the player.  The sweep tries again.
        log.exception("bot move of game %s after seq %s failed", game_id, seq)


def sweep(now=None) -> int:
    """Queue the move of every bot that should have moved by now; returns
    how many games were queued."""
    now = now or timezone.now()
    late = now - timedelta(seconds=settings.CORREO_BOT_PACE_SECONDS + OVERDUE_SECONDS)
    games = Game.objects.filter(status=Game.Status.ACTIVE, updated_at__lt=late).exclude(
        bot_seats=[]
    )
    queued = 0
    for game in games.only("pk", "seq", "status", "to_act", "bot_seats").iterator():
        if bot_due(game):
            queue(game.pk, game.seq)
            queued += 1
    return queued


hooks.on_committed(after_commit, only_if=has_bots)
