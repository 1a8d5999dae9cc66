"""The spectators' point kept on the game row always equals the one the
stream gives.

Random games of the test engine are played through the service with moves,
timeouts, moderators' undos (to any earlier seq, so redos too), takebacks
granted and refused, pauses, resumes, notes and resignations; after every
step the row's `spectator_seq` and `spectator_at` must equal the point
worked out from the log by walking its live path back from the head (an
undo's parent is its `to_seq`, any other event's the one before it).  The
data migration and the import's walk must give the same for every game.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from django.apps import apps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from games.errors import ServiceError
from games.models import Event, Game
from games.services.clocks import check_pause, check_resume
from games.services.creation import do_create_game
from games.services.moves import do_submit_action
from games.services.notes import check_pin_note
from games.services.seats import check_resign
from games.services.takeback import check_answer_takeback, check_request_takeback
from games.services.undo import check_undo
from games.stream import spectators
from games.stream.derived import engine_for
from tests.support.play import current_state, users_by_seat

MOVES = ("action", "timeout")
STEPS = ("move", "move", "move", "move", "timeout", "undo", "undo", "takeback", "refused",
         "pause", "resume", "note", "resign")  # fmt: skip


def expected_point(game: Game) -> tuple[int, object]:
    """(seq, time) just before the delay-th latest live move; the head without
    a delay; seq 1 while there are fewer moves."""
    events = {event.seq: event for event in Event.objects.filter(game=game)}
    path, seq = [], game.seq
    while seq >= 1:
        path.append(seq)
        event = events[seq]
        seq = event.payload["to_seq"] if event.kind == "undo" else seq - 1
    if not game.spectator_delay:
        point = game.seq
    else:
        moves = [seq for seq in path if events[seq].kind in MOVES]  # newest first
        point = moves[game.spectator_delay - 1] - 1 if len(moves) >= game.spectator_delay else 1
    return point, events[point].created_at


def stored(game: Game) -> tuple[int, object]:
    return tuple(Game.objects.values_list("spectator_seq", "spectator_at").get(pk=game.pk))


class Player:
    """Takes one step of a random game; a step the game refuses is skipped."""

    def __init__(self, game: Game, mo, rng: random.Random) -> None:
        self.game, self.mo, self.rng = game, mo, rng
        self.users = users_by_seat(game)

    def step(self, kind: str, back: int = 0) -> None:
        """`back`: how far an undo goes, from the seq before the head (so
        undos land on recent points, often inside an earlier undone stretch)."""
        self.game.refresh_from_db()
        self.back = back
        with contextlib.suppress(ServiceError, IllegalAction):
            getattr(self, kind)()

    def _act(self, kind: str, source: str):
        engine = engine_for(self.game)
        state = current_state(self.game)
        seat = self.rng.choice(sorted(engine.to_act(state)) or [0])
        action = self.rng.choice(engine.legal_actions(state, seat) or [{"type": "pass"}])
        actor = self.users[seat] if kind == "action" else None
        return do_submit_action(self.game, seat, actor=actor, action=action, text=None,
                                expected_seq=self.game.seq, source=source, kind=kind)  # fmt: skip

    def move(self) -> None:
        self._act("action", "api")

    def timeout(self) -> None:
        self._act("timeout", "timer")

    def undo(self) -> None:
        if self.game.seq > 1:
            to_seq = max(1, self.game.seq - 1 - self.back)
            check_undo(self.game, self.mo, to_seq=to_seq, reason="a random undo")

    def _takeback(self, answer: str) -> None:
        last = Event.objects.get(game=self.game, seq=self.game.seq)
        if last.kind != "action":
            self.move()
            self.game.refresh_from_db()
            last = Event.objects.get(game=self.game, seq=self.game.seq)
            if last.kind != "action":
                return
        asking = self.users[last.seat]
        check_request_takeback(self.game, asking, expected_seq=self.game.seq)
        for seat, user in self.users.items():
            if seat != last.seat:
                self.game.refresh_from_db()
                check_answer_takeback(self.game, user, answer=answer, expected_seq=self.game.seq)

    def takeback(self) -> None:
        self._takeback("approve")

    def refused(self) -> None:
        self._takeback("refuse")

    def pause(self) -> None:
        check_pause(self.game, self.mo, reason="a break")

    def resume(self) -> None:
        check_resume(self.game, self.mo, reason="back")

    def note(self) -> None:
        check_pin_note(self.game, self.mo, text="a note")

    def resign(self) -> None:
        # the test engine cannot go on without a seat: the game is aborted,
        # and an undo to before it brings it back
        check_resign(self.game, self.users[self.rng.randrange(len(self.users))])


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    delay=st.sampled_from([0, 1, 2, 3, 5]),
    steps=st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 6)), max_size=40),
    seed=st.integers(0, 2**16),
)
def test_the_stored_point_is_the_streams_after_every_step(alice, bob, carol, mo, delay, steps,
                                                          seed):  # fmt: skip
    rng = random.Random(seed)
    game = do_create_game(title="duel", players=[alice, bob, carol][: 2 + seed % 2],
                          options={"rounds": 3}, seed=seed, spectator_delay=delay,
                          clock={"per_move": "72h"})  # fmt: skip
    assert stored(game) == expected_point(game)
    player = Player(game, mo, rng)
    for kind, back in steps:
        player.step(kind, back)
        game.refresh_from_db()
        assert stored(game) == expected_point(game), (kind, game.seq)
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert spectators.walked(events, delay) == expected_point(game)


@pytest.mark.django_db
def test_the_migration_fills_the_point_of_the_games_there_are(alice, bob, mo):
    """Games played with undos and takebacks, their columns emptied as before
    the migration, filled again by its function: each from its own stream."""
    import importlib

    migration = importlib.import_module("games.migrations.0016_spectator_head")
    games = []
    for delay in (0, 1, 2, 4):
        game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 3},
                              seed=delay, spectator_delay=delay)  # fmt: skip
        player = Player(game, mo, random.Random(delay))
        for kind in ("move", "move", "takeback", "move", "move", "undo", "move", "note", "move"):
            player.step(kind, back=1)
        games.append(game)
    want = {game.pk: expected_point(game) for game in games}
    Game.objects.update(spectator_seq=0, spectator_at=None)
    migration.fill(apps, None)
    assert {game.pk: stored(game) for game in games} == want
