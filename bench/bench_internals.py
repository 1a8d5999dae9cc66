"""What each use of Django's and DRF's internals saves on the hot paths.

Three tricks stood beside the public APIs; the code keeps the first only
(docs/benchmarks.md, "Django and DRF internals"), and the other two live
on here, to be measured again:

- `reads`: games.stream.sql's hand-written reads (the game with the player's seat
  and head event, the players, the events since a seq) from prepared
  statements, made model instances by ops.rows (`from_db`, the
  fields' converters); the plain way is the ORM's querysets.
- `serializers`: games.api.serializers.validated reused one serializer per
  class and thread, resetting DRF's private result attributes; the plain way
  is a new serializer per request.
- `copy`: games.stream.store's planning copy of the game (`_as_left_by`) was made
  with `Game.__new__` and its `__dict__`; the plain way is `copy.copy`.

The move path (POST an action) and the detail path (GET a game) are timed
in-process through the whole stack (Django's test client: middleware, token
authentication, throttles, DRF, the service, PostgreSQL), one variant with
every trick, one per trick with the plain way in its place, and one with
every plain way.  Variants take turns in BENCH_ROUNDS rounds, each playing
the same moves of the same games (same seeds), so that a busy moment of the
machine weighs on every variant alike; each round gives one median request
time per variant.  Prints, per path and variant, the median of the rounds
and their spread (min-max), and the saving (plain minus trick, paired by
round); then each trick alone per call.  Uses a throwaway database next to
DATABASE_URL's (PostgreSQL by default).
"""

from __future__ import annotations

import gc
import os
import secrets
import statistics
import threading
import time
from contextlib import ExitStack
from unittest import mock

# As deployed: DEBUG off (no query log), throttles out of the way, no Redis
# (Celery eager and a local cache; the players have no mail address, so no
# notification is written or sent, as in bench_api).
os.environ.update(
    DJANGO_DEBUG="0", SECRET_KEY="bench-" + secrets.token_hex(32),
    CHAIN_KEY=secrets.token_hex(32), THROTTLE_USER="1000000/min",
    THROTTLE_ANON="1000000/min", LOG_LEVEL="WARNING",
)  # fmt: skip
os.environ.pop("REDIS_URL", None)

from support import django_setup, emit, throwaway_database

django_setup()

from bench_api import planned_moves  # noqa: E402
from django.db.models import OuterRef, Subquery  # noqa: E402
from django.test import Client  # noqa: E402

from accounts import tokens as api_tokens  # noqa: E402
from accounts.models import User  # noqa: E402
from games.api import serializers  # noqa: E402
from games.models import Event, Game, Seat  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from games.stream import sql, store  # noqa: E402
from ops import rows as instances  # noqa: E402
from ops import statements  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "11"))
MOVES = int(os.environ.get("BENCH_MOVES", "30"))  # per game and round
DETAILS = int(os.environ.get("BENCH_DETAILS", "200"))  # per round
GAMES = 4
CALLS = int(os.environ.get("BENCH_CALLS", "2000"))  # per trick, round and way


# The plain ways, each standing in for one trick.


def orm_game(pk: int, user_id: int | None = None) -> Game | None:
    # order_by(): without it the seats' default ordering joins the games table.
    seat = Seat.objects.filter(game=OuterRef("pk"), user_id=user_id, status=Seat.Status.ACTIVE)
    playing = Subquery(seat.order_by().values("index")[:1])
    try:
        return Game.objects.annotate(player_seat=playing).get(pk=pk)
    except Game.DoesNotExist:
        return None


def orm_events_between(game_id: int, after: int, upto: int) -> list[Event]:
    return list(
        Event.objects.filter(game_id=game_id, seq__gt=after, seq__lte=upto).order_by("seq")
    )


def orm_players(game_id: int, indexes=None) -> list[sql.Player]:
    seats = Seat.objects.filter(game_id=game_id).exclude(status=Seat.Status.REPLACED)
    if indexes is not None:
        seats = seats.filter(index__in=sorted(indexes))
    return [
        sql.Player(seat.index, seat.status, seat.user)
        for seat in seats.select_related("user").order_by("index")
    ]


_reused = threading.local()


def reused_validated(serializer_class, data) -> dict:
    """The trick as it was: one serializer per class and thread, its private
    result attributes reset before each use."""
    kept = _reused.__dict__.setdefault("serializers", {})
    serializer = kept.get(serializer_class)
    if serializer is None:
        serializer = kept[serializer_class] = serializer_class()
    for result in ("_validated_data", "_errors", "_data"):
        serializer.__dict__.pop(result, None)
    serializer.initial_data = data
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def new_as_left_by(game: Game, values: dict) -> Game:
    """The trick as it was: a Game made with __new__, sharing its state."""
    after = Game.__new__(Game)
    after.__dict__ = {**game.__dict__, **values}
    return after


# Per trick, what it replaces: (module, name, trick, plain way), where None
# is the code as it is.
TRICKS = {
    "reads": [
        (sql, "game", None, orm_game),
        (sql, "events_between", None, orm_events_between),
        (sql, "players", None, orm_players),
    ],
    "serializers": [(serializers, "validated", reused_validated, None)],
    "copy": [(store, "_as_left_by", new_as_left_by, None)],
}
VARIANTS = ["tricks", *TRICKS, "plain"]
if os.environ.get("BENCH_VARIANTS"):  # e.g. "serializers,copy": those beside "tricks"
    VARIANTS = ["tricks", *os.environ["BENCH_VARIANTS"].split(",")]


def patched(variant: str) -> ExitStack:
    """The code with every trick, but `variant`'s plain ways in their place
    (`tricks`: none, `plain`: all)."""
    stack = ExitStack()
    for trick, targets in TRICKS.items():
        plain = variant in (trick, "plain")
        for module, name, trick_way, plain_way in targets:
            way = plain_way if plain else trick_way
            if way is not None:
                stack.enter_context(mock.patch.object(module, name, way))
    return stack


def counting() -> tuple[ExitStack, dict[str, int]]:
    """The tricks in place (inside `patched("tricks")`), counting their calls."""
    counts = dict.fromkeys(TRICKS, 0)
    stack = ExitStack()
    for trick, targets in TRICKS.items():
        for module, name, *_ in targets:
            original = getattr(module, name)

            def counted(*args, _original=original, _trick=trick, **kwargs):
                counts[_trick] += 1
                return _original(*args, **kwargs)

            stack.enter_context(mock.patch.object(module, name, counted))
    return stack, counts


class Table:
    """One variant's games: created with the same seeds as every other
    variant's, so that every variant plays the same moves."""

    def __init__(self, variant: str) -> None:
        self.games = []
        for i in range(GAMES):
            users = [User.objects.create(username=f"{variant}{i}{side}") for side in "ab"]
            tokens = [api_tokens.issue(u)[1] for u in users]
            game = do_create_game(title="havana", players=users, seed=i)
            self.games.append((game.pk, tokens, planned_moves(game.pk)))
        self.client = Client()

    def play(self, moves: int) -> list[tuple[float, float]]:
        """Each move's (wall, this process's CPU) seconds."""
        took = []
        for _ in range(moves):
            for game_id, tokens, plan in self.games:
                seq, seat, action = plan.pop(0)
                started, cpu = time.perf_counter(), time.process_time()
                response = self.client.post(
                    f"/api/games/{game_id}/actions/", {"seq": seq, "action": action},
                    content_type="application/json", HTTP_AUTHORIZATION=f"Token {tokens[seat]}",
                )  # fmt: skip
                took.append((time.perf_counter() - started, time.process_time() - cpu))
                assert response.status_code == 201, response.content
        return took

    def look(self, requests: int) -> list[tuple[float, float]]:
        took = []
        for i in range(requests):
            game_id, tokens, _ = self.games[i % GAMES]
            started, cpu = time.perf_counter(), time.process_time()
            response = self.client.get(
                f"/api/games/{game_id}/", HTTP_AUTHORIZATION=f"Token {tokens[i % 2]}"
            )
            took.append((time.perf_counter() - started, time.process_time() - cpu))
            assert response.status_code == 200, response.content
        return took


def medians(took: list[tuple[float, float]]) -> tuple[float, float]:
    """A round's median wall and CPU milliseconds per request."""
    return tuple(statistics.median(sample[i] for sample in took) * 1000 for i in (0, 1))


def spread(values: list[float]) -> list[float]:
    return [round(min(values), 3), round(max(values), 3)]


def report(path: str, rounds: dict[str, list], counts: dict[str, float]) -> None:
    """Median and spread of each variant's round medians (wall time; this
    process's CPU beside it), and what each trick saves: its plain way minus
    the tricks, paired by round."""
    base = rounds["tricks"]
    for variant in VARIANTS:
        wall, cpu = ([r[i] for r in rounds[variant]] for i in (0, 1))
        emit(f"internals.{path}.{variant}", statistics.median(wall), "ms", spread=spread(wall),
             cpu_ms=round(statistics.median(cpu), 3), cpu_spread=spread(cpu),
             rounds=ROUNDS)  # fmt: skip
        if variant == "tricks":
            continue
        saved, saved_cpu = (
            [plain[i] - trick[i] for plain, trick in zip(rounds[variant], base, strict=True)]
            for i in (0, 1)
        )
        share = statistics.median(saved) / statistics.median(r[0] for r in base) * 100
        calls = {"trick_calls_per_request": round(counts[variant], 2)}
        emit(f"internals.{path}.{variant}.saved", statistics.median(saved), "ms",
             spread=spread(saved), percent=round(share, 1),
             rounds_saving=f"{sum(x > 0 for x in saved)}/{len(saved)}",
             cpu_ms=round(statistics.median(saved_cpu), 3), cpu_spread=spread(saved_cpu),
             **calls)  # fmt: skip


def calls_per_request(table: Table, work) -> dict[str, float]:
    with patched("tricks"):
        stack, counts = counting()
        with stack:
            requests = len(work(table))
    return {trick: count / requests for trick, count in counts.items()}


def bench_paths() -> None:
    tables = {variant: Table(variant) for variant in VARIANTS}
    # A first move and a first look fill every process-wide cache and
    # prepare the statements, for every variant alike.
    for variant, table in tables.items():
        with patched(variant):
            table.play(1)
            table.look(GAMES * 2)
    moves = calls_per_request(tables["tricks"], lambda t: t.play(1))
    # The other tables play the counted move too, to stay in step.
    for variant, table in tables.items():
        if variant != "tricks":
            with patched(variant):
                table.play(1)
    looks = calls_per_request(tables["tricks"], lambda t: t.look(GAMES * 2))
    move_rounds = {variant: [] for variant in VARIANTS}
    look_rounds = {variant: [] for variant in VARIANTS}
    for _ in range(ROUNDS):
        for variant, table in tables.items():
            gc.collect()
            with patched(variant):
                move_rounds[variant].append(medians(table.play(MOVES)))
                look_rounds[variant].append(medians(table.look(DETAILS)))
    report("move", move_rounds, {**moves, "plain": sum(moves.values())})
    report("detail", look_rounds, {**looks, "plain": sum(looks.values())})
    emit("internals.rounds", ROUNDS, "rounds", move=move_rounds, detail=look_rounds)


def per_call(make_calls) -> list[float]:
    """Median seconds per call of each way, over ROUNDS interleaved rounds."""
    results: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        for name, call in make_calls().items():
            started = time.perf_counter()
            for _ in range(CALLS):
                call()
            results.setdefault(name, []).append((time.perf_counter() - started) / CALLS)
    return results


def bench_calls() -> None:
    """Each trick alone, per call, against its plain way."""
    users = [User.objects.create(username=f"calls{side}") for side in "ab"]
    game = do_create_game(title="havana", players=users, seed=99)
    row = statements.rows(sql._game_sql(), [users[0].pk, Seat.Status.ACTIVE, game.pk])[0]
    width = len(Game._meta.concrete_fields)
    body = {"seq": 7, "action": {"type": "pass"}}
    values = {"seq": 8, "head_hash": "0" * 64, "to_act": [1]}
    fresh = sql.game(game.pk, users[0].pk)
    ways = {
        "reads.game": lambda: {
            "trick": lambda: sql.game(game.pk, users[0].pk),
            "plain": lambda: orm_game(game.pk, users[0].pk),
        },
        "reads.players": lambda: {
            "trick": lambda: sql.players(game.pk, {0}),
            "plain": lambda: orm_players(game.pk, {0}),
        },
        # What building one instance from a row costs, of a read above.
        "reads.instance_only": lambda: {"trick": lambda: instances.from_row(Game, row[:width])},
        "serializers": lambda: {
            "trick": lambda: reused_validated(serializers.SubmitIn, body),
            "plain": lambda: serializers.validated(serializers.SubmitIn, body),
        },
        "copy": lambda: {
            "trick": lambda: new_as_left_by(fresh, values),
            "plain": lambda: store._as_left_by(fresh, values),
        },
    }
    for name, make_calls in ways.items():
        results = per_call(make_calls)
        for way, seconds in results.items():
            us = [s * 1e6 for s in seconds]
            emit(f"internals.call.{name}.{way}", statistics.median(us), "us",
                 spread=[round(min(us), 2), round(max(us), 2)], rounds=ROUNDS)  # fmt: skip


def main() -> None:
    with throwaway_database():
        bench_paths()
        if not os.environ.get("BENCH_VARIANTS"):
            bench_calls()


if __name__ == "__main__":
    main()
