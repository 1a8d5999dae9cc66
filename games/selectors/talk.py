"""Who may read a message of the table's talk, and the talk as a viewer reads it.

A message is a `message` event (games.services.talk writes them).  Its
stored payload says to whom it goes (`to`): `"table"` (every seat, and the
spectators), a seat number (that seat and the sender's: private), `"me"`
(a note for its author), `"spectators"` (those without a seat) or
`"moderators"` (a moderator hiding a message: `{"hide": seq, "reason"}`).

- Moderators read everything, hidden messages too (the audit shows them).
- While the game runs, a private message is read by its two seats, a note
  by its author, the spectators' room by those without a seat.
- Once the game is over the spectators' room is open to all, and private
  messages too when the game was created with `reveal_private` (the
  default); notes and the moderators' acts never are.
- A message a moderator hid is shown to those who could read it as hidden,
  without its text.

What a viewer is shown of a message they may not read is the same whoever
sent it, to whom and how long it is: on the chain's surfaces (the events,
an export) an event of kind `message` with an empty payload, no seat and no
actor, its time, and a commitment with 128 random bits in it
(games.stream.chain); on the human ones (the talk box, the log, a mail) the
words "a private message was sent" in a game with full press, and nothing
at all in one whose press setting admits no private message, where that
line would only tell that spectators or a note-taker were writing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.models import Event, Game, Press
from games.selectors.viewers import Viewer, reveals_all
from games.stream.replay import TALK_KINDS

TABLE = "table"
SPECTATORS = "spectators"
ME = "me"
MODERATORS = "moderators"

# What a viewer may do with one message.
READ = "read"
HIDDEN = "hidden"  # they could read it, but a moderator hid it
SEALED = "sealed"  # they may not read it


@dataclass
class Reader:
    """One viewer of a game's talk: who they are, and the game's settings."""

    seat: int | None
    user_id: int | None
    moderator: bool
    ended: bool
    press: str = Press.FULL
    reveal_private: bool = True
    # The seqs of the messages a moderator hid (read only when a message
    # comes up: a game without talk costs no query).
    hidden_from: Callable[[], frozenset[int]] = field(default=lambda: frozenset())
    # The seats whose messages this viewer chose not to see (human surfaces only).
    muted: frozenset[int] = frozenset()
    _hidden: frozenset[int] | None = field(default=None, init=False, repr=False)

    @property
    def hidden(self) -> frozenset[int]:
        if self._hidden is None:
            self._hidden = self.hidden_from()
        return self._hidden

    def state(self, event) -> str:
        """READ, HIDDEN or SEALED: what this viewer may do with `event`, a message."""
        if self.moderator:
            return READ
        if not self._may_read(event.payload, event.actor_id):
            return SEALED
        return HIDDEN if event.seq in self.hidden else READ

    def reads(self, event) -> bool:
        return self.state(event) == READ

    def _may_read(self, payload: dict[str, Any], actor_id: int | None) -> bool:
        to = payload.get("to")
        if to == TABLE:
            return True
        if to == SPECTATORS:
            return self.seat is None or self.ended
        if to == ME:
            return self.user_id is not None and self.user_id == actor_id
        if type(to) is int:
            if self.seat is not None and self.seat in (to, payload.get("from")):
                return True
            return self.ended and self.reveal_private
        return False  # the moderators' own, and anything this code does not know


def everything() -> Reader:
    """A moderator's reading (the audit, a moderator's complete export)."""
    return Reader(seat=None, user_id=None, moderator=True, ended=True)


def reader_for(game: Game, viewer: Viewer, *, muted: Iterable[int] = ()) -> Reader:
    """How `viewer` reads the game's talk up to their head."""
    return Reader(
        seat=viewer.seat,
        user_id=viewer.user_id,
        moderator=viewer.moderator,
        ended=reveals_all(game, viewer),
        press=game.press,
        reveal_private=game.reveal_private,
        hidden_from=lambda: hidden_seqs(game.pk, viewer.head),
        muted=frozenset(muted),
    )


def after_the_end(game: Game) -> Reader:
    """Everyone's reading of a game that is over (its export to anyone but a moderator)."""
    return Reader(
        seat=None, user_id=None, moderator=False, ended=True, press=game.press,
        reveal_private=game.reveal_private, hidden_from=lambda: hidden_seqs(game.pk, game.seq),
    )  # fmt: skip


def reader_of_seat(game: Game, seat: int | None, user_id: int | None, head: int) -> Reader:
    """How a seat's player reads the talk in a mail rendered at `head`."""
    return Reader(
        seat=seat, user_id=user_id, moderator=False,
        ended=game.status != Game.Status.ACTIVE and head == game.seq,
        press=game.press, reveal_private=game.reveal_private,
        hidden_from=lambda: hidden_seqs(game.pk, head), muted=unheard_seats(game.pk, user_id),
    )  # fmt: skip


def hidden_seqs(game_id: int, head: int) -> frozenset[int]:
    """The messages moderators hid up to `head`."""
    payloads = messages_up_to(game_id, head).values_list("payload", flat=True)
    return frozenset(p["hide"] for p in payloads if p.get("to") == MODERATORS and "hide" in p)


def muted_seats(game_id: int, user_id: int | None) -> frozenset[int]:
    """The seats whose messages this user chose not to see in this game."""
    if user_id is None:
        return frozenset()
    return frozenset(_mutes(game_id, user_id).values_list("seat", flat=True))


def _mutes(game_id: int, user_id: int):
    from games.models import Mute

    return Mute.objects.filter(game_id=game_id, user_id=user_id).order_by()


def unheard_seats(game_id: int, user_id: int | None) -> frozenset[int]:
    """The seats whose messages this user is not shown: those they muted,
    and those held by accounts they blocked (accounts.blocks), which stays
    as private as the block: the blocked player is told nothing."""
    if user_id is None:
        return frozenset()
    from accounts.models import Block
    from games.models import Seat

    blocked = Block.objects.filter(blocker_id=user_id).values("blocked_id")
    held = Seat.objects.filter(game_id=game_id, user_id__in=blocked).order_by()
    both = _mutes(game_id, user_id).values_list("seat").union(held.values_list("index"))
    return frozenset(seat for (seat,) in both)


def messages_up_to(game_id: int, head: int):
    # No ordering: the model's default one would join the game row for nothing.
    return Event.objects.filter(game_id=game_id, kind=Event.Kind.MESSAGE, seq__lte=head).order_by()


# --- the human surfaces: the talk box, the messages API, the log, the mails -------------


def item(event, reader: Reader) -> dict[str, Any] | None:
    """One message as the talk box and `GET .../messages/` give it, or None
    where this viewer is shown nothing of it."""
    state = reader.state(event)
    payload = event.payload
    base = {"seq": event.seq, "created_at": event.created_at.isoformat()}
    if state == SEALED:
        return {**base, "private": True} if reader.press == Press.FULL else None
    if state == HIDDEN:
        return {**base, "hidden": True}
    if payload.get("to") == MODERATORS:
        return {**base, "to": MODERATORS, "hide": payload.get("hide"),
                "reason": payload.get("reason"), "by": payload.get("by")}  # fmt: skip
    if payload.get("from") in reader.muted and not reader.moderator:
        return None
    return {
        **base, "to": payload.get("to"), "from": payload.get("from"), "by": payload.get("by"),
        "text": payload.get("text"), "hidden": event.seq in reader.hidden,
    }  # fmt: skip


def messages(game: Game, viewer: Viewer, *, after: int, limit: int = 200) -> list[dict[str, Any]]:
    """The messages after seq `after` up to the viewer's head, oldest first,
    as this viewer is shown them."""
    reader = reader_for(game, viewer, muted=unheard_seats(game.pk, viewer.user_id))
    rows = messages_up_to(game.pk, viewer.head).filter(seq__gt=after).order_by("seq")
    shown = (item(event, reader) for event in rows[:limit])
    return [entry for entry in shown if entry is not None]


def line(entry: dict[str, Any], names: list[str]) -> str:
    """A message as one line of the log or of a mail."""
    if entry.get("private"):
        return _("a private message was sent")
    if entry.get("to") == MODERATORS:
        return _("a moderator hid message %(seq)s: %(reason)s") % {
            "seq": entry.get("hide"), "reason": entry.get("reason", ""),
        }  # fmt: skip
    if entry.get("hidden") and "text" not in entry:
        return _("a message hidden by a moderator")
    sender = entry.get("by") or "?"
    to = entry.get("to")
    if to == TABLE:
        heading = _("%(who)s to the table") % {"who": sender}
    elif to == SPECTATORS:
        heading = _("%(who)s to the spectators") % {"who": sender}
    elif to == ME:
        heading = _("%(who)s, a note") % {"who": sender}
    else:
        name = names[to] if type(to) is int and 0 <= to < len(names) else str(to)
        heading = _("%(who)s to %(whom)s, privately") % {"who": sender, "whom": name}
    said = f"{heading}: {entry.get('text', '')}"
    # A moderator reads what they hid, marked so.
    return _("(hidden) %(line)s") % {"line": said} if entry.get("hidden") else said


def is_talk(event) -> bool:
    kind = event["kind"] if isinstance(event, dict) else event.kind
    return kind in TALK_KINDS
