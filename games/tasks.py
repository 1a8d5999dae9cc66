"""Celery tasks: thin shells around the service (fetch by id, call, return)."""

from __future__ import annotations

import datetime

from celery import shared_task

from games import sweep, timeouts


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> dict:
    return sweep.sweep()


@shared_task(acks_late=True, ignore_result=True)
def timeout_game(game_id: int, seq: int, now: str) -> int:
    return len(timeouts.run_out(game_id, seq, datetime.datetime.fromisoformat(now)))


def dispatch_timeout(game_id: int, seq: int, now: datetime.datetime) -> None:
    timeout_game.delay(game_id, seq, now.isoformat())
