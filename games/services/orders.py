"""Standing orders: a seat's moves left in advance, written and cancelled
by their owner, and fired as the seat's move when it comes to act.

An order is an entry of the seat's private record (games.models.OrderEvent),
never an event of the game's stream: the stream's seqs, counts and hashes go
to every viewer, and an order must not show there.  What an order means is
the title's to say (games.engines.orders: `legal` when written, `decide`
when the seat is to act); this module never reads a title's state.

Firing: after every event that may change who is to act, once it is
committed (a `games.hooks.on_committed` listener, for games where orders
were ever written), each seat to act tries its standing orders, oldest
first.  The first that decides to fire is applied through
`moves.do_submit_action`, the path of every player's move (source `order`,
the seat's player as the actor: clocks, mails, seals and undo as for any
move), against exactly the seq it was decided on: a move that came first
wins and the order is decided again on the game as it then is.  An order
whose condition failed, or whose move the rules refused, is dropped with a
note to its owner; one for a round the game has left lapses.  The entry
that records a firing is written in the move's own statement (a
`games.hooks.on_rows` listener), so a move and its record exist together or
not at all.  An undo of the orders' own firing does not fire them again at
once: the seat has its turn back to play by hand (docs/orders.md).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import hooks
from games.engines import orders as programmes
from games.engines.base import IllegalAction
from games.errors import GameLocked, GameNotActive, InvalidRequest, NotFound, NotYourTurn, StaleSeq
from games.models import Event, Game, OrderEvent, Seat
from games.selectors import orders as selected
from games.services.common import (
    require_active,
    require_not_suspended,
    require_unlocked,
    seat_of,
)
from games.services.moves import do_submit_action
from games.stream import replay, store
from games.stream.derived import engine_for

log = logging.getLogger(__name__)

# A seat keeps at most this many standing orders at once.
MAX_STANDING = 20
# One chain of firings (orders answering orders) stops after this many moves;
# the next event starts another.
MAX_FIRINGS = 500

_local = threading.local()


# --- writing and cancelling ----------------------------------------------------------


def check_write_order(game: Game, user, *, order: Any, source: str) -> dict[str, Any]:
    """A player leaves an order for the seat they hold.  A `play` order may
    give its move as a line of text (`"text"` instead of `"action"`), read
    as the game stands now."""
    require_not_suspended(user)
    require_active(game)
    require_unlocked(game)
    seat = seat_of(game, user)
    engine = engine_for(game)
    state = store.load(game, engine).state
    if isinstance(order, dict) and order.get("kind") == "play" and "text" in order:
        order = _read_line(engine, state, seat, order)
    kept = programmes.write(engine, state, seat, order)
    if len(selected.standing(game, seat).get(seat, [])) >= MAX_STANDING:
        raise InvalidRequest(
            gettext_noop("a seat keeps at most %(n)s standing orders"), n=MAX_STANDING
        )
    number = do_write_order(game, seat, actor=user, order=kept, source=source)
    return {"id": number, "order": kept, "says": programmes.describe(engine, kept)}


def _read_line(engine, state, seat: int, order: dict[str, Any]) -> dict[str, Any]:
    text = order.get("text")
    if "action" in order or not isinstance(text, str) or not text.strip():
        raise IllegalAction("a play order gives its move as action or as text, not both")
    return {**{k: v for k, v in order.items() if k != "text"},
            "action": engine.parse(text.strip(), state, seat)}  # fmt: skip


def do_write_order(game: Game, seat: int, *, actor, order: dict[str, Any], source: str) -> int:
    """Record the order under the seat's next number; then, if the seat is
    to act now, it may fire at once."""
    with transaction.atomic():
        # The flag first: it takes the game row's lock, so a move being
        # appended now either reads it back set or commits before this
        # order does, and then the firing below sees that move.
        Game.objects.filter(pk=game.pk, orders_written=False).update(orders_written=True)
        for _ in range(5):
            number = selected.next_number(game.pk, seat)
            row = _entry(game, seat, OrderEvent.Kind.WRITTEN, number, actor=actor,
                         payload={"order": order, "via": source},
                         key=f"w:{game.pk}:{seat}:{number}")  # fmt: skip
            if store.write_new(hooks.Row(row, "key")):
                break
        else:  # pragma: no cover - five concurrent writes by one seat
            raise StaleSeq(game.seq, game.seq)
    game.orders_written = True
    do_fire_orders(game.pk)
    return number


def check_cancel_order(game: Game, user, *, number: Any) -> list[int]:
    """The owner cancels one standing order (`number`), or all of them
    (None).  An order that is not this seat's standing order is not found:
    the same answer whether it never existed, is spent or is another's."""
    require_not_suspended(user)
    seat = selected.owner_seat(game, user)
    # Only orders this player wrote: a seat handed on keeps its old player's.
    mine = {item.number for item in selected.standing(game, seat).get(seat, [])
            if item.actor_id == user.pk}  # fmt: skip
    if number is None:
        chosen = sorted(mine)
    elif type(number) is int and number in mine:
        chosen = [number]
    else:
        raise NotFound(gettext_noop("you have no standing order %(id)s"), id=str(number)[:20])
    for each in chosen:
        do_cancel_order(game, seat, each, actor=user)
    return chosen


def do_cancel_order(game: Game, seat: int, number: int, *, actor) -> None:
    row = _entry(game, seat, OrderEvent.Kind.CANCELLED, number, actor=actor, payload={},
                 key=f"c:{game.pk}:{seat}:{number}")  # fmt: skip
    store.write_new(hooks.Row(row, "key"))


def _entry(game, seat, kind, number, *, actor, payload, key, at=None) -> OrderEvent:
    return OrderEvent(
        game_id=game.pk, seat=seat, kind=kind, order=number, actor=actor,
        at=game.seq if at is None else at, payload=payload, created_at=timezone.now(), key=key,
    )  # fmt: skip


# --- firing --------------------------------------------------------------------------


def do_fire_orders(game_id: int) -> list[Event]:
    """Fire the orders of the seats to act, one move at a time, until none
    fires.  A firing's own commit calls back here in the same thread: that
    call returns at once, and this loop goes on."""
    if getattr(_local, "busy", False):
        return []
    _local.busy = True
    fired: list[Event] = []
    try:
        while len(fired) < MAX_FIRINGS:
            event = _fire_next(game_id)
            if event is None:
                break
            fired.append(event)
    finally:
        _local.busy = False
    return fired


def _fire_next(game_id: int) -> Event | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.locked or not game.to_act:
        return None
    standing = selected.standing(game)
    if not standing:
        return None
    engine = engine_for(game)
    state = store.load(game, engine).state
    _lapse_the_rest(game, engine, state, standing)
    due = [seat for seat in sorted(game.to_act) if standing.get(seat)]
    if not due:
        return None
    holders = {s.index: s for s in Seat.objects.filter(game=game, index__in=due)}
    previous = _Previous(game)
    for seat in due:
        holder = holders.get(seat)
        for item in standing[seat]:
            if holder is None or holder.user_id != item.actor_id:
                _spend(game, item, OrderEvent.Kind.DROPPED, "the seat changed hands", engine)
                continue
            if holder.status != Seat.Status.ACTIVE:
                _spend(game, item, OrderEvent.Kind.DROPPED, "you left the game", engine)
                continue
            decision = programmes.decide(engine, state, seat, item.order, previous.seen_by(seat))
            if decision.verdict == programmes.WAIT:
                continue
            if decision.verdict in (programmes.DROP, programmes.LAPSE):
                kind = (OrderEvent.Kind.DROPPED if decision.verdict == programmes.DROP
                        else OrderEvent.Kind.LAPSED)  # fmt: skip
                _spend(game, item, kind, decision.reason, engine)
                continue
            try:
                return _fire(game, seat, item, decision, holder.user)
            except IllegalAction as refused:
                _spend(game, item, OrderEvent.Kind.DROPPED, str(refused), engine)
            except (StaleSeq, NotYourTurn, GameNotActive, GameLocked):
                return None  # the game moved first: its own commit decides again
    return None


def _lapse_the_rest(game: Game, engine, state, standing) -> None:
    """Orders of the seats not to act lapse as soon as the game has left
    the round they name, not only when their seat next acts."""
    for seat, items in standing.items():
        if seat in (game.to_act or []):
            continue
        for item in items:
            try:
                decision = programmes.decide(engine, state, seat, item.order, None)
            except IllegalAction:
                continue  # a programme that can say nothing while the seat waits
            if decision.verdict == programmes.LAPSE:
                _spend(game, item, OrderEvent.Kind.LAPSED, decision.reason, engine)


def _fire(game: Game, seat: int, item: selected.Standing, decision, user) -> Event:
    _local.pending = (game.pk, seat, item.number, decision.done)
    try:
        return do_submit_action(
            game, seat, actor=user, action=decision.action, text=None,
            expected_seq=game.seq, source=Event.Source.ORDER, kind=Event.Kind.ACTION,
            exact=True,
        )  # fmt: skip
    finally:
        _local.pending = None


def _spend(game: Game, item: selected.Standing, kind: str, reason: str, engine) -> None:
    """An order dropped or lapsed at the game's seq, with the reason its owner is told."""
    says = programmes.describe(engine, item.order)
    row = _entry(game, item.seat, kind, item.number, actor=None,
                 payload={"reason": reason, "says": says},
                 key=f"{kind[0]}:{game.pk}:{item.seat}:{item.number}:{game.seq}")  # fmt: skip
    if store.write_new(hooks.Row(row, "key")):
        hooks.order_noted(hooks.OrderNote(game, item.seat, item.actor_id, kind, item.number,
                                          says, reason))  # fmt: skip


class _Previous:
    """The last move before now, as each seat is shown it (read once, when
    an order asks)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._event: Event | bool | None = False

    def seen_by(self, seat: int) -> dict[str, Any] | None:
        if self._event is False:
            self._event = _last_move(self.game)
        event = self._event
        if not isinstance(event, Event):
            return None
        payload = event.payload
        if event.seat != seat and "public" in payload:
            return payload["public"]
        return payload.get("action")


def _last_move(game: Game) -> Event | None:
    ranges = replay.live_ranges(game.seq, store.undo_map(game, game.seq))
    moves = Event.objects.filter(
        game=game, kind__in=(Event.Kind.ACTION, Event.Kind.TIMEOUT), seq__lte=game.seq
    ).order_by("-seq")
    for event in moves[:200]:
        if replay.is_live(event.seq, ranges):
            return event
    return None


# --- the hooks -----------------------------------------------------------------------


def _firing_rows(game: Game, event: Event, before: list[int]) -> list[hooks.Row]:
    """The entry that records a firing, written with the move itself."""
    pending = getattr(_local, "pending", None)
    if event.source != Event.Source.ORDER or pending is None:
        return []
    game_id, seat, number, done = pending
    if game_id != game.pk or seat != event.seat:
        return []
    row = OrderEvent(
        game_id=game.pk, seat=seat, kind=OrderEvent.Kind.FIRED, order=number,
        actor=event.actor, at=event.seq, payload={"done": done},
        created_at=event.created_at, key=f"f:{game.pk}:{event.seq}",
    )  # fmt: skip
    return [hooks.Row(row, "key")]


def _after_commit(game: Game, event: Event) -> None:
    """The committed listener: fire what is due after a move, a timeout or
    a resignation (never after an undo: see the module's words)."""
    if event.kind not in replay.ENGINE_KINDS:
        return
    try:
        do_fire_orders(game.pk)
    except Exception:
        # The event that called us has committed: an order's failure must
        # not turn it into an error for whoever made it.
        log.exception("standing orders of game %s after seq %s failed", game.pk, event.seq)


def _may_have_orders(game: Game) -> bool:
    return game.status == Game.Status.ACTIVE and bool(game.to_act) and selected.has_orders(game)


hooks.on_rows(_firing_rows)
hooks.on_committed(_after_commit, only_if=_may_have_orders)
