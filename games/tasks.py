"""Celery tasks: thin shells around the service (fetch by id, call, return)."""

from __future__ import annotations

import datetime
import logging
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, transaction

from games.jobs import bot_turns, sweep, timeouts
from games.services import bots

log = logging.getLogger(__name__)


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
def timeout_game(game_id: int, seq: int, now: str) -> int:
    # Kept for messages queued by a release before batches.
    return len(timeouts.run_out(game_id, seq, datetime.datetime.fromisoformat(now)))


@shared_task(acks_late=True, ignore_result=True)
def play_bot(game_id: int, seq: int) -> int | None:
    """A bot's move after event `seq` (games.jobs.bot_turns queues it); the seq
    of the move, or None when the game had moved on or no bot was to act."""
    event = bots.do_bot_move(game_id, seq)
    return None if event is None else event.seq


@shared_task(acks_late=True, ignore_result=True)
def sweep_bots() -> int:
    return bot_turns.sweep()
