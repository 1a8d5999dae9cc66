"""What a finished game says about its players' ratings, read from its
stream alone: whether it is rated, its places, who held each seat and for
what share of the seat's turns.  The live update and `rate_games --verify`
both take their facts from here, so a rating can always be traced to the
events it came from.

Not rated (the reason is returned): a game not finished (running, or
aborted), a solo game (one seat), a game where a bot held a seat at any
time, a game created unrated (its created event says `rated: false`), a game
imported from another server (played there, not here), a game where one
person held two seats.

Shares: every live `action` or `timeout` of a seat is a turn of whoever
held the seat then (the created event's seats, then each live
`seat_replaced`).  A seat with no turns at all is its last holder's whole.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from games.audit.exchange import IMPORTED
from games.engines import base
from games.models import Event, Game
from games.stream import replay, store

TURN_KINDS = frozenset({"action", "timeout"})


@dataclass
class Facts:
    game_id: int
    title: str
    rated: bool
    reason: str = ""
    finish_seq: int = 0
    finished_at: datetime.datetime | None = None
    places: list[int] = field(default_factory=list)
    # per seat: [[user id, share], ...] in the order they first held it
    holders: list[list[list[float]]] = field(default_factory=list)

    def order_key(self) -> tuple:
        return (self.finished_at, self.game_id)


def facts(game: Game, *, from_scratch: bool = False) -> Facts:
    """The rating facts of `game` from its stream; `from_scratch` replays
    every event (no snapshot, no cached state): the check's way."""
    from accounts.models import User

    out = Facts(game.pk, game.title, rated=False)
    if game.status != Game.Status.FINISHED:
        out.reason = "not finished"
        return out
    events = list(
        Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "kind", "seat", "payload", "created_at")
    )
    undos = {seq: p["to_seq"] for seq, kind, _, p, _ in events if kind == Event.Kind.UNDO}
    head = events[-1][0] if events else 0
    ranges = replay.live_ranges(head, undos)
    live = [e for e in events if replay.is_live(e[0], ranges)]
    created = live[0][3] if live and live[0][1] == Event.Kind.CREATED else None
    if created is None:
        out.reason = "no created event"
        return out
    holders_now = list(created.get("seats", []))
    turns: list[dict[int, int]] = [{user: 0} for user in holders_now]
    finish = None
    bots_seen = False
    for seq, kind, seat, payload, at in live:
        if kind == Event.Kind.SEAT_REPLACED and seat is not None:
            holders_now[seat] = payload["user"]
            turns[seat].setdefault(payload["user"], 0)
            bots_seen = bots_seen or bool(payload.get("bot"))
        elif kind in TURN_KINDS and seat is not None:
            turns[seat][holders_now[seat]] += 1
        if kind in replay.ENGINE_KINDS:
            finish = (seq, at)
        if kind == Event.Kind.NOTE and payload.get("note") == IMPORTED:
            out.reason = "imported from another server"
            return out
    if created.get("rated", True) is False:
        out.reason = "unrated game"
        return out
    if len(holders_now) < 2:
        out.reason = "solo game"
        return out
    everyone = {user for seat in turns for user in seat}
    if bots_seen or User.objects.filter(pk__in=everyone).exclude(bot="").exists():
        out.reason = "a bot held a seat"
        return out
    shares = [_shares(seat, holders_now[s]) for s, seat in enumerate(turns)]
    rated_users = [user for seat in shares for user, _ in seat]
    if len(rated_users) != len(set(rated_users)):
        out.reason = "one player held two seats"
        return out
    engine = base.get(game.title)
    loaded = store.load(game, engine, use_snapshots=not from_scratch, memo=not from_scratch)
    result = engine.result(loaded.state)
    if result is None or finish is None:
        out.reason = "no result"
        return out
    out.rated = True
    out.finish_seq, out.finished_at = finish
    out.places = [int(place) for place in result["places"]]
    out.holders = [[[user, share] for user, share in seat] for seat in shares]
    return out


def _shares(turns: dict[int, int], last: int) -> list[tuple[int, float]]:
    """Each holder's share of the seat's turns (holders with none left
    out); a seat nobody moved at belongs to its last holder."""
    total = sum(turns.values())
    if total == 0:
        return [(last, 1.0)]
    return [(user, count / total) for user, count in turns.items() if count]
