"""Reading tournaments: the list, one tournament with its rounds, tables
and standings, and the plan of a round (what pairing gives from the
results so far).  Everything here is computed from the rows and the games'
results, so it can be recomputed at any time and gives the same answer."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext_noop

from games.engines import base
from games.errors import NotFound
from games.models import Game, Seat
from ops.keys import LARGEST_ID
from ratings.models import Rating
from tournaments import pairing, standings
from tournaments.models import Entry, Round, Seating, Tournament


def listed(status: str | None = None):
    found = Tournament.objects.select_related("organiser").annotate(entry_count=Count("entries"))
    return found.filter(status=status) if status else found


def get(tournament_id: int) -> Tournament:
    tournament = None
    if 0 < tournament_id <= LARGEST_ID:
        tournament = (
            Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
        )
    if tournament is None:
        raise NotFound(gettext_noop("no such tournament"))
    return tournament


def _seatings(tournament: Tournament) -> list[Seating]:
    return list(
        Seating.objects.filter(round__tournament=tournament)
        .select_related("round", "game", "entry__user")
        .order_by("round__number", "table", "seat")
    )


def _tables(seatings: list[Seating]):
    """The tables of `seatings` whose games have ended, as standings.Table,
    and the byes."""
    games: dict[int, list[Seating]] = {}
    byes = []
    for s in seatings:
        if s.game_id is None:
            byes.append(s.entry_id)
        else:
            games.setdefault(s.game_id, []).append(s)
    aborted = [g for g, group in games.items() if group[0].game.status == Game.Status.ABORTED]
    left = set(
        Seat.objects.filter(game_id__in=aborted, status=Seat.Status.RESIGNED).values_list(
            "game_id", "index"
        )
    )
    tables = []
    for group in games.values():
        game = group[0].game
        group.sort(key=lambda s: s.seat)
        players = [s.entry_id for s in group]
        gone = [(game.pk, s.seat) in left for s in group]
        if game.status == Game.Status.FINISHED:
            tables.append(standings.Table(players, (game.result or {}).get("places")))
        elif game.status == Game.Status.ABORTED and any(gone):
            tables.append(standings.after_leaving(players, gone))
        elif game.status == Game.Status.ABORTED:
            tables.append(standings.Table(players, None))
    return tables, byes


def lines(tournament: Tournament, *, seatings=None, with_ratings: bool = True):
    """The standings, best first, from every game that has ended."""
    seatings = _seatings(tournament) if seatings is None else seatings
    entries = list(tournament.entries.values_list("pk", "user_id"))
    ratings = {}
    if with_ratings:
        by_user = dict(
            Rating.objects.filter(
                title=tournament.title, user_id__in=[u for _, u in entries]
            ).values_list("user_id", "ordinal")
        )
        ratings = {pk: by_user.get(user, 0.0) for pk, user in entries}
    tables, byes = _tables(seatings)
    return standings.standings(
        [pk for pk, _ in entries], tables, byes, tournament.table_size, ratings
    )


@dataclass
class Plan:
    tables: list[list[int]]
    byes: list[int]


def plan_round(tournament: Tournament, number: int) -> Plan:
    """Round `number`'s tables (entry ids in seat order) and byes, from the
    rounds before it: the same for the same results and seed."""
    earlier = [s for s in _seatings(tournament) if s.round.number < number]
    history = pairing.History()
    per_game: dict[int, list[int]] = {}
    for s in earlier:
        if s.game_id is None:
            history.byes[s.entry_id] = history.byes.get(s.entry_id, 0) + 1
            continue
        per_game.setdefault(s.game_id, []).append(s.entry_id)
        history.seats.setdefault(s.entry_id, []).append(s.seat)
    for group in per_game.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                key = frozenset((a, b))
                history.met[key] = history.met.get(key, 0) + 1
    # Those still in when the round was paired: a player dropped in a later
    # round was still in then (the drops are recorded with their round).
    playing = list(
        tournament.entries.exclude(dropped=True, dropped_in__lt=number)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    drawn = list(playing)
    random.Random(f"{tournament.seed}:order").shuffle(drawn)
    swiss = tournament.format == Tournament.Format.SWISS
    if swiss:
        # The standings without the rating (which moves with games outside
        # the tournament), the seeded draw breaking the last ties.
        position = {key: i for i, key in enumerate(drawn)}
        ranked = sorted(
            lines(tournament, seatings=earlier, with_ratings=False),
            key=lambda line: (*standings.rank_key(line)[:3], position.get(line.key, 0)),
        )
        order = [line.key for line in ranked if line.key in position]
    else:
        order = drawn
    engine = base.get(tournament.title)
    everyone = tournament.entries.count()
    if not swiss and tournament.table_size == 2 and len(order) == everyone:
        tables, byes = pairing.circle_round(order, number, history)
        return Plan(tables, byes)
    tables, byes = pairing.pair_round(
        order, tournament.table_size, engine.MIN_PLAYERS, history,
        seed=random.Random(f"{tournament.seed}:round:{number}").getrandbits(63),
        by_points=swiss,
    )  # fmt: skip
    return Plan(tables, byes)


def _points(value) -> float:
    return round(float(value), 2)


def detail(tournament: Tournament, viewer) -> dict[str, Any]:
    """The tournament as anyone sees it, with `you` for the viewer."""
    seatings = _seatings(tournament)
    entries = list(tournament.entries.select_related("user"))
    names = {e.pk: e.user.username for e in entries}
    rounds = []
    for current in Round.objects.filter(tournament=tournament).order_by("number"):
        mine = [s for s in seatings if s.round_id == current.pk]
        tables: dict[int, dict[str, Any]] = {}
        for s in mine:
            if s.game_id is None:
                continue
            table = tables.setdefault(s.table, {
                "table": s.table, "game": s.game_id, "status": s.game.status, "players": [],
            })  # fmt: skip
            places = (s.game.result or {}).get("places") or []
            table["players"].append({
                "username": names[s.entry_id], "seat": s.seat,
                "place": places[s.seat] if s.seat < len(places) else None,
            })  # fmt: skip
        rounds.append({
            "number": current.number, "started_at": current.started_at,
            "deadline": current.deadline, "finished_at": current.finished_at,
            "tables": [tables[n] for n in sorted(tables)],
            "byes": [names[s.entry_id] for s in mine if s.game_id is None],
        })  # fmt: skip
    by_key = {e.pk: e for e in entries}
    rows = []
    for rank, line in enumerate(lines(tournament, seatings=seatings), start=1):
        entry = by_key[line.key]
        rows.append({
            "rank": rank, "username": entry.user.username, "points": _points(line.points),
            "buchholz": _points(line.buchholz), "firsts": line.firsts,
            "rating": round(line.rating, 1), "played": line.played, "byes": line.byes,
            "dropped": entry.dropped, "dropped_in": entry.dropped_in,
        })  # fmt: skip
    user_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    return {
        **summary(tournament),
        "options": tournament.options, "clock": tournament.clock, "rules": tournament.rules,
        "players": [e.user.username for e in entries],
        "rounds": rounds, "standings": rows,
        "you": {
            "signed_up": any(e.user_id == user_id for e in entries),
            "organiser": user_id is not None and (
                tournament.organiser_id == user_id or getattr(viewer, "is_moderator", False)
            ),
        },
    }  # fmt: skip


def summary(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk, "name": tournament.name, "title": tournament.title,
        "title_name": _title_name(tournament.title), "format": tournament.format,
        "table_size": tournament.table_size, "rounds_planned": tournament.rounds,
        "round_days": tournament.round_days, "rated": tournament.rated,
        "organiser": tournament.organiser.username, "status": tournament.status,
        "seed": str(tournament.seed), "created_at": tournament.created_at,
        "started_at": tournament.started_at, "finished_at": tournament.finished_at,
        "entries": getattr(tournament, "entry_count", None)
        if hasattr(tournament, "entry_count")
        else Entry.objects.filter(tournament=tournament).count(),
    }  # fmt: skip


def _title_name(title: str) -> str:
    try:
        return base.get(title).TITLE
    except KeyError:
        return title


def differences(tournament: Tournament) -> list[str]:
    """Each round whose recorded tables, seats or byes are not what the
    pairing gives from the rounds before it and the seed: one line each."""
    found = []
    for current in Round.objects.filter(tournament=tournament).order_by("number"):
        plan = plan_round(tournament, current.number)
        tables: dict[int, list[int]] = {}
        byes = []
        for s in current.seatings.order_by("table", "seat"):
            if s.game_id is None:
                byes.append(s.entry_id)
            else:
                tables.setdefault(s.table, []).append(s.entry_id)
        recorded = [tables[n] for n in sorted(tables)]
        if recorded != plan.tables or sorted(byes) != sorted(plan.byes):
            found.append(
                f"tournament {tournament.pk} round {current.number}: recorded tables "
                f"{recorded} byes {sorted(byes)}, the pairing gives {plan.tables} "
                f"byes {sorted(plan.byes)}"
            )
    return found


def of_game(game_id: int) -> dict[str, Any] | None:
    """The tournament, round and table a game is, for its page; None for a
    game that is no tournament's."""
    found = (
        Seating.objects.filter(game_id=game_id)
        .values("table", "round__number", "round__tournament_id", "round__tournament__name",
                "round__tournament__rounds")
        .first()
    )  # fmt: skip
    if found is None:
        return None
    return {
        "id": found["round__tournament_id"], "name": found["round__tournament__name"],
        "round": found["round__number"], "rounds": found["round__tournament__rounds"],
        "table": found["table"],
    }  # fmt: skip


def waiting_rounds() -> list[int]:
    """The running tournaments whose current round is unfinished while
    none of its games still runs: the ones the sweep should advance."""
    running = Game.objects.filter(
        status=Game.Status.ACTIVE, tournament_seatings__round__finished_at__isnull=True
    ).values("tournament_seatings__round__tournament_id")
    return list(
        Round.objects.filter(
            finished_at__isnull=True, tournament__status=Tournament.Status.RUNNING
        )
        .exclude(tournament_id__in=running)
        .values_list("tournament_id", flat=True)
        .distinct()
    )


def mine(user, most: int = 20) -> list[dict[str, Any]]:
    """The tournaments `user` is signed up for that have not finished (the
    dashboard's), newest first."""
    found = listed().filter(entries__user=user).exclude(status=Tournament.Status.FINISHED)
    return [summary(t) for t in found[:most]]
