"""A seat's action: a player's move, and the timer's move for a seat."""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext_noop

from games.engines.base import Action, Engine, IllegalAction, State
from games.errors import InvalidRequest, NotFound, NotYourTurn, StaleSeq
from games.models import Event, Game
from games.services.common import (
    STALE_RETRIES,
    current_seq,
    held,
    require_active,
    require_not_suspended,
    require_unlocked,
    seat_of,
)
from games.stream import sql, store
from games.stream.derived import derived_fields, engine_for, maybe_snapshot
from games.stream.payloads import action_payload

log = logging.getLogger(__name__)


def check_submit_action(
    game: Game,
    user,
    *,
    action: Action | None = None,
    text: str | None = None,
    expected_seq: int,
    source: str = Event.Source.API,
) -> Event:
    """A player's action for the seat they hold (given as data or as a text line).

    `game` is a row read in this request: one that fell behind costs a
    StaleSeq at worst, never a wrong move, since the append is conditional.
    """
    require_active(game)
    require_not_suspended(user)
    return do_submit_action(
        game, seat_of(game, user), actor=user, action=action, text=text,
        expected_seq=expected_seq, source=source, kind=Event.Kind.ACTION,
    )  # fmt: skip


def check_submit_action_by_id(
    pk: int,
    user,
    *,
    action: Action | None = None,
    text: str | None = None,
    expected_seq: int,
    source: str = Event.Source.API,
) -> Event:
    """`check_submit_action` for a game known by id: the row and the player's
    seat come in one read (the API's hot path), with the players, whom a
    move that hands the turn on tells."""
    game = sql.game(pk, user.pk, with_players=True, after=store.known_seq(pk))
    if game is None:
        raise NotFound(gettext_noop("no such game"))
    require_active(game)
    require_not_suspended(user)
    return do_submit_action(
        game, held(game.player_seat), actor=user, action=action, text=text,
        expected_seq=expected_seq, source=source, kind=Event.Kind.ACTION,
    )  # fmt: skip


def do_submit_action(
    game: Game,
    seat: int,
    *,
    actor,
    action: Action | None,
    text: str | None,
    expected_seq: int,
    source: str,
    kind: str,
    extra: dict[str, Any] | None = None,
    exact: bool = False,
) -> Event:
    """Validate and append one action of `seat`: a player's move, or the
    timer's (`kind` timeout) when the seat's clock ran out.  `extra` goes
    into the payload beside the action (a bot's record of its choice).
    `exact`: append right after `expected_seq` or not at all (a standing
    order, decided on the game as it stood there).

    A player's move that names an older seq than the game's is applied when
    the seat's legal moves are the same now as at that seq: in a simultaneous
    phase the others acted meanwhile, and nothing the player chose from has
    changed.  The same holds when a concurrent append wins the race to the
    seq the move named, so every seat of a simultaneous choice that posts at
    one seq is applied.  Otherwise the move went stale: StaleSeq."""
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
        raise InvalidRequest(gettext_noop("seq must be an integer"))
    for attempt in range(STALE_RETRIES):
        if attempt or expected_seq != game.seq:
            game.refresh_from_db()  # the row may be older than what the client saw
        try:
            return _submit(game, seat, actor=actor, action=action, text=text, seen=expected_seq,
                           source=source, kind=kind, extra=extra, exact=exact)  # fmt: skip
        except _LostRace as lost:
            if kind != Event.Kind.ACTION or exact or attempt == STALE_RETRIES - 1:
                raise StaleSeq(expected_seq, lost.current) from None
    raise AssertionError("unreachable")  # pragma: no cover


class _LostRace(StaleSeq):
    """A concurrent append took the seq this move was to follow: the move
    is judged again against the game as it is now."""


def _submit(game, seat, *, actor, action, text, seen, source, kind, extra, exact) -> Event:
    require_active(game)
    require_unlocked(game)
    engine = engine_for(game)
    at = _acting_seq(game, engine, seat, seen, kind, exact)
    loaded = store.load(game, engine)
    if seat not in engine.to_act(loaded.state):
        raise NotYourTurn(gettext_noop("it is not your turn"))
    if (action is None) == (text is None):
        raise InvalidRequest(gettext_noop("give exactly one of action or text"))
    if text is not None:
        action = _parse(engine, loaded.state, seat, text)
    new_state = _apply(engine, loaded.state, seat, action)
    try:
        event = store.append(
            game,
            expected_seq=at,
            kind=kind,
            source=source,
            payload={
                **action_payload(engine, loaded.state, seat, action, after=new_state),
                **(extra or {}),
            },
            seat=seat,
            actor=actor,
            head_hash=loaded.head_hash,
            derived=derived_fields(engine, new_state),
        )
    except StaleSeq as stale:
        raise _LostRace(stale.expected, stale.current) from None
    maybe_snapshot(game, engine, event, new_state)
    store.remember(game, engine, store.Loaded(new_state, event.seq, event.hash))
    return event


def _acting_seq(game: Game, engine: Engine, seat: int, seen: int, kind: str, exact: bool) -> int:
    """The seq a move that was chosen at `seen` is appended after: the
    game's when only talk came since (current_seq), or when the seat's legal
    moves are the same now as then."""
    try:
        return current_seq(game, seen)
    except StaleSeq:
        if kind != Event.Kind.ACTION or exact or not 0 < seen < game.seq:
            raise
        then, now = (_moves_at(game, engine, seat, seq) for seq in (seen, game.seq))
        if then != now:
            raise
        return game.seq


def _moves_at(game: Game, engine: Engine, seat: int, seq: int) -> list:
    """The legal moves of `seat` as the game stood at `seq` (none when it
    was not the seat's turn)."""
    state = store.load(game, engine, head=seq).state
    return engine.legal_actions(state, seat) if seat in engine.to_act(state) else []


def _parse(engine: Engine, state: State, seat: int, text: str) -> Action:
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction("empty command")
    return engine.parse(text.strip(), state, seat)


def _apply(engine: Engine, state: State, seat: int, action: Any) -> State:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction('an action is an object with a "type"')
    try:
        return engine.apply(state, seat, action)
    except IllegalAction:
        raise
    except Exception as exc:
        # An engine should reject malformed input itself; if one slips through,
        # the player still gets a clear refusal and the bug lands in the log.
        log.exception("engine %s failed on action %r", engine.NAME, action)
        raise IllegalAction(f"this action cannot be applied ({type(exc).__name__})") from exc
