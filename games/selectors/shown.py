"""One game as a viewer sees it: the detail, its ETag, the legal actions of
the viewer's seat, the open takeback, pinned notes, and how the game stood
at a delayed spectator's head."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext_noop

from games.engines import base
from games.errors import NotASeat
from games.models import Event, Game, Seat
from games.selectors import narration, provisional
from games.selectors.verify_record import shown_hash
from games.selectors.viewers import Viewer, reveals_all, seats_of
from games.stream import replay, store
from games.stream.lru import LRU


def etag(game: Game, viewer: Viewer) -> str:
    """A validator that changes exactly when what this viewer may see of the
    game changes (the API's detail and the game page share it)."""
    return f'"{game.pk}-{viewer.head}-{viewer.seat}-{game.status}"'


_views = LRU(settings.CORREO_STATE_CACHE_SIZE)


def game_detail(game: Game, viewer: Viewer, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The game as the viewer may see it.  Behind the head (a delayed
    spectator) every field stands at the viewer's head: what the game row
    holds now is shown only where it cannot have changed since (the title,
    options, clock settings), and deadlines, which the log does not record,
    are not shown at all."""
    seats = seats_of(game) if seats is None else seats
    current = viewer.head == game.seq
    deadlines = not viewer.delayed
    seen = seen_at(game, viewer)
    note = provisional.note(base.get(game.title), game.options)
    return {
        "id": game.pk,
        "title": game.title,
        "status": game.status if current else Game.Status.ACTIVE,
        "seq": viewer.head,
        "head_hash": seen["head_hash"],
        "players": [
            {
                "seat": s.index,
                "username": s.user.username,
                "status": s.status if current else seen["statuses"][s.index],
                "deadline": s.deadline.isoformat() if deadlines and s.deadline else None,
            }
            for s in seats
        ],
        "clock": game.clock,
        "paused": game.paused if current else seen["paused"],
        "locked": game.locked if current else seen["locked"],
        "abort_reason": (game.abort_reason or None) if current else None,
        "notes": seen["notes"],
        "to_act": game.to_act if current else seen["to_act"],
        "your_seat": viewer.seat,
        "deadline": game.deadline.isoformat() if deadlines and game.deadline else None,
        "options": game.options,
        "public": game.public,
        "spectator_delay": game.spectator_delay,
        "press": game.press,
        "reveal_private": game.reveal_private,
        "view": seen["view"],
        "provisional_data": note is not None,
        "provisional_note": note,
        "result": game.result if current else None,
        "takeback": seen["takeback"],
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat() if current else seen["updated_at"],
    }


def seen_at(game: Game, viewer: Viewer) -> dict[str, Any]:
    """What the viewer sees at their head, memoised (a pure function of the
    stream up to it: the key names the game's head hash, which fixes the
    whole stream, and the viewer's head)."""
    key = (game.pk, game.seq, game.head_hash, viewer.seat, viewer.head)
    return _views.get_or_compute(key, lambda: _seen_at(game, viewer))


def _seen_at(game: Game, viewer: Viewer) -> dict[str, Any]:
    engine = base.get(game.title)
    state = store.load(game, engine, head=viewer.head).state
    seen = {
        **facts_at(game, viewer.head),
        "to_act": sorted(engine.to_act(state)),
        "view": engine.view(state, viewer.seat),
    }
    if viewer.head == game.seq:
        seen["head_hash"] = shown_hash(game, game.head_hash, reveal=reveals_all(game, viewer))
    return seen


def facts_at(game: Game, head: int) -> dict[str, Any]:
    """What every viewer standing at `head` is shown alike (the pinned notes,
    the open takeback; behind the game's head also the seats' statuses, the
    clock marks and the head's hash and time), memoised apart from the
    seat's own view: the seats and spectators of a game that moved all ask
    at the same head, and this is read once for all of them."""
    key = ("facts", game.pk, game.seq, game.head_hash, head)
    return _views.get_or_compute(key, lambda: _facts_at(game, head))


def _facts_at(game: Game, head: int) -> dict[str, Any]:
    from games.selectors import takeback

    facts: dict[str, Any] = {"notes": pinned_notes(game, head)}
    if head == game.seq:
        return {**facts, "takeback": takeback.status(game)}
    event = Event.objects.only("hash", "created_at").get(game=game, seq=head)
    statuses = _statuses_at(game, head)
    paused, locked = _clock_marks_at(game, head)
    playing = {seat for seat, status in statuses.items() if status == Seat.Status.ACTIVE}
    return {
        **facts,
        "head_hash": shown_hash(game, event.hash, reveal=False),
        "updated_at": event.created_at.isoformat(),
        "statuses": statuses,
        "paused": paused,
        "locked": locked,
        "takeback": takeback.status(game, head=head, playing=playing),
    }


def _statuses_at(game: Game, head: int) -> dict[int, str]:
    """Each seat's status as the game stood at `head` (seats leave by live resigns)."""
    ranges = replay.live_ranges(head, store.undo_map(game, head))
    resigns = Event.objects.filter(game=game, kind=Event.Kind.RESIGN, seq__lte=head)
    rows = resigns.values_list("seq", "seat")
    left = {seat for seq, seat in rows if replay.is_live(seq, ranges)}
    statuses = dict(Seat.objects.filter(game=game).values_list("index", "status"))
    return {
        index: status if status == Seat.Status.REPLACED else
        Seat.Status.RESIGNED if index in left else Seat.Status.ACTIVE
        for index, status in statuses.items()
    }  # fmt: skip


def _clock_marks_at(game: Game, head: int) -> tuple[bool, bool]:
    """Whether the clocks stood still, and the game was locked, at `head`."""
    clocks = Event.objects.filter(game=game, kind=Event.Kind.CLOCK, seq__lte=head).order_by("seq")
    return clock_marks(clocks.values_list("payload", flat=True))


def clock_marks(payloads: Iterable[dict[str, Any]]) -> tuple[bool, bool]:
    """Whether the clocks stood still, and whether a moderator held the game
    locked, after these `clock` events' payloads (in stream order; all of
    them: an undo takes back moves, not pauses or locks).  A lock stops
    running clocks without a pause event (its `pauses` says it did), and its
    unlock restarts only those (games.services.clocks)."""
    paused = locked = lock_paused = False
    for payload in payloads:
        mark = payload.get("clock")
        if mark in ("pause", "resume"):
            paused = mark == "pause"
        elif mark == "lock":
            locked, lock_paused = True, bool(payload.get("pauses"))
            paused = paused or lock_paused
        elif mark == "unlock":
            paused = paused and not lock_paused
            locked = lock_paused = False
    return paused, locked


def pinned_notes(game: Game, head: int) -> list[dict[str, Any]]:
    """The moderators' notes pinned to the game up to `head`, oldest first."""
    rows = Event.objects.filter(game=game, kind=Event.Kind.NOTE, seq__lte=head).order_by("seq")
    return [
        {"seq": seq, "text": payload["reason"], "created_at": created_at.isoformat()}
        for seq, payload, created_at in rows.values_list("seq", "payload", "created_at")
        if payload.get("note") == Event.PINNED_NOTE
    ]


def open_takeback(game: Game, viewer: Viewer) -> dict[str, Any] | None:
    """The open takeback request, as the viewer's head stands."""
    from games.selectors import takeback

    if viewer.head == game.seq:
        return takeback.status(game)
    return seen_at(game, viewer)["takeback"]


def legal_actions(game: Game, viewer: Viewer) -> dict[str, Any]:
    if viewer.seat is None:
        raise NotASeat(gettext_noop("you do not hold a seat in this game"))
    engine = base.get(game.title)
    actions: list[dict[str, Any]] = []
    if game.status == Game.Status.ACTIVE:
        state = store.load(game, engine).state
        if viewer.seat in engine.to_act(state):
            actions = [
                {"action": a, "text": engine.text(a)}
                for a in engine.legal_actions(state, viewer.seat)
            ]
    return {"seq": game.seq, "seat": viewer.seat, "actions": actions}


def legal_moves_in_words(game: Game, viewer: Viewer, names: list[str]) -> list[dict[str, Any]]:
    """The viewer's legal moves now, each with its words as the turn mail
    says them (`narration.move_words`: line, gloss, heading) and what it
    would lead to where the title says (`prospect`, or None): the game
    page's moves.  Empty for a spectator or when the seat is not to act."""
    if viewer.seat is None or game.status != Game.Status.ACTIVE:
        return []
    engine = base.get(game.title)
    state = store.load(game, engine).state
    if viewer.seat not in engine.to_act(state):
        return []
    legal = engine.legal_actions(state, viewer.seat)
    prospects = (
        engine.prospects(state, viewer.seat, legal, language=get_language())
        if hasattr(engine, "prospects")
        else [None] * len(legal)
    )
    return [
        {"action": a, **narration.move_words(engine, state, viewer.seat, a, names), "prospect": p}
        for a, p in zip(legal, prospects, strict=True)
    ]
