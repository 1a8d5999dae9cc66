"""Extension points of the game service, each a list of listeners.

- append: `listener(game, event, before)`, called inside the transaction that
  appends an event (`before`: the seats that were to act until this event);
  whatever it writes commits or rolls back with the event.
- reminder: `listener(game, seat, offset_seconds)`, a seat's deadline is near.
- replay: `listener(title, seconds)`, a state was rebuilt from the stream.

Other apps (notifications' outbox, clocks, metrics) register in their
AppConfig.ready().  A listener must be quick and must not call back into the
service.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook:
    def __init__(self) -> None:
        self.listeners: list[Callable[..., None]] = []

    def register(self, listener: Callable[..., None]) -> Callable[..., None]:
        """Add `listener` once; usable as a decorator."""
        if listener not in self.listeners:
            self.listeners.append(listener)
        return listener

    def fire(self, *args: Any) -> None:
        for listener in list(self.listeners):
            listener(*args)


append = Hook()
reminder = Hook()
replay = Hook()

on_append, appended = append.register, append.fire
on_reminder, reminder_due = reminder.register, reminder.fire
on_replay, replayed = replay.register, replay.fire
