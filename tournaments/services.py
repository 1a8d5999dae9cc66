"""The tournaments' write path: `check_<verb>` (may this person?) then
`do_<verb>` (the act), as in the game service.

A tournament is created by a moderator or an organiser (an account holding
the permission `tournaments.add_tournament`, granted in the admin).  Players
sign up and withdraw while it takes sign-ups; its organiser (or a
moderator) starts it.  Each round's games are created in one transaction
through `games.services.creation.do_create_game`, so they start together
and each is a game like any other (commitment, clock, seals); every player
at a table gets one mail, "your round-N table is ready".  When the last
game of a round ends, the next round is made (tournaments.tasks), or the
tournament finishes.

Every act locks the tournament's row first, so a sign-up cannot slip in
beside the start, and a round is made exactly once however many of its
games end at the same moment.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import bots
from games import hooks
from games.clocks import deadlines
from games.clocks import options as clock_options
from games.engines import base
from games.errors import Conflict, Forbidden, InvalidRequest, NotFound
from games.models import Event, Game, Seat
from games.services.common import require_not_suspended
from games.services.creation import do_create_game
from notifications import outbox
from notifications.models import Notification
from ops.keys import LARGEST_ID
from tournaments import pairing, selectors
from tournaments.models import Entry, Round, Seating, Tournament

FORMATS = tuple(Tournament.Format.values)
NAME_LENGTH = 100
RULES_LENGTH = 2000
MOST_ROUNDS = 20
MOST_DAYS = 90
# A table of two to six: the seats' order is chosen among all of a
# table's orders (tournaments.pairing.seat), 720 at six.
LEAST_TABLE, MOST_TABLE = 2, 6


def may_organise(user) -> bool:
    """A moderator, or an account given `tournaments.add_tournament`."""
    if not getattr(user, "is_authenticated", False) or bots.is_bot(user):
        return False
    return bool(getattr(user, "is_moderator", False)) or user.has_perm(
        "tournaments.add_tournament"
    )


def check_create_tournament(
    user,
    *,
    name: str,
    title: str,
    format: str = Tournament.Format.SWISS,
    table_size: int,
    rounds: int,
    options: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    round_days: int = 14,
    rated: bool = True,
    rules: str = "",
) -> Tournament:
    if not may_organise(user):
        raise Forbidden(gettext_noop("only moderators and organisers create tournaments"))
    require_not_suspended(user)
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
        raise InvalidRequest(gettext_noop("name must be 1 to 100 characters"))
    try:
        engine = base.get(title)
    except (KeyError, TypeError):
        raise InvalidRequest(gettext_noop("unknown title %(title)r"), title=title) from None
    if format not in FORMATS:
        raise InvalidRequest(
            gettext_noop("format must be one of: %(names)s"), names=", ".join(FORMATS)
        )
    most = min(MOST_TABLE, engine.MAX_PLAYERS)
    least = max(LEAST_TABLE, engine.MIN_PLAYERS)
    if type(table_size) is not int or not least <= table_size <= most:
        raise InvalidRequest(
            gettext_noop("table_size must be from %(least)s to %(most)s for %(title)s"),
            least=least, most=most, title=engine.TITLE,
        )  # fmt: skip
    if type(rounds) is not int or not 1 <= rounds <= MOST_ROUNDS:
        raise InvalidRequest(gettext_noop("rounds must be from 1 to 20"))
    if type(round_days) is not int or not 1 <= round_days <= MOST_DAYS:
        raise InvalidRequest(gettext_noop("round_days must be from 1 to 90"))
    if not isinstance(rated, bool):
        raise InvalidRequest(gettext_noop("rated must be true or false"))
    if not isinstance(rules, str) or len(rules) > RULES_LENGTH:
        raise InvalidRequest(gettext_noop("rules must be a text of at most 2000 characters"))
    if not isinstance(options, dict | None):
        raise InvalidRequest(gettext_noop("options must be an object"))
    resolved = engine.resolve_options(options)
    clock_options.parse(clock)
    return do_create_tournament(
        user, name=name.strip(), title=title, format=format, table_size=table_size,
        rounds=rounds, options=resolved, clock=clock, round_days=round_days, rated=rated,
        rules=rules.strip(),
    )  # fmt: skip


def do_create_tournament(organiser, **fields: Any) -> Tournament:
    return Tournament.objects.create(organiser=organiser, seed=secrets.randbits(62), **fields)


def locked(tournament_id: int) -> Tournament:
    tournament = None
    if 0 < tournament_id <= LARGEST_ID:
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(gettext_noop("no such tournament"))
    return tournament


def _require_signup(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.SIGNUP:
        raise Conflict(gettext_noop("the tournament has started: sign-up is closed"))


def check_sign_up(tournament_id: int, user) -> Entry:
    if bots.is_bot(user):
        raise Forbidden(gettext_noop("a bot cannot sign up"))
    require_not_suspended(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        _require_signup(tournament)
        if tournament.entries.filter(user=user).exists():
            raise Conflict(gettext_noop("you are signed up already"))
        return Entry.objects.create(tournament=tournament, user=user)


def check_withdraw(tournament_id: int, user) -> None:
    with transaction.atomic():
        tournament = locked(tournament_id)
        _require_signup(tournament)
        deleted, _ = tournament.entries.filter(user=user).delete()
        if not deleted:
            raise Conflict(gettext_noop("you are not signed up"))


def _require_organiser(tournament: Tournament, user) -> None:
    if tournament.organiser_id != user.pk and not getattr(user, "is_moderator", False):
        raise Forbidden(gettext_noop("only the organiser or a moderator may do this"))


def check_start_tournament(tournament_id: int, user) -> Tournament:
    with transaction.atomic():
        tournament = locked(tournament_id)
        _require_organiser(tournament, user)
        _require_signup(tournament)
        signed = tournament.entries.count()
        if signed < tournament.table_size:
            raise Conflict(
                gettext_noop("a tournament needs at least %(least)s players to start"),
                least=tournament.table_size,
            )
        return do_start_tournament(tournament)


def do_start_tournament(tournament: Tournament) -> Tournament:
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    do_start_round(tournament, 1)
    return tournament


def check_advance(tournament_id: int, user) -> Tournament:
    """The organiser's hand on what normally happens by itself: the next
    round once every game of this one has ended."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        _require_organiser(tournament, user)
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict(gettext_noop("the tournament is not running"))
        if not do_advance(tournament):
            raise Conflict(gettext_noop("a game of the round has not ended yet"))
        return tournament


def advance(tournament_id: int) -> bool:
    """Lock the tournament and `do_advance` it (the task's entry)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.RUNNING:
            return False
        return do_advance(tournament)


ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


def do_advance(tournament: Tournament) -> bool:
    """If every game of the locked, running tournament's current round has
    ended: the round finishes, the rule for leavers drops whoever it
    names, and the next round starts (or the tournament finishes).
    Whether the round finished."""
    current = tournament.round_set.order_by("-number").first()
    if current is None or current.finished_at is not None:
        return False
    seatings = list(current.seatings.select_related("game", "entry"))
    if any(s.game is not None and s.game.status not in ENDED for s in seatings):
        return False
    current.finished_at = timezone.now()
    current.save(update_fields=["finished_at"])
    _drop_leavers(current, seatings)
    active = tournament.entries.filter(dropped=False).count()
    engine = base.get(tournament.title)
    # Too few left for even one table (the pairing's sizes): no round to play.
    tables, _ = pairing.table_sizes(active, tournament.table_size, engine.MIN_PLAYERS)
    if current.number >= tournament.rounds or not tables:
        tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
    else:
        do_start_round(tournament, current.number + 1)
    return True


def _drop_leavers(current: Round, seatings: list[Seating]) -> None:
    """A player who no longer holds their seat at the end of the round's
    game (they resigned, ran out of timeouts, or a moderator gave the seat
    to someone else) sits at no later table."""
    holding = {
        (seat.game_id, seat.index, seat.user_id)
        for seat in Seat.objects.filter(
            game_id__in={s.game_id for s in seatings if s.game_id},
            status=Seat.Status.ACTIVE,
        )
    }
    leavers = [
        s.entry_id
        for s in seatings
        if s.game_id and (s.game_id, s.seat, s.entry.user_id) not in holding
    ]
    Entry.objects.filter(pk__in=leavers, dropped=False).update(
        dropped=True, dropped_in=current.number
    )


def do_start_round(tournament: Tournament, number: int) -> Round:
    """Pair round `number` from the results so far, create its games (all
    in this transaction, so they start together) and tell every player.
    The games are the server's (source `system`, no creator): the round
    makes them, whoever's act finished the round before."""
    engine = base.get(tournament.title)
    plan = selectors.plan_round(tournament, number)
    now = timezone.now()
    current = Round.objects.create(
        tournament=tournament, number=number, started_at=now,
        deadline=now + datetime.timedelta(days=tournament.round_days),
    )  # fmt: skip
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    seatings, games = [], []
    for table_number, table in enumerate(plan.tables, start=1):
        players = [entries[key].user for key in table]
        game = do_create_game(
            title=tournament.title, players=players, options=tournament.options,
            # Each game draws its own secret seed (it deals the hidden
            # cards): the tournament's seed is public, so nothing secret
            # may come from it.
            creator=None, source=Event.Source.SYSTEM,
            clock=games_clock(tournament), rated=tournament.rated,
        )  # fmt: skip
        games.append(game)
        seatings += [
            Seating(round=current, entry_id=key, table=table_number, game=game, seat=index)
            for index, key in enumerate(table)
        ]
        for key in table:
            _tell_ready(tournament, current, game, entries[key].user, players, engine)
    seatings += [Seating(round=current, entry_id=key, table=0) for key in plan.byes]
    Seating.objects.bulk_create(seatings)
    # The games' first deadlines were set before their seatings existed:
    # now the round's deadline limits them too.
    for game in games:
        deadlines.refresh(game, None, now)
    return current


def games_clock(tournament: Tournament) -> dict[str, Any]:
    """The clock of the tournament's games: its own, or, for a tournament
    without one, the round's length per move with the default timeout
    policy, so that every tournament game has a clock the round's
    deadline can bring in."""
    return tournament.clock or {"per_move": f"{tournament.round_days}d"}


def round_deadline(game: Game) -> list[datetime.datetime]:
    """The `games.hooks.on_deadline_limit` listener: the deadline of the
    unfinished round the game is played in, if it is one.  No seat's
    deadline is later; once it has passed, every seat to act is due at
    once, and the title's timeout policy plays the game on to its end."""
    found = (
        Seating.objects.filter(game_id=game.pk, round__finished_at__isnull=True)
        .values_list("round__deadline", flat=True)
        .first()
    )
    return [] if found is None else [found]


def made_by_the_server(game: Game) -> bool:
    """A tournament's games have no creator: only those are looked up."""
    return game.created_by_id is None


def _tell_ready(tournament, current: Round, game: Game, user, players, engine) -> None:
    """One mail per player per round: the key says so."""
    outbox.on_table_notice(
        hooks.Notice(
            kind=Notification.Kind.ROUND_READY, table=None, user=user,
            key=f"round_ready:{tournament.pk}:{current.number}:{user.pk}",
            context={
                "tournament": tournament.pk, "tournament_name": tournament.name,
                "round": current.number, "rounds": tournament.rounds, "game": game.pk,
                "title_name": engine.TITLE, "players": [p.username for p in players],
                "deadline": current.deadline.isoformat(),
            },
        )
    )  # fmt: skip
