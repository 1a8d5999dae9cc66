"""Reads: what a requester may see of games, their actions and their logs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.http import Http404

from games import commitment, replay, sql, store, visibility
from games.engines import base
from games.errors import Forbidden, NotASeat
from games.memo import LRU
from games.models import Event, Game, Seat

MOVE_KINDS = ("action", "timeout")


@dataclass
class Viewer:
    """Who is looking at a game, and up to which seq they may see it."""

    seat: int | None
    moderator: bool
    head: int

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def games_for(user, *, mine: bool = False, to_act: bool = False) -> QuerySet[Game]:
    """Games the user may list: their own, and public ones unless `mine`."""
    if user.is_authenticated:
        own = Q(seats__user=user)
        if to_act:
            return Game.objects.filter(seats__user=user, seats__to_act=True).distinct()
        games = Game.objects.filter(own if mine else own | Q(public=True))
    else:
        games = Game.objects.none() if (mine or to_act) else Game.objects.filter(public=True)
    return games.distinct().prefetch_related("seats__user")


def game(pk: int) -> Game:
    """The game row as it is now, or 404."""
    row = sql.game(pk)
    if row is None:
        raise Http404("no such game")
    return row


def seats_of(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("index"))


_tables = LRU(settings.CORREO_STATE_CACHE_SIZE)


def game_with_seats(pk: int) -> tuple[Game, list[Seat]]:
    """A game and its seats with their users: the hot read path.

    Everything shown of a game and its seats changes only with an appended
    event, so after one small query for the head the rows are memoised per
    head hash (read-only for the caller).
    """
    head = sql.head(pk)
    if head is None:
        raise Http404("no such game")
    key = (pk, *head)
    table = _tables.get_or_compute(key, lambda: _load_table(pk))
    if (table[0].seq, table[0].head_hash) != head:
        # The game moved on between the two reads: serve the newer rows once,
        # and keep no entry that does not match its key.
        _tables.discard(key)
    return table


def _load_table(pk: int) -> tuple[Game, list[Seat]]:
    seats = list(Seat.objects.filter(game_id=pk).select_related("game", "user").order_by("index"))
    if not seats:
        raise Http404("no such game")
    game = seats[0].game
    for seat in seats:
        seat.game = game
    return game, seats


def viewer_of(game: Game, user, seats: list[Seat] | None = None) -> Viewer:
    """The requester's seat and visible head; refuses strangers to private games."""
    seat = None
    if user.is_authenticated:
        for candidate in seats if seats is not None else seats_of(game):
            if candidate.user_id == user.pk and candidate.status != Seat.Status.REPLACED:
                seat = candidate.index
    moderator = bool(getattr(user, "is_moderator", False))
    if seat is None and not moderator and not game.public:
        raise Forbidden("this game is private")
    head = game.seq
    if seat is None and not moderator and game.spectator_delay and game.status == "active":
        head = delayed_head(game, game.spectator_delay)
    return Viewer(seat=seat, moderator=moderator, head=head)


def delayed_head(game: Game, moves: int) -> int:
    """The seq just before the `moves`-th latest live move (1 if there are fewer)."""
    ranges = replay.live_ranges(game.seq, store.undo_map(game, game.seq))
    seqs = (
        Event.objects.filter(game=game, kind__in=MOVE_KINDS)
        .order_by("-seq")
        .values_list("seq", flat=True)
    )
    counted = 0
    for seq in seqs.iterator():
        if replay.is_live(seq, ranges):
            counted += 1
            if counted == moves:
                return seq - 1
    return 1


_views = LRU(settings.CORREO_STATE_CACHE_SIZE)


def game_detail(game: Game, viewer: Viewer, seats: list[Seat] | None = None) -> dict[str, Any]:
    seats = seats_of(game) if seats is None else seats
    current = viewer.head == game.seq
    if current:
        key = (game.pk, game.seq, game.head_hash, viewer.seat)
        seen = _views.get_or_compute(key, lambda: _seen_at(game, viewer))
    else:
        seen = _seen_at(game, viewer)
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
                "status": s.status,
                "deadline": s.deadline.isoformat() if s.deadline else None,
            }
            for s in seats
        ],
        "clock": game.clock,
        "paused": game.paused,
        "to_act": game.to_act if current else seen["to_act"],
        "your_seat": viewer.seat,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "options": game.options,
        "public": game.public,
        "spectator_delay": game.spectator_delay,
        "view": seen["view"],
        "result": game.result if current else None,
        "takeback": seen["takeback"],
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


def _seen_at(game: Game, viewer: Viewer) -> dict[str, Any]:
    """What the viewer sees at their head: a pure function of the stream up to it."""
    from games import takeback

    engine = base.get(game.title)
    current = viewer.head == game.seq
    state = store.load(game, engine, head=viewer.head).state
    return {
        "head_hash": shown_head_hash(
            game,
            game.head_hash if current else head_hash_at(game, viewer.head),
            reveal=current and reveals_all(game, viewer),
        ),
        "to_act": sorted(engine.to_act(state)),
        "view": engine.view(state, viewer.seat),
        "takeback": takeback.status(game) if current else None,
    }


def head_hash_at(game: Game, seq: int) -> str:
    return Event.objects.values_list("hash", flat=True).get(game=game, seq=seq)


def shown_head_hash(game: Game, head_hash: str, *, reveal: bool) -> str | None:
    """A head hash as a viewer may see it: a version-1 hash can give away
    hidden values (games.chain), so only those who see everything get one."""
    return head_hash if game.chain_version >= 2 or reveal else None


def legal_actions(game: Game, viewer: Viewer) -> dict[str, Any]:
    if viewer.seat is None:
        raise NotASeat("you do not hold a seat in this game")
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


def reveals_all(game: Game, viewer: Viewer) -> bool:
    return game.status != Game.Status.ACTIVE


def events(game: Game, viewer: Viewer, *, after: int, limit: int) -> list[dict[str, Any]]:
    rows = Event.objects.filter(game=game, seq__gt=after, seq__lte=viewer.head).select_related(
        "actor"
    )
    reveal = reveals_all(game, viewer)
    return [
        {
            **visibility.event_for(
                event, viewer.seat, reveal_all=reveal, chain_version=game.chain_version
            ),
            "actor": event.actor.username if event.actor else None,
        }
        for event in rows.order_by("seq")[:limit]
    ]


def audit(game: Game, viewer: Viewer) -> dict[str, Any]:
    if not viewer.moderator:
        raise Forbidden("only moderators may audit a game")
    rows = list(Event.objects.filter(game=game).select_related("actor").order_by("seq"))
    problems = store.chain_problems(game, rows)
    return {
        "id": game.pk,
        "seq": game.seq,
        "head_hash": game.head_hash,
        "chain": {"version": game.chain_version, "valid": not problems, "problems": problems},
        "live": replay.live_ranges(game.seq, store.undo_map(game, game.seq)),
        "events": [
            {
                **visibility.event_for(
                    event, None, reveal_all=True, chain_version=game.chain_version
                ),
                "actor": event.actor.username if event.actor else None,
            }
            for event in rows
        ],
        "verify": verification_of(game, reveal=True),
    }


HOW_TO_VERIFY = (
    "commitment = sha256(canonical_json(setup) + salt) as lowercase hex, where canonical_json "
    "is JSON with keys sorted, no whitespace (separators ',' and ':') and UTF-8 kept as is "
    "(Python: json.dumps(setup, sort_keys=True, separators=(',', ':'), ensure_ascii=False)). "
    "The commitment was published in the created event (seq 1) before the first move; "
    "the setup and salt are revealed when the game ends."
)

HOW_TO_VERIFY_CHAIN = (
    "Version 2: each event's hash = sha256(canonical_json({'prev': prev_hash, 'event': "
    "{'game', 'seq', 'kind', 'seat', 'source', 'created_at', 'payload': public_payload, "
    "'commitment'}})), where public_payload is the event's public_payload if shown, else its "
    "payload; the first prev_hash is 64 zeros. Where an event carries an opening (your own "
    "events; every event once the game is over), commitment = sha256(canonical_json(opening)). "
    "Version 1 (older games): hash = sha256(canonical_json({'prev': prev_hash, 'event': "
    "{'game', 'seq', 'kind', 'seat', 'source', 'created_at', 'actor': opening.actor, "
    "'payload': opening.payload}})), shown once the game is over."
)


def verification_of(game: Game, *, reveal: bool) -> dict[str, Any]:
    created = Event.objects.get(game=game, seq=1)
    info: dict[str, Any] = {
        "id": game.pk,
        "commitment": created.payload["commitment"],
        "created_event_hash": shown_head_hash(game, created.hash, reveal=reveal),
        "head_hash": shown_head_hash(game, game.head_hash, reveal=reveal),
        "algorithm": "sha256",
        "how_to_verify": HOW_TO_VERIFY,
        "chain_version": game.chain_version,
        "how_to_verify_chain": HOW_TO_VERIFY_CHAIN,
        "revealed": reveal,
    }
    if reveal:
        setup = created.payload["setup"]
        info.update(
            setup=setup,
            salt=game.salt,
            matches=commitment.commit(setup, game.salt) == created.payload["commitment"],
        )
    return info


def verification(game: Game, viewer: Viewer) -> dict[str, Any]:
    return verification_of(game, reveal=game.status != Game.Status.ACTIVE or viewer.moderator)
