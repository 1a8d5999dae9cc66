"""Celery tasks: thin shells around the service (fetch by id, call, return),
and the queueing of the bots' moves, which is Celery's plumbing.

A bot's move is `play_bot(game_id, seq)` (games.services.bots.do_bot_move):
it plays only while the game still stands at `seq`, so a task that finds the
game moved on does nothing, and two tasks for the same seq make one move (the
second one's append is stale).  It is queued by an `on_committed` listener
for the games that have bots, and again by `sweep_bots` when a lost message
left a bot waiting.

Pace: the task runs CORREO_BOT_PACE_SECONDS after the event (its countdown),
so people at the table can follow.  With no broker (Celery eager, the
embedded default) a timer thread waits out the pace instead; with a pace of
0 the moves run right away in this thread, one after the other in a loop
rather than nested in each other's commit (a game of bots alone would
otherwise recurse once per move).
"""

from __future__ import annotations

import datetime
import logging
import threading
from collections import deque
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games import hooks
from games.jobs import sweep, tables, timeouts
from games.selectors import bots as bot_seats
from games.services import bots

log = logging.getLogger(__name__)

_inline = threading.local()


@shared_task(acks_late=True, ignore_result=True)
def publish_checkpoints() -> int:
    from games.audit import checkpoints

    return checkpoints.publish()


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> dict:
    return sweep_and_queue()


def sweep_and_queue(now: datetime.datetime | None = None) -> dict:
    """One sweep; the games it claimed are queued for their timeouts once the
    claim has committed (at once, or with the caller's transaction): never
    for a claim that was rolled back, and never inside the claim's
    transaction, where a task run eagerly (no broker) would hold every
    claimed row while it plays."""
    report = sweep.sweep(now)
    transaction.on_commit(partial(queue_timeouts, report.claimed, report.now))
    return report.summary()


def queue_timeouts(claimed: list[tuple[int, int]], now: datetime.datetime) -> None:
    """The claimed games in batches: one message per CORREO_TIMEOUT_BATCH
    games, so a worker spends its time on the timeouts rather than on the
    broker; several workers still share a sweep's batches."""
    size = settings.CORREO_TIMEOUT_BATCH
    for start in range(0, len(claimed), size):
        batch = [list(pair) for pair in claimed[start : start + size]]
        timeout_games.delay(batch, now.isoformat())


@shared_task(acks_late=True, ignore_result=True)
def timeout_games(batch: list[list[int]], now: str) -> int:
    """Each game in its own transaction, as `timeout_game`: a game a player
    moved in meanwhile is left alone, and one that fails does not hold the
    others back (the next sweep claims it again)."""
    at = datetime.datetime.fromisoformat(now)
    applied = 0
    for game_id, seq in batch:
        try:
            applied += len(timeouts.run_out(game_id, seq, at))
        except DatabaseError:
            log.exception("timeout of game %s failed; the next sweep retries it", game_id)
    return applied


@shared_task(acks_late=True, ignore_result=True)
def expire_tables() -> int:
    """Waiting tables nobody joined for CORREO_TABLE_EXPIRY_DAYS expire."""
    return tables.expire()


@shared_task(acks_late=True, ignore_result=True)
def timeout_game(game_id: int, seq: int, now: str) -> int:
    # Kept for messages queued by a release before batches.
    return len(timeouts.run_out(game_id, seq, datetime.datetime.fromisoformat(now)))


@shared_task(acks_late=True, ignore_result=True)
def play_bot(game_id: int, seq: int) -> int | None:
    """A bot's move after event `seq` (queued by `queue_bot`); the seq
    of the move, or None when the game had moved on or no bot was to act."""
    event = bots.do_bot_move(game_id, seq)
    return None if event is None else event.seq


@shared_task(acks_late=True, ignore_result=True)
def sweep_bots() -> int:
    return queue_overdue_bots()


def queue_overdue_bots(now: datetime.datetime | None = None) -> int:
    """Queue the move of every bot that should have moved by now; returns
    how many games were queued."""
    queued = 0
    for game in bot_seats.overdue(now or timezone.now()):
        queue_bot(game.pk, game.seq)
        queued += 1
    return queued


def bot_after_commit(game, event) -> None:
    """The on_committed listener: queue the bot's move if one is to act."""
    if bot_seats.bot_due(game):
        queue_bot(game.pk, event.seq)


def queue_bot(game_id: int, seq: int) -> None:
    """Have a bot move after event `seq` of the game, at the pace; never raises
    (a message that could not be sent waits for the sweep)."""
    pace = settings.CORREO_BOT_PACE_SECONDS
    if not play_bot.app.conf.task_always_eager:
        options = {"queue": settings.CORREO_BOT_QUEUE} if settings.CORREO_BOT_QUEUE else {}
        try:
            play_bot.apply_async((game_id, seq), countdown=pace, retry=False, **options)
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
    try:
        play_bot.apply((game_id, seq), throw=True)
    except Exception:
        # The move that called us has committed: a bot's failure must not
        # turn it into an error for the player.  The sweep tries again.
        log.exception("bot move of game %s after seq %s failed", game_id, seq)


hooks.on_committed(bot_after_commit, only_if=bot_seats.has_bots)
