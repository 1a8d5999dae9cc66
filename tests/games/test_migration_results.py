"""Migration games/0011 rewrites stored results in the one result shape:
migrate back, store games with results in their title's old shape, migrate
forward, and read the rows back."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.engines import base
from games.engines.pointcity.scoring import opponent_score, player_score

BEFORE = [("games", "0011_outages_repaired_per_game")]
AFTER = [("games", "0012_results_in_one_shape")]

# slow: replays finished games of every title through an old schema.
pytestmark = pytest.mark.slow


def finished_game(title: str, players: int, seed: int, options: dict | None = None):
    """A seeded random game to its end: its setup, its moves, its final state."""
    engine = base.get(title)
    rng = random.Random(seed)
    setup = engine.setup(players, options or {}, seed)
    state, moves = setup, []
    while engine.result(state) is None:
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        moves.append((seat, action))
        state = engine.apply(state, seat, action)
    return setup, moves, state


def old_havana(state):
    """What Havana's result held before the one shape."""
    new = base.get("havana").result(state)
    ranking = sorted(range(state["players"]), key=lambda s: (new["places"][s], s))
    return {
        "scores": new["scores"],
        "ranking": ranking,
        "places": new["places"],
        "winners": new["winners"],
        "reason": state["end"]["reason"],
    }


def old_pointcity(state):
    """What Point City's result held before the one shape."""
    new = base.get("pointcity").result(state)
    old = {
        "scores": new["scores"],
        "ranking": sorted(range(state["players"]), key=lambda s: (new["places"][s], s)),
        "places": new["places"],
        "winners": new["winners"],
        "breakdown": [player_score(p) for p in state["seats"]],
        "end": state["end"],
    }
    if state["bot"] is not None:
        levels = [opponent_score(state["bot"], level) for level in (1, 2, 3)]
        old |= {"opponent": levels[state["level"] - 1], "opponent_levels": levels}
        old |= {"level": state["level"], "stars": 0}
    return old


def old_estates(state):
    """The Estates' old result is the final record its state still keeps."""
    return state["result"]


class OldRows:
    """Rows written through the models as they stood before the migration."""

    def __init__(self, apps):
        self.games = apps.get_model("games", "Game")
        self.events = apps.get_model("games", "Event")

    def game(self, title, *, result, status="finished", options=None, events=()):
        game = self.games.objects.create(
            title=title, options=options or {}, engine_version=1, seed=1, salt="s",
            status=status, seq=len(events), result=result,
        )  # fmt: skip
        now = timezone.now()
        rows = [
            self.events(
                game=game,
                seq=seq,
                kind=kind,
                seat=seat,
                source="api",
                payload=payload,
                created_at=now,
                prev_hash="0" * 64,
                hash=f"{seq:064d}",
            )
            for seq, (kind, seat, payload) in enumerate(events, start=1)
        ]
        self.events.objects.bulk_create(rows)
        return game.pk


def stream(setup, moves, *, undone=None):
    """Created, the moves; with `undone` = (seat, action), that action is
    played after the second move and undone at once (inert for replay)."""
    events = [("created", None, {"setup": setup})]
    for i, (seat, action) in enumerate(moves):
        events.append(("action", seat, {"action": action}))
        if undone and i == 1:
            events.append(("action", undone[0], {"action": undone[1]}))
            events.append(("undo", None, {"to_seq": len(events) - 1, "reason": "test"}))
    return events


def migrate_forward():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)


def stored(pk):
    from games.models import Game

    # Only the column this migration wrote: later migrations add others,
    # which the schema as it stands after this one does not have yet.
    return Game.objects.values_list("result", flat=True).get(pk=pk)


TITLES = [
    ("havana", 3, {}, old_havana),
    ("pointcity", 1, {"solo_level": 3}, old_pointcity),
    ("pointcity", 4, {}, old_pointcity),
    ("estates", 4, {"edition": "the-estates", "rounds": 3}, old_estates),
]


# Going back through the migrations and forward again costs seconds (a
# dozen migrations of several apps each way), so every case's games are
# stored in one old schema and migrated forward together, once for the
# module; each test then reads what the migration made of its own.  The
# games do not meet: the migration rewrites each row on its own.


@pytest.fixture(scope="module")
def converted(django_db_setup, django_db_blocker):
    """Each case's games written in the old schema, the migration run once
    over all of them, and what it stored, by case."""
    with django_db_blocker.unblock():
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        try:
            old = OldRows(executor.loader.project_state(BEFORE).apps)
            cases = {name: write(old) for name, write in CASES.items()}
            migrate_forward()
            for case in cases.values():
                case.read()
            yield cases
        finally:
            executor = MigrationExecutor(connection)
            executor.migrate(executor.loader.graph.leaf_nodes())
            call_command("flush", verbosity=0, interactive=False, reset_sequences=False)


class Case:
    """A case's rows by name; what the engine says some of them must read
    after the migration (`expected`, worked out as they are written); and,
    once it has run, what they read (`stored`)."""

    def __init__(self) -> None:
        self.rows: dict[str, int] = {}
        self.expected: dict[str, Any] = {}
        self.stored: dict[str, Any] = {}

    def read(self) -> None:
        self.stored = {name: stored(pk) for name, pk in self.rows.items()}


def replayed_games(old: OldRows) -> Case:
    """Every title's finished game, with an old result that says nothing
    true, so that only the replay can give the answer; a stray move after
    the second one is undone at once, which the replay leaves out."""
    case = Case()
    for title, players, options, _ in TITLES:
        setup, moves, final = finished_game(title, players, seed=11, options=options)
        engine = base.get(title)
        state = engine.apply(engine.apply(setup, *moves[0]), *moves[1])
        seat = min(engine.to_act(state))
        stray = (seat, engine.legal_actions(state, seat)[-1])
        nothing = {"scores": [0] * players, "places": [1] * players, "winners": []}
        name = f"{title}-{players}"
        case.rows[name] = old.game(
            title, options=options, result=nothing, events=stream(setup, moves, undone=stray)
        )
        case.expected[name] = engine.result(final)
    return case


def unreplayable_games(old: OldRows) -> Case:
    """Every title's game with no action events, whose replay stops at the
    setup, where the game has not ended: its old result is all there is."""
    case = Case()
    for title, players, options, old_result in TITLES:
        _, _, final = finished_game(title, players, seed=12, options=options)
        setup = base.get(title).setup(players, options, 12)
        name = f"{title}-{players}"
        case.rows[name] = old.game(
            title, options=options, result=old_result(final), events=stream(setup, [])
        )
        case.expected[name] = base.get(title).result(final)
    return case


def uninstalled_games(old: OldRows) -> Case:
    case = Case()
    case.rows["gone"] = old.game("gone", result={"scores": [3, 5, 3], "ranking": [1, 0, 2]})
    case.rows["said"] = old.game(
        "gone", result={"scores": [4], "places": [1], "end": "Pile ran out!"}
    )
    case.rows["empty"] = old.game("gone", result={"winners": [0]})
    return case


def games_to_leave(old: OldRows) -> Case:
    setup, moves, final = finished_game("havana", 2, seed=13)
    new = base.get("havana").result(final)
    events = stream(setup, moves)
    case = Case()
    case.rows["running"] = old.game("havana", status="active", result=None, events=events[:3])
    case.rows["aborted"] = old.game("havana", status="aborted", result=None, events=events[:3])
    case.expected["converted"] = {**new, "scores": [0, 0]}
    case.rows["converted"] = old.game("havana", result=case.expected["converted"], events=events)
    return case


CASES = {
    "replayed": replayed_games,
    "unreplayable": unreplayable_games,
    "uninstalled": uninstalled_games,
    "left alone": games_to_leave,
}


def test_a_finished_game_is_replayed_into_the_new_shape(converted):
    case = converted["replayed"]
    assert case.stored == case.expected


def test_a_game_that_no_longer_replays_is_converted_field_by_field(converted):
    case = converted["unreplayable"]
    assert case.stored == case.expected


def test_a_title_no_longer_installed_keeps_what_its_old_result_says(converted):
    stored = converted["uninstalled"].stored
    assert stored["gone"] == {
        "winners": [1],
        "places": [2, 1, 2],
        "scores": [3, 5, 3],
        "ended_by": "unknown",
        "breakdown": [{"total": 3}, {"total": 5}, {"total": 3}],
    }
    assert stored["said"]["ended_by"] == "pile_ran_out"
    assert stored["empty"] == {"winners": [0]}  # nothing to build the shape from


def test_running_aborted_and_already_converted_games_are_left_alone(converted):
    case = converted["left alone"]
    assert case.stored["running"] is None and case.stored["aborted"] is None
    assert case.stored["converted"] == case.expected["converted"]
