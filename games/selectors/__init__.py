"""Reads: what a requester may see of games, their actions and their logs."""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, When
from django.utils.translation import gettext_noop

from games.engines import base
from games.errors import Forbidden, InvalidRequest, NotASeat, NotFound
from games.models import Event, Game, Seat
from games.selectors import provisional, visibility
from games.stream import chain, commitment, replay, sql, store
from games.stream.lru import LRU
from games.stream.sql import Player

MOVE_KINDS = ("action", "timeout")
QUEUE_LIMIT = 500


@dataclass
class Viewer:
    """Who is looking at a game, and up to which seq they may see it."""

    seat: int | None
    moderator: bool
    head: int
    # A spectator who sees the game late is never shown deadlines: the log
    # does not record them as they stood, and seeing them now would tell.
    delayed: bool = False

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def games_for(user, *, mine: bool = False, to_act: bool = False) -> QuerySet[Game]:
    """Games the user may list: their own, and public ones unless `mine`.
    Their seats are asked with EXISTS rather than joined, so no game comes
    twice and the database needs no DISTINCT over the list before sorting."""
    if not user.is_authenticated:
        games = Game.objects.none() if (mine or to_act) else Game.objects.filter(public=True)
        return games.prefetch_related("seats__user")
    seats = Seat.objects.filter(game=OuterRef("pk"), user=user)
    if to_act:
        games = Game.objects.filter(Exists(seats.filter(to_act=True)))
    elif mine:
        games = Game.objects.filter(Exists(seats))
    else:
        games = Game.objects.filter(Q(Exists(seats)) | Q(public=True))
    return games.prefetch_related("seats__user")


def users_in_order(usernames: list[str]) -> list:
    """The active users of these names, in the order given (a game's seats);
    an entry `bot:random` or `bot:greedy` asks for a bot (accounts.bots)."""
    from accounts import bots
    from accounts.models import User

    unknown = [name for name in usernames if bots.names_a_bot(name) and not bots.kind_named(name)]
    if unknown:
        raise InvalidRequest(
            gettext_noop("no such bot: %(names)s (bot:random or bot:greedy)"),
            names=", ".join(unknown),
        )
    people = [name for name in usernames if not bots.names_a_bot(name)]
    users = {
        u.username: u
        for u in User.objects.filter(username__in=people, is_active=True, suspended=False)
    }
    missing = [name for name in people if name not in users]
    if missing:
        raise InvalidRequest(gettext_noop("no such player: %(names)s"), names=", ".join(missing))
    return [
        bots.Wanted(kind) if (kind := bots.kind_named(name)) else users[name] for name in usernames
    ]


def account(username: str):
    """The user of that name (NotFound if there is none)."""
    from accounts.models import User

    fits = isinstance(username, str) and len(username) <= 150 and username.isprintable()
    user = User.objects.filter(username=username).first() if fits else None
    if user is None:
        raise NotFound(gettext_noop("no such player"))
    return user


def suspension_record(suspension) -> dict[str, Any]:
    def name(user) -> str | None:
        return user.username if user is not None else None

    return {
        "username": suspension.user.username,
        "suspended": suspension.lifted_at is None,
        "reason": suspension.reason,
        "suspended_by": name(suspension.suspended_by),
        "created_at": suspension.created_at.isoformat(),
        "lifted_at": suspension.lifted_at.isoformat() if suspension.lifted_at else None,
        "lifted_by": name(suspension.lifted_by),
    }


def game(pk: int) -> Game:
    """The game row as it is now (NotFound if there is none)."""
    row = sql.game(pk)
    if row is None:
        raise NotFound(gettext_noop("no such game"))
    return row


def players(game_id: int, indexes=None) -> list[Player]:
    """Who plays the game: each seat but replaced ones (or just the seats in
    `indexes`) with its index, status and user, in seat order."""
    return sql.players(game_id, indexes)


def behind(user) -> Q:
    """The games `user` sees late, as SQL: the rule of `viewer_of` and
    `held_back` (public, running, with a delay, no seat of theirs but a
    replaced one), for lists to sort and page by in the database."""
    if getattr(user, "is_moderator", False):
        return Q(pk__in=[])
    delayed = Q(public=True, status=Game.Status.ACTIVE, spectator_delay__gt=0)
    if not user.is_authenticated:
        return delayed
    theirs = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return delayed & ~Q(Exists(theirs.exclude(status=Seat.Status.REPLACED)))


def newest_first(games: QuerySet[Game], user) -> QuerySet[Game]:
    """`games`, the most recently updated first as far as `user` may know:
    a game whose spectators see it late sorts by the time of the event they
    see (kept on its row: games.stream.spectators), or its place in the list would
    tell them that it moved.  The database sorts and pages for everyone."""
    if getattr(user, "is_moderator", False):
        return games.order_by("-updated_at", "-id")
    listed_at = Case(When(behind(user), then=F("spectator_at")), default=F("updated_at"))
    return games.annotate(listed_at=listed_at).order_by("-listed_at", "-id")


def shown_seq(user) -> Case:
    """The seq `user` sees of each game, as SQL (a delayed spectator's point)."""
    return Case(When(behind(user), then=F("spectator_seq")), default=F("seq"))


def summary(game: Game, user) -> dict[str, Any]:
    """A game in the list, as `user` may see it: a delayed spectator's stands
    at their head, like the game's detail."""
    seats = list(game.seats.all())
    viewer = viewer_of(game, user, seats)
    current = viewer.head == game.seq
    return {
        "id": game.pk,
        "title": game.title,
        "status": game.status,
        "seq": viewer.head,
        "players": [{"seat": seat.index, "username": seat.user.username} for seat in seats],
        "to_act": game.to_act if current else spectators_to_act(game),
        "deadline": game.deadline.isoformat() if game.deadline and not viewer.delayed else None,
        "updated_at": (game.updated_at if current else game.spectator_at).isoformat(),
    }


_to_act_seen = LRU(settings.CORREO_STATE_CACHE_SIZE)


def spectators_to_act(game: Game) -> list[int]:
    """Who was to act where the game's spectators stand, memoised per that
    point: the stream up to it never changes, so the key needs no head.  A
    list needs this of a delayed game only once its spectators' point
    moves, not at each of the players' pauses or notes."""
    key = (game.pk, game.spectator_seq, game.spectator_at)

    def replayed() -> list[int]:
        engine = base.get(game.title)
        return sorted(engine.to_act(store.load(game, engine, head=game.spectator_seq).state))

    return _to_act_seen.get_or_compute(key, replayed)


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
        raise NotFound(gettext_noop("no such game"))
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
        raise NotFound(gettext_noop("no such game"))
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
        raise Forbidden(gettext_noop("this game is private"))
    if seat is None and not moderator and held_back(game):
        return Viewer(seat=None, moderator=False, head=game.spectator_seq, delayed=True)
    return Viewer(seat=seat, moderator=moderator, head=game.seq)


def etag(game: Game, viewer: Viewer) -> str:
    """A validator that changes exactly when what this viewer may see of the
    game changes (the API's detail and the game page share it)."""
    return f'"{game.pk}-{viewer.head}-{viewer.seat}-{game.status}"'


def held_back(game: Game) -> bool:
    """Do this game's spectators see it late?  Only while it runs: a finished
    game reveals everything to everyone."""
    return bool(game.spectator_delay) and game.status == Game.Status.ACTIVE


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
    from games.selectors import takeback

    engine = base.get(game.title)
    current = viewer.head == game.seq
    state = store.load(game, engine, head=viewer.head).state
    seen = {
        "to_act": sorted(engine.to_act(state)),
        "view": engine.view(state, viewer.seat),
        "notes": pinned_notes(game, viewer.head),
    }
    if current:
        head_hash = shown_hash(game, game.head_hash, reveal=reveals_all(game, viewer))
        return {**seen, "head_hash": head_hash, "takeback": takeback.status(game)}
    event = Event.objects.only("hash", "created_at").get(game=game, seq=viewer.head)
    statuses = _statuses_at(game, viewer.head)
    paused, locked = _clock_marks_at(game, viewer.head)
    playing = {seat for seat, status in statuses.items() if status == Seat.Status.ACTIVE}
    return {
        **seen,
        "head_hash": shown_hash(game, event.hash, reveal=False),
        "updated_at": event.created_at.isoformat(),
        "statuses": statuses,
        "paused": paused,
        "locked": locked,
        "takeback": takeback.status(game, head=viewer.head, playing=playing),
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
    from games.services.notes import PINNED

    rows = Event.objects.filter(game=game, kind=Event.Kind.NOTE, seq__lte=head).order_by("seq")
    return [
        {"seq": seq, "text": payload["reason"], "created_at": created_at.isoformat()}
        for seq, payload, created_at in rows.values_list("seq", "payload", "created_at")
        if payload.get("note") == PINNED
    ]


def moderation_queue(user, state: str | None = None) -> list[dict[str, Any]]:
    """The moderators' queue (one state, or all), oldest first: at most
    QUEUE_LIMIT items, the ones waiting longest."""
    from games.models import ModerationItem

    if not getattr(user, "is_moderator", False):
        raise Forbidden(gettext_noop("only moderators can do this"))
    items = ModerationItem.objects.select_related("game", "reported_by", "taken_by", "closed_by")
    if state is not None:
        items = items.filter(state=state)
    return [queue_item(item) for item in items.order_by("created_at", "id")[:QUEUE_LIMIT]]


def queue_item(item) -> dict[str, Any]:
    def name(user) -> str | None:
        return user.username if user is not None else None

    def when(moment) -> str | None:
        return moment.isoformat() if moment is not None else None

    return {
        "id": item.pk, "kind": item.kind, "game": item.game_id, "title": item.game.title,
        "state": item.state, "reason": item.reason, "reported_by": name(item.reported_by),
        "created_at": when(item.created_at), "taken_by": name(item.taken_by),
        "taken_at": when(item.taken_at), "closed_by": name(item.closed_by),
        "closed_at": when(item.closed_at), "note": item.note,
    }  # fmt: skip


def head_hash_at(game: Game, seq: int) -> str:
    return Event.objects.values_list("hash", flat=True).get(game=game, seq=seq)


def shown_hash(game: Game, hash_: str, *, reveal: bool) -> str | None:
    """An event's hash (the head's, the created event's) as a viewer may see
    it: a version-1 hash can give away hidden values (games.stream.chain), so only
    those who see everything get one."""
    return hash_ if game.chain_version >= 2 or reveal else None


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
        raise Forbidden(gettext_noop("only moderators may audit a game"))
    rows = list(Event.objects.filter(game=game).select_related("actor").order_by("seq"))
    problems = store.chain_problems(game, rows)
    checked = {
        "version": game.chain_version, "valid": not problems, "problems": problems,
        "imported_unverified": game.imported_unverified,
        "unverified": chain.runs(chain.unverified_seqs(rows)) if game.imported_unverified else [],
    }  # fmt: skip
    return {
        "id": game.pk,
        "seq": game.seq,
        "head_hash": game.head_hash,
        "chain": checked,
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


def verification_of(game: Game, *, reveal: bool, head: int | None = None) -> dict[str, Any]:
    """The commitment record; `head_hash` as the viewer's head (default: now) stands."""
    created = Event.objects.get(game=game, seq=1)
    info: dict[str, Any] = {
        "id": game.pk,
        "commitment": created.payload["commitment"],
        "created_event_hash": shown_hash(game, created.hash, reveal=reveal),
        "head_hash": shown_hash(
            game,
            game.head_hash if head in (None, game.seq) else head_hash_at(game, head),
            reveal=reveal,
        ),
        "algorithm": "sha256",
        "how_to_verify": HOW_TO_VERIFY,
        "chain_version": game.chain_version,
        "how_to_verify_chain": HOW_TO_VERIFY_CHAIN,
        "revealed": reveal,
        # Imported from a document whose seals nothing here could check
        # (README, Tamper evidence): a fact of the game's origin, fixed at
        # the import, so it tells a delayed spectator nothing new.
        "imported_unverified": game.imported_unverified,
    }
    if reveal:
        setup = created.payload["setup"]
        info.update(
            setup=setup,
            salt=game.salt,
            matches=commitment.commit(setup, game.salt) == created.payload["commitment"],
        )
    return info


def verification(
    game: Game, viewer: Viewer, seen: tuple[int, str] | None = None
) -> dict[str, Any]:
    reveal = game.status != Game.Status.ACTIVE or viewer.moderator
    info = verification_of(game, reveal=reveal, head=viewer.head)
    if seen is not None:
        info["seen"] = seen_in_chain(game, viewer, *seen, reveal=reveal)
    return info


def seen_in_chain(game: Game, viewer: Viewer, seq: int, hash_: str, *, reveal: bool):
    """Whether a head the viewer was told of (a mail's seq and head hash) is
    still the chain's at that seq: cutting events off the end and moving
    the game row back leaves a chain whose seals all hold, and only those
    who were shown the old head can tell.

    Compared only with what this viewer may see: a delayed spectator's
    question about a seq past their head is not answered (a "no" would
    tell that the game has not got there, a "yes" what happened), and a
    version-1 hash only with those who see everything (it would be a test
    of every candidate for what the view hides)."""
    answer: dict[str, Any] = {"seq": seq, "hash": hash_, "chain_hash": None}
    if not reveal and game.chain_version < 2:
        return {**answer, "status": "hidden"}
    if seq > viewer.head:
        # Players, moderators and undelayed spectators see up to the head:
        # a seq past it is one the stream no longer holds.
        return {**answer, "status": "beyond_view" if viewer.delayed else "not_in_chain"}
    here = Event.objects.filter(game=game, seq=seq).values_list("hash", flat=True).first()
    if here is None:  # a stream with a gap: verify_games says where
        return {**answer, "status": "not_in_chain"}
    same = hmac.compare_digest(here, hash_)
    return {**answer, "chain_hash": here, "status": "in_chain" if same else "not_in_chain"}
