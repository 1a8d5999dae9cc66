"""Migration games/0011 rewrites stored results in the one result shape:
migrate back, store games with results in their title's old shape, migrate
forward, and read the rows back."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.engines import base
from games.engines.pointcity.scoring import opponent_score, player_score

BEFORE = [("games", "0011_outages_repaired_per_game")]
AFTER = [("games", "0012_results_in_one_shape")]

# slow: replays finished games of every title through an old schema.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


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


@pytest.fixture
def old_schema():
    """The database as it stood before the migration; forward again after."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        yield OldRows(executor.loader.project_state(BEFORE).apps)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


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


# Every title's games are stored in one old schema and migrated forward
# together: going back and forth through the migrations costs seconds, the
# games do not meet.


def test_a_finished_game_is_replayed_into_the_new_shape(old_schema):
    expected = {}
    for title, players, options, _ in TITLES:
        setup, moves, final = finished_game(title, players, seed=11, options=options)
        engine = base.get(title)
        # A stray move after the second one, undone at once: replay leaves it out.
        state = engine.apply(engine.apply(setup, *moves[0]), *moves[1])
        seat = min(engine.to_act(state))
        stray = (seat, engine.legal_actions(state, seat)[-1])
        # An old result that says nothing true: only the replay can give the answer.
        nothing = {"scores": [0] * players, "places": [1] * players, "winners": []}
        pk = old_schema.game(
            title, options=options, result=nothing, events=stream(setup, moves, undone=stray)
        )
        expected[pk] = (title, players, engine.result(final))
    migrate_forward()
    for pk, (title, players, result) in expected.items():
        assert stored(pk) == result, (title, players)


def test_a_game_that_no_longer_replays_is_converted_field_by_field(old_schema):
    expected = {}
    for title, players, options, old in TITLES:
        _, _, final = finished_game(title, players, seed=12, options=options)
        # No action events: the replay stops at the setup, where the game has not ended.
        setup = base.get(title).setup(players, options, 12)
        pk = old_schema.game(title, options=options, result=old(final), events=stream(setup, []))
        expected[pk] = (title, players, base.get(title).result(final))
    migrate_forward()
    for pk, (title, players, result) in expected.items():
        assert stored(pk) == result, (title, players)


def test_a_title_no_longer_installed_keeps_what_its_old_result_says(old_schema):
    gone = old_schema.game("gone", result={"scores": [3, 5, 3], "ranking": [1, 0, 2]})
    said = old_schema.game("gone", result={"scores": [4], "places": [1], "end": "Pile ran out!"})
    empty = old_schema.game("gone", result={"winners": [0]})
    migrate_forward()
    assert stored(gone) == {
        "winners": [1],
        "places": [2, 1, 2],
        "scores": [3, 5, 3],
        "ended_by": "unknown",
        "breakdown": [{"total": 3}, {"total": 5}, {"total": 3}],
    }
    assert stored(said)["ended_by"] == "pile_ran_out"
    assert stored(empty) == {"winners": [0]}  # nothing to build the shape from


def test_running_aborted_and_already_converted_games_are_left_alone(old_schema):
    setup, moves, final = finished_game("havana", 2, seed=13)
    new = base.get("havana").result(final)
    events = stream(setup, moves)
    running = old_schema.game("havana", status="active", result=None, events=events[:3])
    aborted = old_schema.game("havana", status="aborted", result=None, events=events[:3])
    converted = old_schema.game("havana", result={**new, "scores": [0, 0]}, events=events)
    migrate_forward()
    assert stored(running) is None and stored(aborted) is None
    assert stored(converted) == {**new, "scores": [0, 0]}
