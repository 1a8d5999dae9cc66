"""bench/scale_fill.py: the games it clones are games the server accepts.

The million-game bench is only worth its figures if what it measures on is
what the service would have written.  The generator's clones must therefore
pass everything `verify_games` checks (chain, seals, replay, seats, the
spectators' point, checkpoints' signatures), and an active clone must take
its next move through the move service like any game.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from games.audit import checkpoints, sweep
from games.models import Checkpoint, Event, Game, Seat, Snapshot
from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for
from notifications.models import Notification

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import scale_fill

MIX = (("pointcity", 2, 0.6), ("havana", 2, 0.4))
FINISHED, ACTIVE = 12, 6
played: list = []  # the templates, played by the first test and cloned by each


@pytest.fixture
def filled(transactional_db):
    """Twelve finished and six active clones.  The fill drops and makes again
    its tables' constraints and clones in forked processes, whose rows only
    a transactional test sees."""
    written = scale_fill.fill(FINISHED, ACTIVE, mix=MIX, per_kind=1, processes=2,
                              templates=played or None, log=lambda _: None)  # fmt: skip
    played[:] = written.pop("templates")
    return written


pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_every_clone_passes_verify_games(filled):
    assert Game.objects.filter(pk__gte=filled["first_game"]).count() == FINISHED + ACTIVE
    found = [check for check in sweep.checked() if check.problems]
    assert found == []


def test_the_written_counts_are_the_rows_in_the_database(filled):
    assert filled["games_game"] == FINISHED + ACTIVE
    assert Event.objects.filter(game_id__gte=filled["first_game"]).count() == filled["games_event"]
    assert Seat.objects.filter(game_id__gte=filled["first_game"]).count() == filled["games_seat"]
    mails = Notification.objects.filter(game_id__gte=filled["first_game"])
    assert mails.count() == filled["notifications_notification"] > 0
    assert set(mails.values_list("status", flat=True)) == {"sent"}
    assert (
        Snapshot.objects.filter(game_id__gte=filled["first_game"]).count()
        == filled["games_snapshot"]
    )


def test_each_clone_has_its_own_chain_and_its_players_in_its_first_event(filled):
    first = Event.objects.filter(game_id__gte=filled["first_game"], seq=1)
    assert len({event.hash for event in first}) == first.count() == FINISHED + ACTIVE
    for event in first:
        seats = dict(Seat.objects.filter(game_id=event.game_id).values_list("index", "user_id"))
        assert event.payload["seats"] == [seats[n] for n in range(len(seats))]


def test_the_checkpoints_are_signed_as_the_server_signs_them(filled):
    published = Checkpoint.objects.filter(game_id__gte=filled["first_game"])
    assert published.count() == FINISHED + ACTIVE
    records = ((n, checkpoints.record_of(c)) for n, c in enumerate(published, start=1))
    assert list(checkpoints.problems_against(records)) == []


def test_an_active_clone_takes_its_next_move_through_the_service(filled):
    game = Game.objects.filter(status="active", pk__gte=filled["first_game"]).first()
    engine = engine_for(game)
    state = store.load(game, engine).state
    seat = min(engine.to_act(state))
    user = Seat.objects.get(game=game, index=seat).user
    action = random.Random(1).choice(engine.legal_actions(state, seat))
    check_submit_action(game, user, action=action, expected_seq=game.seq)
    game.refresh_from_db()
    assert Event.objects.filter(game=game).count() == game.seq
    assert [c for c in sweep.checked() if c.problems] == []


def test_the_busy_player_sits_at_every_game_a_small_fill_has(filled):
    busy = Seat.objects.filter(user_id=filled["busy_user"])
    assert busy.count() == FINISHED + ACTIVE
    assert busy.filter(game__status="active").count() == ACTIVE
