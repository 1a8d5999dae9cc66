"""The one write path: every command (API, web, email, timer, moderator)
creates games, applies actions and undoes through these functions."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.db import transaction

from games import chain, commitment, replay, sql, store
from games import clock as clock_options
from games.engines import base
from games.engines.base import Action, Engine, IllegalAction, State
from games.errors import (
    Forbidden,
    GameNotActive,
    InvalidRequest,
    NotASeat,
    NotFound,
    NotYourTurn,
    StaleSeq,
)
from games.models import Event, Game, Seat
from games.payloads import action_payload

log = logging.getLogger(__name__)


def engine_for(game: Game) -> Engine:
    return base.get(game.title)


def derived_fields(engine: Engine, state: State) -> dict[str, Any]:
    """The Game columns that mirror the state, rewritten on every append."""
    result = engine.result(state)
    finished = result is not None
    return {
        "to_act": [] if finished else sorted(engine.to_act(state)),
        "status": Game.Status.FINISHED if finished else Game.Status.ACTIVE,
        "result": result,
    }


def create_game(
    *,
    title: str,
    players: list,
    options: dict[str, Any] | None = None,
    creator=None,
    seed: int | None = None,
    source: str = Event.Source.API,
    public: bool = True,
    spectator_delay: int = 0,
    clock: dict[str, Any] | None = None,
) -> Game:
    """Create and start a game; `players` are users in seat order."""
    try:
        engine = base.get(title)
    except KeyError:
        raise InvalidRequest(f"unknown title {title!r}") from None
    if not engine.MIN_PLAYERS <= len(players) <= engine.MAX_PLAYERS:
        raise InvalidRequest(
            f"{engine.TITLE} takes {engine.MIN_PLAYERS}-{engine.MAX_PLAYERS} players, "
            f"not {len(players)}"
        )
    if len({user.pk for user in players}) != len(players):
        raise InvalidRequest("each player may hold only one seat")
    if not isinstance(options, dict | None):
        raise InvalidRequest("options must be an object")
    if not isinstance(public, bool):
        raise InvalidRequest("public must be true or false")
    if type(spectator_delay) is not int or not 0 <= spectator_delay <= 1000:
        raise InvalidRequest("spectator_delay must be a number of moves from 0 to 1000")
    resolved = engine.resolve_options(options)
    clock_config = clock_options.parse(clock)
    seed = secrets.randbits(63) if seed is None else seed
    setup = engine.setup(len(players), resolved, seed)
    salt = commitment.new_salt()
    with transaction.atomic():
        game = Game.objects.create(
            title=title,
            options=resolved,
            engine_version=engine.VERSION,
            seed=seed,
            salt=salt,
            created_by=creator,
            public=public,
            spectator_delay=spectator_delay,
            clock=clock_config,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=user) for i, user in enumerate(players)
        )
        payload = {
            "title": title,
            "engine_version": engine.VERSION,
            "options": resolved,
            "seats": [user.pk for user in players],
            "public": public,
            "spectator_delay": spectator_delay,
            "clock": clock_config,
            "commitment": commitment.commit(setup, salt),
            "setup": setup,
        }
        store.append(
            game,
            expected_seq=0,
            kind=Event.Kind.CREATED,
            source=source,
            payload=payload,
            actor=creator,
            head_hash=chain.GENESIS_HASH,
            derived=derived_fields(engine, setup),
        )
    return game


def seat_of(game: Game, user) -> int:
    return _held(sql.active_seat(game.pk, user.pk))


def _held(seat: int | None) -> int:
    """`seat`, if the user holds one (None: they do not)."""
    if seat is None:
        raise NotASeat("you do not hold a seat in this game")
    return seat


def check_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(f"this game is {game.status}")


def submit_action(
    game: Game,
    user,
    *,
    action: Action | None = None,
    text: str | None = None,
    expected_seq: int,
    source: str = Event.Source.API,
    kind: str = Event.Kind.ACTION,
) -> Event:
    """Validate and append one seat's action (given as data or as a text line).

    `game` is a row read in this request: one that fell behind costs a
    StaleSeq at worst, never a wrong move, since the append is conditional.
    """
    check_active(game)
    return apply_for_seat(
        game, seat_of(game, user), actor=user, action=action, text=text,
        expected_seq=expected_seq, source=source, kind=kind,
    )  # fmt: skip


def submit_move(
    pk: int,
    user,
    *,
    action: Action | None = None,
    text: str | None = None,
    expected_seq: int,
    source: str = Event.Source.API,
) -> Event:
    """`submit_action` for a game known by id: the row and the player's seat
    come in one read (the API's hot path)."""
    game = sql.game(pk, user.pk)
    if game is None:
        raise NotFound("no such game")
    check_active(game)
    return apply_for_seat(
        game, _held(game.player_seat), actor=user, action=action, text=text,
        expected_seq=expected_seq, source=source, kind=Event.Kind.ACTION,
    )  # fmt: skip


def apply_for_seat(
    game: Game,
    seat: int,
    *,
    actor,
    action: Action | None,
    text: str | None,
    expected_seq: int,
    source: str,
    kind: str,
) -> Event:
    """The shared core of a player's move and a timer's move for a seat."""
    if expected_seq != game.seq:
        game.refresh_from_db()  # the row may be older than what the client saw
    check_active(game)
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
        raise InvalidRequest("seq must be an integer")
    if expected_seq != game.seq:
        raise StaleSeq(expected_seq, game.seq)
    engine = engine_for(game)
    loaded = store.load(game, engine)
    if seat not in engine.to_act(loaded.state):
        raise NotYourTurn("it is not your turn")
    if (action is None) == (text is None):
        raise InvalidRequest("give exactly one of action or text")
    if text is not None:
        action = _parse(engine, loaded.state, seat, text)
    new_state = _apply(engine, loaded.state, seat, action)
    event = store.append(
        game,
        expected_seq=expected_seq,
        kind=kind,
        source=source,
        payload=action_payload(engine, loaded.state, seat, action),
        seat=seat,
        actor=actor,
        head_hash=loaded.head_hash,
        derived=derived_fields(engine, new_state),
    )
    _maybe_snapshot(game, engine, event, new_state)
    store.remember(game, engine, store.Loaded(new_state, event.seq, event.hash))
    return event


def resign(game: Game, user, *, source: str = Event.Source.API, reason: str = "") -> Event:
    """A player leaves: the title's rules for a leaving player apply, or the
    game is aborted where the title cannot go on without them."""
    return resign_seat(game, seat_of(game, user), actor=user, source=source, reason=reason)


def resign_seat(game: Game, seat: int, *, actor, source: str, reason: str = "") -> Event:
    game.refresh_from_db()
    check_active(game)
    engine = engine_for(game)
    loaded = store.load(game, engine)
    after = engine.resign(loaded.state, seat)
    if after is None:
        derived = {"to_act": [], "status": Game.Status.ABORTED, "result": None}
        after = loaded.state
    else:
        derived = derived_fields(engine, after)
    with transaction.atomic():
        event = store.append(
            game, expected_seq=game.seq, kind=Event.Kind.RESIGN, source=source,
            payload={"reason": reason, "aborts": derived["status"] == Game.Status.ABORTED},
            seat=seat, actor=actor, head_hash=loaded.head_hash, derived=derived,
        )  # fmt: skip
        sync_seat_statuses(game)
    _maybe_snapshot(game, engine, event, after)
    return event


def sync_seat_statuses(game: Game) -> None:
    """Seat.status mirrors the live resign events (an undo can bring a seat back)."""
    ranges = replay.live_ranges(game.seq, store.undo_map(game, game.seq))
    resigns = Event.objects.filter(game=game, kind=Event.Kind.RESIGN).values_list("seq", "seat")
    resigned = {seat for seq, seat in resigns if replay.is_live(seq, ranges)}
    seats = Seat.objects.filter(game=game).exclude(status=Seat.Status.REPLACED)
    seats.filter(index__in=resigned).update(status=Seat.Status.RESIGNED)
    seats.exclude(index__in=resigned).update(status=Seat.Status.ACTIVE)


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


def _maybe_snapshot(game: Game, engine: Engine, event: Event, state) -> None:
    if store.snapshot_due(event.seq):
        store.save_snapshot(game, engine, event.seq, event.hash, state)


def undo(game: Game, moderator, *, to_seq: int, reason: str) -> Event:
    """A moderator's undo: the game continues as it stood after `to_seq`."""
    if not getattr(moderator, "is_moderator", False):
        raise Forbidden("only moderators can undo")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidRequest("an undo needs a reason")
    game.refresh_from_db()
    if type(to_seq) is not int or not 1 <= to_seq < game.seq:
        raise InvalidRequest(f"to_seq must be between 1 and {game.seq - 1}")
    return append_undo(
        game, actor=moderator, to_seq=to_seq, reason=reason.strip(), source=Event.Source.MODERATOR
    )


def _derived_after_undo(engine: Engine, target: Game, state: State) -> dict[str, Any]:
    """A game undone to before an abort is active again."""
    resigns = Event.objects.filter(game_id=target.pk, kind=Event.Kind.RESIGN, seq__lte=target.seq)
    aborted = [seq for seq, payload in resigns.values_list("seq", "payload") if payload["aborts"]]
    ranges = replay.live_ranges(target.seq, store.undo_map(target, target.seq))
    if any(replay.is_live(seq, ranges) for seq in aborted):
        return {"to_act": [], "status": Game.Status.ABORTED, "result": None}
    return derived_fields(engine, state)


def append_undo(game: Game, *, actor, to_seq: int, reason: str, source: str) -> Event:
    """Append an `undo` to `to_seq` after the game's current head."""
    engine = engine_for(game)
    target = store.load(game, engine, head=to_seq)
    target_game = Game(pk=game.pk, seq=to_seq, status=Game.Status.ACTIVE)
    with transaction.atomic():
        event = store.append(
            game,
            expected_seq=game.seq,
            kind=Event.Kind.UNDO,
            source=source,
            payload={"to_seq": to_seq, "reason": reason},
            actor=actor,
            head_hash=game.head_hash,
            derived=_derived_after_undo(engine, target_game, target.state),
        )
        sync_seat_statuses(game)
    _maybe_snapshot(game, engine, event, target.state)
    return event
