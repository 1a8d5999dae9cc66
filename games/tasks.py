"""Celery tasks: thin shells around the service (fetch by id, call, return)."""

from __future__ import annotations

import datetime
from functools import partial

from celery import shared_task
from django.db import transaction

from games import sweep, timeouts


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
    for game_id, seq in claimed:
        timeout_game.delay(game_id, seq, now.isoformat())


@shared_task(acks_late=True, ignore_result=True)
def timeout_game(game_id: int, seq: int, now: str) -> int:
    return len(timeouts.run_out(game_id, seq, datetime.datetime.fromisoformat(now)))
