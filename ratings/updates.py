"""Writing ratings: a game rated as it finishes, a rating an undo took
back, the finished games not yet rated, and a rebuild of every rating
from the streams.

A game is rated once the move that finished it has committed (a
`games.hooks.on_committed` listener): a rating that fails is logged and
never turns that move into an error, and `manage.py rate_games --pending`
(or a rebuild) rates it later.  Games are rated one at a time per title
under a lock (PostgreSQL's advisory lock), so every rating reads the
ratings the previous one left; within a title the rating events' ids are
that order, the one `rate_games --verify` recomputes in.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterable

from django.db import connection, transaction
from django.utils import timezone

from games.engines import base
from games.fields import JSONTextField, as_text, from_text
from games.models import Event, Game
from games.stream import replay
from ratings import ledger, skill
from ratings.models import Rating, RatingChange, RatingEvent

log = logging.getLogger(__name__)

BATCH = 2000
# The first key of the advisory lock: ratings' own (the second is the title's).
LOCK_CLASS = 0x52A7


def just_finished(game: Game) -> bool:
    return game.status == Game.Status.FINISHED


def rate_after_commit(game: Game, event) -> None:
    """The on_committed listener: rate the game its move just finished.
    Never raises: the move has committed, whatever happens here."""
    if event.kind not in replay.ENGINE_KINDS:
        return
    try:
        do_rate_game(Game.objects.get(pk=game.pk))
    except Exception:
        log.exception("rating game %s failed (rate_games --pending rates it later)", game.pk)


def do_rate_game(game: Game) -> RatingEvent | None:
    """Rate `game` from its stream if it is rated and not rated yet."""
    facts = ledger.facts(game)
    if not facts.rated:
        return None
    with transaction.atomic():
        _lock(facts.title)
        if RatingEvent.objects.filter(game_id=game.pk).exists():
            return None
        users = [int(user) for seat in facts.holders for user, _ in seat]
        rows = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(title=facts.title, user__in=users)
        }
        current = {u: skill.Skill(r.mu, r.sigma) for u, r in rows.items()}
        event, changes, after = _rated(facts, current)
        event.save()
        for change in changes:
            change.event = event
        RatingChange.objects.bulk_create(changes)
        _write_ratings(facts.title, after, rows, event.created_at or timezone.now())
    return event


def rerate_after_undo(game: Game, event) -> None:
    """The on_committed listener for undos: a rated game an undo reopened
    is rated no more (`do_unrate_game`).  Never raises, as above."""
    if event.kind != Event.Kind.UNDO:
        return
    try:
        do_unrate_game(Game.objects.get(pk=game.pk))
    except Exception:
        log.exception("taking back game %s's rating failed (rate_games rebuilds)", game.pk)


def do_unrate_game(game: Game) -> bool:
    """Take back the rating of `game` if its stream no longer gives it (an
    undo reopened it, or changed how it ended): its players' ratings go back
    to where they stood before it, and every game of its title rated after
    it is rated again, in the same order, from there, as a rebuild would
    rate them.  A game finished again is rated anew.  Whether a rating was
    taken back."""
    recorded = RatingEvent.objects.filter(game_id=game.pk).first()
    if recorded is None:
        return False
    facts = ledger.facts(game)
    if facts.rated and _same_facts(recorded, facts):
        return False
    with transaction.atomic():
        _lock(recorded.title)
        later = list(
            RatingEvent.objects.filter(title=recorded.title, id__gte=recorded.id).order_by("id")
        )
        if not later or later[0].game_id != game.pk:
            return False  # taken back meanwhile
        rows, current, games = _before(recorded.title, later)
        RatingEvent.objects.filter(pk__in=[e.pk for e in later]).delete()
        for old in later[1:]:
            again = ledger.Facts(
                old.game_id, old.title, rated=True, finish_seq=old.finish_seq,
                finished_at=old.finished_at, places=list(old.places), holders=old.holders,
            )  # fmt: skip
            event, changes, after = _rated(again, current)
            event.save()
            for change in changes:
                change.event = event
            RatingChange.objects.bulk_create(changes)
            current.update(after)
            for user in after:
                games[user] = games.get(user, 0) + 1
        _restore(recorded.title, rows, current, games)
    if facts.rated:
        do_rate_game(game)
    return True


def _same_facts(event: RatingEvent, facts: ledger.Facts) -> bool:
    return (event.finish_seq, list(event.places), event.holders) == (
        facts.finish_seq, facts.places, facts.holders
    )  # fmt: skip


def _before(title: str, later: list[RatingEvent]):
    """The title's rating rows of the players in `later`, and their skills
    and game counts as they stood before the first of those events (a
    player first rated in them is new then)."""
    changes = RatingChange.objects.filter(event__in=later).order_by("event_id", "seat", "id")
    first: dict[int, skill.Skill] = {}
    counted: dict[int, int] = {}
    for change in changes:
        first.setdefault(change.user_id, skill.Skill(change.mu_before, change.sigma_before))
        counted[change.user_id] = counted.get(change.user_id, 0) + 1
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(title=title, user__in=list(first))
    }
    games = {user: rows[user].games - counted[user] for user in first if user in rows}
    current = {user: value for user, value in first.items() if games.get(user, 0) > 0}
    return rows, current, {user: n for user, n in games.items() if n > 0}


def _restore(title: str, rows: dict, current: dict[int, skill.Skill], games: dict) -> None:
    """Write the recomputed ratings; a player left with no rated game of
    the title has no rating in it."""
    now = timezone.now()
    for user, row in rows.items():
        if user not in games:
            row.delete()
            continue
        value = current[user]
        row.mu, row.sigma, row.ordinal = value.mu, value.sigma, value.ordinal
        row.games, row.updated_at = games[user], now
        row.save(update_fields=["mu", "sigma", "ordinal", "games", "updated_at"])


def do_rate_pending() -> int:
    """Rate every finished game not rated yet, in the order they finished."""
    pending = Game.objects.filter(status=Game.Status.FINISHED, rating_event__isnull=True)
    found = [ledger.facts(game) for game in pending.iterator()]
    rated = 0
    for facts in sorted((f for f in found if f.rated), key=ledger.Facts.order_key):
        rated += do_rate_game(Game.objects.get(pk=facts.game_id)) is not None
    return rated


def do_rebuild(all_facts: Iterable[ledger.Facts] | None = None) -> int:
    """Every rating again from nothing: the finished games' facts (from
    their streams unless given), in the order they finished (then game id).
    The rating events are numbered 1, 2, ... in that order; every title's
    lock is held meanwhile, so no live rating interleaves."""
    if all_facts is None:
        games = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
        all_facts = [ledger.facts(game, from_scratch=True) for game in games.iterator()]
    ordered = sorted((f for f in all_facts if f.rated), key=ledger.Facts.order_key)
    current: dict[tuple[str, int], skill.Skill] = {}
    counts: dict[tuple[str, int], int] = {}
    now = timezone.now()
    events, changes = [], []
    for number, facts in enumerate(ordered, start=1):
        mine = {
            int(u): current[(facts.title, int(u))]
            for seat in facts.holders
            for u, _ in seat
            if (facts.title, int(u)) in current
        }
        moved, after = _computed(facts, mine)
        for user, value in after.items():
            current[(facts.title, user)] = value
            counts[(facts.title, user)] = counts.get((facts.title, user), 0) + 1
        events.append((number, facts.game_id, facts.title, facts.finish_seq, facts.finished_at,
                       as_text(facts.places), as_text(facts.holders), now))  # fmt: skip
        changes.extend(
            (number, user, facts.title, seat, place, share, b.mu, b.sigma, a.mu, a.sigma)
            for user, seat, place, share, b, a in moved
        )
    ratings = [
        (user, title, v.mu, v.sigma, v.ordinal, counts[(title, user)], now)
        for (title, user), v in current.items()
    ]
    with transaction.atomic():
        for title in sorted({*base.available(), *(f.title for f in ordered)}):
            _lock(title)
        RatingChange.objects.all().delete()
        RatingEvent.objects.all().delete()
        Rating.objects.all().delete()
        _insert(RatingEvent, EVENT_COLUMNS, events)
        _insert(RatingChange, CHANGE_COLUMNS, changes)
        _insert(Rating, RATING_COLUMNS, ratings)
        _restart_ids(RatingEvent, len(events))
    return len(ordered)


EVENT_COLUMNS = ("id", "game_id", "title", "finish_seq", "finished_at", "places", "holders",
                 "created_at")  # fmt: skip
CHANGE_COLUMNS = ("event_id", "user_id", "title", "seat", "place", "share", "mu_before",
                  "sigma_before", "mu_after", "sigma_after")  # fmt: skip
RATING_COLUMNS = ("user_id", "title", "mu", "sigma", "ordinal", "games", "updated_at")


def _insert(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Many rows at once: PostgreSQL's COPY (the ORM's bulk insert spent
    most of a rebuild building and converting instances), else bulk_create."""
    if connection.vendor != "postgresql":
        # The rows carry JSON as text, as COPY takes it; a model takes values.
        texts = {f.name for f in model._meta.fields if isinstance(f, JSONTextField)}
        made = [
            model(**{c: from_text(v) if c in texts else v
                     for c, v in zip(columns, row, strict=True)})
            for row in rows
        ]  # fmt: skip
        model.objects.bulk_create(made, batch_size=BATCH)
        return
    names = ", ".join(connection.ops.quote_name(column) for column in columns)
    table = connection.ops.quote_name(model._meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


def _restart_ids(model, last: int) -> None:
    """The next rating event after a rebuild numbers on from its last."""
    if connection.vendor != "postgresql":
        return
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, %s)",
            [table, max(last, 1), last > 0],
        )


def _computed(
    facts: ledger.Facts, current: dict[int, skill.Skill]
) -> tuple[list[tuple], dict[int, skill.Skill]]:
    """Per holder (user, seat, place, share, before, after), and the new
    skills, from the players' `current` skills (absent: a new player)."""
    seats = [
        [(current.get(int(user), skill.Skill()), float(share)) for user, share in holders]
        for holders in facts.holders
    ]
    new = skill.update(seats, facts.places)
    moved, after = [], {}
    for s, holders in enumerate(facts.holders):
        for (user, share), (before, _), now in zip(holders, seats[s], new[s], strict=True):
            moved.append((int(user), s, facts.places[s], float(share), before, now))
            after[int(user)] = now
    return moved, after


def _rated(
    facts: ledger.Facts, current: dict[int, skill.Skill]
) -> tuple[RatingEvent, list[RatingChange], dict[int, skill.Skill]]:
    """The rating event of `facts` (not saved), its changes, and the new
    skills, from the players' `current` skills (absent: a new player)."""
    moved, after = _computed(facts, current)
    event = RatingEvent(
        game_id=facts.game_id, title=facts.title, finish_seq=facts.finish_seq,
        finished_at=facts.finished_at, places=facts.places, holders=facts.holders,
    )  # fmt: skip
    changes = [
        RatingChange(
            user_id=user,
            title=facts.title,
            seat=seat,
            place=place,
            share=share,
            mu_before=b.mu,
            sigma_before=b.sigma,
            mu_after=a.mu,
            sigma_after=a.sigma,
        )
        for user, seat, place, share, b, a in moved
    ]
    return event, changes, after


def _write_ratings(title: str, after: dict[int, skill.Skill], rows: dict, now) -> None:
    for user, value in after.items():
        row = rows.get(user)
        if row is None:
            Rating.objects.create(
                user_id=user, title=title, mu=value.mu, sigma=value.sigma,
                ordinal=value.ordinal, games=1, updated_at=now,
            )  # fmt: skip
        else:
            row.mu, row.sigma, row.ordinal = value.mu, value.sigma, value.ordinal
            row.games += 1
            row.updated_at = now
            row.save(update_fields=["mu", "sigma", "ordinal", "games", "updated_at"])


def _lock(title: str) -> None:
    """One rating at a time per title (SQLite serialises writers anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            key = zlib.crc32(title.encode()) & 0x7FFFFFFF
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, key])
