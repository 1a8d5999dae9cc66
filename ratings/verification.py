"""`rate_games --verify`: every rating recomputed from the finished games'
streams, compared with what is stored.

1. Each finished game's facts are read again from its stream, replayed from
   the first event (ratings.ledger): the rated games must be exactly those
   with a rating event, and each event's facts (title, finishing seq,
   places, holders and shares) must be the stream's.
2. From nothing (every player new), the rating events are applied in their
   recorded order (ids): every change's before and after must be the
   recomputed ones, with no change missing or extra.
3. Each stored rating must be its player's last recomputed one, with the
   number of games they were rated in; no rating may exist without one.

Returns one line per difference; none means every rating checks out.
"""

from __future__ import annotations

from games.models import Game
from ratings import ledger, skill
from ratings.models import Rating, RatingChange, RatingEvent

TOLERANCE = 1e-9


def problems() -> list[str]:
    found: list[str] = []
    events = list(RatingEvent.objects.order_by("id"))
    by_game = {event.game_id: event for event in events}
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    rated_ids = set()
    for game in finished.iterator():
        facts = ledger.facts(game, from_scratch=True)
        event = by_game.get(game.pk)
        if facts.rated:
            rated_ids.add(game.pk)
            if event is None:
                found.append(f"game {game.pk}: finished and rated, but has no rating event")
            else:
                found.extend(_facts_differ(event, facts))
        elif event is not None:
            found.append(f"game {game.pk}: has a rating event, but is not rated ({facts.reason})")
    for event in events:
        if event.game_id not in rated_ids and not _is_finished(event.game_id):
            found.append(f"game {event.game_id}: has a rating event, but is not finished")
    found.extend(_replayed(events))
    return found


def _is_finished(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists()


def _facts_differ(event: RatingEvent, facts: ledger.Facts) -> list[str]:
    out = []
    recorded = (event.title, event.finish_seq, list(event.places), _holders(event.holders))
    streamed = (facts.title, facts.finish_seq, facts.places, _holders(facts.holders))
    names = ("title", "finishing seq", "places", "holders and shares")
    for name, mine, theirs in zip(names, recorded, streamed, strict=True):
        if mine != theirs:
            out.append(
                f"game {event.game_id}: the rating event's {name} {mine!r} "
                f"differ from the stream's {theirs!r}"
            )
    return out


def _holders(holders) -> list[list[tuple[int, float]]]:
    return [[(int(u), round(float(s), 12)) for u, s in seat] for seat in holders]


def _replayed(events: list[RatingEvent]) -> list[str]:
    out: list[str] = []
    current: dict[tuple[str, int], skill.Skill] = {}
    counts: dict[tuple[str, int], int] = {}
    changes: dict[int, list[RatingChange]] = {}
    for change in RatingChange.objects.order_by("event_id", "seat", "id").iterator():
        changes.setdefault(change.event_id, []).append(change)
    for event in events:
        seats = [
            [(current.get((event.title, int(u)), skill.Skill()), float(s)) for u, s in holders]
            for holders in event.holders
        ]
        new = skill.update(seats, list(event.places))
        expected = {}
        for s, holders in enumerate(event.holders):
            for (user, _), (before, _), after in zip(holders, seats[s], new[s], strict=True):
                expected[(int(user), s)] = (before, after)
        stored = {(c.user_id, c.seat): c for c in changes.pop(event.pk, [])}
        for key in sorted(set(expected) | set(stored)):
            user, seat = key
            where = f"game {event.game_id}, seat {seat}, player {user}"
            if key not in stored:
                out.append(f"{where}: the rating change is missing")
                continue
            if key not in expected:
                out.append(f"{where}: a rating change the game does not give")
                continue
            before, after = expected[key]
            change = stored[key]
            pairs = (
                ("mu before", change.mu_before, before.mu),
                ("sigma before", change.sigma_before, before.sigma),
                ("mu after", change.mu_after, after.mu),
                ("sigma after", change.sigma_after, after.sigma),
            )
            for name, mine, theirs in pairs:
                if abs(mine - theirs) > TOLERANCE:
                    out.append(f"{where}: {name} is {mine!r}, recomputed {theirs!r}")
        for (user, _), (_, after) in expected.items():
            current[(event.title, user)] = after
            counts[(event.title, user)] = counts.get((event.title, user), 0) + 1
    for event_id in changes:
        out.append(f"rating event {event_id}: changes without their event")
    out.extend(_ratings_differ(current, counts))
    return out


def _ratings_differ(current, counts) -> list[str]:
    out = []
    seen = set()
    for rating in Rating.objects.order_by("title", "user_id").iterator():
        key = (rating.title, rating.user_id)
        seen.add(key)
        where = f"{rating.title} rating of player {rating.user_id}"
        if key not in current:
            out.append(f"{where}: stored, but no rated game gives it")
            continue
        value = current[key]
        pairs = (
            ("mu", rating.mu, value.mu),
            ("sigma", rating.sigma, value.sigma),
            ("ordinal", rating.ordinal, value.ordinal),
            ("games", rating.games, counts[key]),
        )
        for name, mine, theirs in pairs:
            if abs(mine - theirs) > TOLERANCE:
                out.append(f"{where}: {name} is {mine!r}, recomputed {theirs!r}")
    for title, user in sorted(set(current) - seen):
        out.append(f"{title} rating of player {user}: recomputed, but not stored")
    return out
