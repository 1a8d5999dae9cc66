"""Extension points of the game service, each a list of listeners.

- rows: `listener(game, event, before) -> list[Row]`, called just before an
  event is written, with the game as that event leaves it (`before`: the
  seats that were to act until this event).  The rows are written together
  with the event, in the same statement or transaction, or not at all.
  Reading is fine here; writing is not: return the rows instead.
- append: `listener(game, event, before)`, called inside the transaction that
  appends an event; whatever it writes commits or rolls back with the event.
  A listener registered with `only_if` runs only for the games it accepts.
  An event no such listener applies to needs no transaction of its own: on
  PostgreSQL the event, the game row, the seats and the rows above are one
  statement, which spares a move the BEGIN and COMMIT round trips.
- committed: `listener(game, event)`, once the event is durable.
- reminder: `listener(game, seat, offset_seconds)`, a seat's deadline is near.
- replay: `listener(title, seconds)`, a state was rebuilt from the stream.
- timeout_failure: `listener(game, seat, error)`, applying a seat's timeout
  raised (`games.jobs.timeouts` held the seat back and flagged the game).
- table_notice: `listener(notice)`, a `Notice` to a person about a table
  (an invitation, the table full and its game started, the table expired),
  inside the transaction of the act that causes it: whatever the listener
  writes (the outbox's row) commits or rolls back with the act.
- table_rows: `listener(tables, rows)`, a page of the lobby (`rows` are the
  tables' summaries, in order): a listener adds what it knows to each row
  in place (the `ratings` app, each seated player's rating).
- deadline_limit: `listener(game) -> list[datetime]`, inside the transaction
  that sets a clocked game's deadlines (games.clocks.deadlines.refresh):
  no seat's deadline is set later than the earliest time returned (or than
  the event's time, if that is later).  The `tournaments` app returns the
  deadline of the round the game belongs to.  Reading only.
- seat_requirement: `listener(table, user)`, before a person takes a seat at
  a table with `requirements`; raises errors.RequirementsNotMet to refuse
  (the `ratings` app, which knows ratings and reliability, listens).

Other apps (notifications' outbox, clocks, metrics) register in their
AppConfig.ready().  A listener must be quick and must not call back into the
service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Row:
    """A new row to write with an event: `instance` (a model instance not yet
    saved) is skipped if a row with the same `unique` field value exists;
    `written(instance)` is called once it was written, inside the event's
    transaction (so `transaction.on_commit` waits for the event)."""

    instance: Any
    unique: str
    written: Callable[[Any], None] | None = None


def _always(subject: Any) -> bool:
    return True


class Hook:
    def __init__(self) -> None:
        self.listeners: list[Callable[..., Any]] = []
        self.conditions: dict[Callable[..., Any], Callable[[Any], bool]] = {}

    def register(
        self, listener: Callable[..., Any], only_if: Callable[[Any], bool] | None = None
    ) -> Callable[..., Any]:
        """Add `listener` once; `only_if(first argument)` says when it applies."""
        if listener not in self.listeners:
            self.listeners.append(listener)
        if only_if is not None:
            self.conditions[listener] = only_if
        return listener

    def applying(self, subject: Any) -> list[Callable[..., Any]]:
        """The listeners for a call whose first argument is `subject`."""
        return [
            listener
            for listener in self.listeners
            if self.conditions.get(listener, _always)(subject)
        ]

    def fire(self, *args: Any) -> None:
        for listener in self.applying(args[0]):
            listener(*args)

    def collect(self, *args: Any) -> list[Any]:
        """Every applying listener's results, in one list."""
        return [item for listener in self.applying(args[0]) for item in listener(*args) or ()]


@dataclass
class Notice:
    """Something a person must hear about a table: `kind` (invitation,
    table_started, table_expired), to an account (`user`) or, for an
    invitation to someone without one, to an address (`email`); `key` makes
    it once only; `context` holds what the mail says."""

    kind: str
    table: Any
    key: str
    user: Any = None
    email: str = ""
    context: dict[str, Any] | None = None


@dataclass
class OrderNote:
    """A standing order dropped or lapsed (games.services.orders), for its
    owner's ears alone: `kind` (dropped, lapsed), the order's `number` in
    its seat, its words and the reason."""

    game: Any
    seat: int
    owner_id: int | None
    kind: str
    number: int
    says: str
    reason: str


rows = Hook()
append = Hook()
committed = Hook()
reminder = Hook()
replay = Hook()
timeout_failure = Hook()
table_notice = Hook()
seat_requirement = Hook()
table_rows = Hook()
order_note = Hook()
deadline_limit = Hook()

on_rows, rows_for = rows.register, rows.collect
on_append, appended = append.register, append.fire
on_committed, event_committed = committed.register, committed.fire
on_reminder, reminder_due = reminder.register, reminder.fire
on_replay, replayed = replay.register, replay.fire
on_timeout_failure, timeout_failed = timeout_failure.register, timeout_failure.fire
on_table_notice, table_noticed = table_notice.register, table_notice.fire
on_seat_requirement, seat_requirements = seat_requirement.register, seat_requirement.fire
on_order_note, order_noted = order_note.register, order_note.fire
on_table_rows, tables_listed = table_rows.register, table_rows.fire
on_deadline_limit, deadline_limits = deadline_limit.register, deadline_limit.collect
