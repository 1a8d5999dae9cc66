"""Listeners called inside the transaction that appends an event.

Other apps (notifications' outbox, clocks) register here in their
AppConfig.ready(); whatever they write commits or rolls back with the event.
A listener must be quick and must not call back into the service.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import Event, Game, Seat

Listener = Callable[[Game, Event], None]

_listeners: list[Listener] = []


def on_append(listener: Listener) -> Listener:
    """Register `listener(game, event)`; usable as a decorator."""
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def appended(game: Game, event: Event) -> None:
    for listener in list(_listeners):
        listener(game, event)


ReminderListener = Callable[[Game, Seat, int], None]
_reminder_listeners: list[ReminderListener] = []


def on_reminder(listener: ReminderListener) -> ReminderListener:
    """Register `listener(game, seat, offset_seconds)`: a seat's deadline is near."""
    if listener not in _reminder_listeners:
        _reminder_listeners.append(listener)
    return listener


def reminder_due(game: Game, seat, offset: int) -> None:
    for listener in list(_reminder_listeners):
        listener(game, seat, offset)


ReplayListener = Callable[[str, float], None]
_replay_listeners: list[ReplayListener] = []


def on_replay(listener: ReplayListener) -> ReplayListener:
    """Register `listener(title, seconds)`: a state was rebuilt from the stream."""
    if listener not in _replay_listeners:
        _replay_listeners.append(listener)
    return listener


def replayed(title: str, seconds: float) -> None:
    for listener in list(_replay_listeners):
        listener(title, seconds)
