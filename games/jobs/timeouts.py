"""What happens when a seat's clock runs out, by the game's policy.

Every path goes through the service like a player's move, with the seq the
sweep saw: if a player's move lands first, the timeout finds a stale seq and
does nothing, so a move and a timeout never both happen.

A timeout that fails (the title's `timeout_action` raises, or what it gives
is refused: a bug, never the player's doing) is contained, as healthchecks'
`sendalerts` contains a check it cannot evaluate: that seat's part is rolled
back, its traceback logged, the failure counted (`hooks.on_timeout_failure`),
and its deadline pushed back `CORREO_TIMEOUT_RETRY_SECONDS` (an hour) with
the game flagged for a moderator.  Otherwise the sweep would hand the same
game out again every minute, forever.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.db import DatabaseError, transaction

from games import hooks
from games.errors import GameNotActive, StaleSeq
from games.models import Event, Game, Seat
from games.services import clocks, seat_offers
from games.services.moves import do_submit_action
from games.services.seats import do_resign
from games.stream import store
from games.stream.derived import engine_for

log = logging.getLogger(__name__)

# A title's turn may take several actions (Havana: two cards, buying, end);
# one expiry plays the seat's turn out, but never more than this many actions.
MAX_ACTIONS_PER_EXPIRY = 10


def run_out(game_id: int, expected_seq: int, now: datetime.datetime) -> list[Event]:
    """Apply the policy to every seat of the game whose deadline has passed."""
    events: list[Event] = []
    try:
        with transaction.atomic():
            # The game row first, as every writer does: a move racing this
            # waits here, then finds its seq stale (and the other way round).
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            if game is None or not _still_due(game, expected_seq, now):
                return []
            # The seat's index breaks ties, so that the order of the seats
            # (and so who plays last) never rests on how the rows lie on disk.
            due = list(
                Seat.objects.filter(game=game, deadline__lte=now, to_act=True).order_by(
                    "deadline", "index"
                )
            )
            shared = len(game.to_act) > 1
            for seat in due:
                if game.status != Game.Status.ACTIVE or game.paused:
                    break  # an earlier seat's forfeit or flag settled the game for now
                events += _expire_or_hold(game, seat, now, shared=shared)
    except (StaleSeq, GameNotActive):
        return []  # a player or moderator got there first: nothing happened
    return events


def _still_due(game: Game, expected_seq: int, now: datetime.datetime) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and not game.paused
        and game.seq == expected_seq
        and game.deadline is not None
        and game.deadline <= now
    )


def _expire_or_hold(
    game: Game, seat: Seat, now: datetime.datetime, *, shared: bool
) -> list[Event]:
    """The seat's timeout; or, if applying it fails, the seat held back."""
    try:
        with transaction.atomic():  # a savepoint: a failure undoes this seat's part only
            return _expire(game, seat, shared=shared)
    except (StaleSeq, GameNotActive, DatabaseError):
        raise  # a race lost, or the database: the next sweep tries again as usual
    except Exception as error:
        log.exception(
            "the timeout of seat %s in game %s failed; held back %s s and flagged",
            seat.index, game.pk, settings.CORREO_TIMEOUT_RETRY_SECONDS,
        )  # fmt: skip
        hooks.timeout_failed(game, seat.index, error)
    game.refresh_from_db()  # the row as the rollback left it
    until = now + datetime.timedelta(seconds=settings.CORREO_TIMEOUT_RETRY_SECONDS)
    note = clocks.do_hold_timeout(game, seat.index, until=until)
    return [note] if note is not None else []


def _expire(game: Game, seat: Seat, *, shared: bool) -> list[Event]:
    clock = game.clock
    seat.timeouts += 1
    Seat.objects.filter(pk=seat.pk).update(timeouts=seat.timeouts)
    limit = clock.get("max_timeouts", 0)
    forfeit = clock["on_timeout"] == "forfeit"
    if forfeit or (limit and seat.timeouts >= limit and not _offered_instead(game, seat)):
        reason = f"seat {seat.index} ran out of time ({seat.timeouts} in a row)"
        return [do_resign(game, seat.index, actor=None, source="timer", reason=reason)]
    if clock["on_timeout"] == "moderator":
        return [_flag_for_moderators(game, seat)]
    return _play_out(game, seat.index, skip=clock["on_timeout"] == "skip", shared=shared)


def _offered_instead(game: Game, seat: Seat) -> bool:
    """Offer the seat in the lobby rather than resign it, where the table
    asked for that and it is not offered already; it counts its timeouts
    afresh and plays on by the clock's policy until someone takes it (if it
    runs out again first, it resigns)."""
    if seat_offers.do_offer_by_itself(game, seat, reason=seat_offers.OUT_OF_TIME) is None:
        return False
    seat.timeouts = 0
    Seat.objects.filter(pk=seat.pk).update(timeouts=0)
    return True


def _play_out(game: Game, seat: int, *, skip: bool, shared: bool) -> list[Event]:
    """The seat's turn played out, up to MAX_ACTIONS_PER_EXPIRY actions.

    A seat that ran out in a step it shared with others (a simultaneous
    choice) had one decision to make, and makes only that one: a step that
    follows is new, and if it falls to this seat, the seat gets its own time
    for it.  Otherwise whether the last seat taken went on playing would
    depend on the order in which the due seats were taken."""
    engine = engine_for(game)
    events = []
    for _ in range(1 if shared else MAX_ACTIONS_PER_EXPIRY):
        state = store.load(game, engine).state
        if game.status != Game.Status.ACTIVE or seat not in engine.to_act(state):
            break
        action = _choose(engine, state, seat, skip=skip)
        events.append(
            do_submit_action(
                game,
                seat,
                actor=None,
                action=action,
                text=None,
                expected_seq=game.seq,
                source=Event.Source.TIMER,
                kind=Event.Kind.TIMEOUT,
            )
        )
    return events


def _choose(engine, state, seat: int, *, skip: bool) -> dict:
    """Under a "skip" policy the seat does nothing where the title allows it
    (its skip_action); otherwise, and where it must act, its timeout_action."""
    if skip:
        action = engine.skip_action(state, seat)
        if action is not None:
            return action
    return engine.timeout_action(state, seat)


def _flag_for_moderators(game: Game, seat: Seat) -> Event:
    """Stop the clock and leave the decision to a moderator."""
    return clocks.do_pause(
        game, actor=None, reason=f"seat {seat.index} ran out of time: a moderator decides",
        source=Event.Source.TIMER, flag=True,
    )  # fmt: skip
