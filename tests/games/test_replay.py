"""Replay: snapshots are a cache equal to full replay; undo restores history."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, Game, Snapshot
from games.selectors import viewers
from games.services.creation import do_create_game
from games.services.moves import check_submit_action_by_id
from games.services.undo import check_undo
from games.stream import replay, sql, store
from games.stream.derived import engine_for
from tests.support.play import current_state, random_move, users_by_seat


def exact(state) -> str:
    """Byte-for-byte form: key order kept, nothing normalised."""
    return json.dumps(state)


def test_live_ranges_without_undo_is_the_whole_stream():
    assert replay.live_ranges(5, {}) == [(1, 5)]


def test_live_ranges_skip_what_an_undo_made_inert():
    # undo at 6 back to 3: 4 and 5 are inert; 6 (the undo) and 7 are live
    assert replay.live_ranges(7, {6: 3}) == [(1, 3), (6, 7)]


def test_undoing_an_undo_restores_the_undone_events():
    # undo at 6 to 3, then undo at 8 back to 5 (a point before the first undo)
    ranges = replay.live_ranges(8, {6: 3, 8: 5})
    assert ranges == [(1, 5), (8, 8)]
    assert [s for s in range(1, 9) if replay.is_live(s, ranges)] == [1, 2, 3, 4, 5, 8]


@pytest.fixture
def game(make_game, alice, bob, charlie):
    return make_game(players=[alice, bob, charlie], options={"rounds": 60}, seed=5)


def test_undo_returns_the_game_to_the_state_after_to_seq(game, mo):
    rng = random.Random(2)
    history = {1: exact(current_state(game))}
    for _ in range(6):
        event = random_move(game, rng)
        history[event.seq] = exact(current_state(game))
    undo = check_undo(game, mo, to_seq=3, reason="misclick")
    assert undo.kind == "undo" and undo.payload == {"to_seq": 3, "reason": "misclick"}
    assert exact(current_state(game)) == history[3]
    assert Event.objects.filter(game=game).count() == 8  # the undone events stay in the log


def test_undo_after_the_end_reopens_the_game(alice, bob, mo):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 1}, seed=3)
    rng = random.Random(0)
    while game.status == "active":
        random_move(game, rng)
    assert game.result is not None
    check_undo(game, mo, to_seq=game.seq - 1, reason="last move was a mistake")
    game.refresh_from_db()
    assert game.status == "active" and game.result is None and game.to_act == [1]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_snapshot_load_equals_full_replay_with_random_undos(game, mo, settings, seed):
    """Random streams with undos at random places; a model of the expected
    state (state as of each seq) is kept beside the store."""
    settings.CORREO_SNAPSHOT_EVERY = 3
    rng = random.Random(seed)
    as_of = {1: exact(current_state(game))}
    snapshots_used = 0
    engine = engine_for(game)
    for _ in range(40):
        if game.seq > 2 and rng.random() < 0.15:
            to_seq = rng.randrange(1, game.seq)
            event = check_undo(game, mo, to_seq=to_seq, reason="test")
            as_of[event.seq] = as_of[to_seq]
        elif game.status == "active":
            event = random_move(game, rng)
            before = json.loads(as_of[event.seq - 1])
            as_of[event.seq] = exact(engine.apply(before, event.seat, event.payload["action"]))
        else:
            continue
        with_snapshots = store.load(game, engine, memo=False)
        full = store.load(game, engine, use_snapshots=False)
        assert exact(with_snapshots.state) == exact(full.state) == as_of[game.seq]
        snapshots_used += with_snapshots.snapshot_seq is not None
    assert Snapshot.objects.filter(game=game).exists()
    assert snapshots_used > 0


def test_a_snapshot_that_no_longer_matches_the_chain_is_ignored(game, settings):
    settings.CORREO_SNAPSHOT_EVERY = 2
    rng = random.Random(9)
    for _ in range(5):
        random_move(game, rng)
    snapshot = Snapshot.objects.filter(game=game).order_by("-seq").first()
    Snapshot.objects.filter(pk=snapshot.pk).update(event_hash="f" * 64, state={"bogus": True})
    engine = engine_for(game)
    loaded = store.load(game, engine, memo=False)
    assert loaded.state == store.load(game, engine, use_snapshots=False).state
    assert loaded.snapshot_seq != snapshot.seq


def test_snapshots_of_another_engine_version_are_not_used(game, settings):
    settings.CORREO_SNAPSHOT_EVERY = 2
    rng = random.Random(10)
    for _ in range(4):
        random_move(game, rng)
    Snapshot.objects.filter(game=game).update(engine_version=999, state={"bogus": True})
    loaded = store.load(game, engine_for(game), memo=False)
    assert loaded.snapshot_seq is None
    assert "bogus" not in loaded.state


def test_only_the_newest_snapshots_are_kept(game, settings):
    settings.CORREO_SNAPSHOT_EVERY = 1
    settings.CORREO_SNAPSHOTS_KEPT = 3
    rng = random.Random(12)
    for _ in range(6):
        random_move(game, rng)
    assert list(Snapshot.objects.filter(game=game).values_list("seq", flat=True)) == [7, 6, 5]


def hold_an_older_state(game, rng, *, moves_then: int, moves_since: int):
    """This process holds the state after `moves_then` moves; `moves_since`
    more are made as if by another worker.  Returns the engine."""
    engine = engine_for(game)
    for _ in range(moves_then):
        random_move(game, rng)
    older = store.load(game, engine)
    for _ in range(moves_since):
        random_move(game, rng)
    store.forget_all()
    store.remember(game, engine, older)
    return engine


def test_a_process_holding_an_older_state_folds_only_the_events_since(game, monkeypatch):
    """Another worker made the last moves: this one catches up with one read."""
    engine = hold_an_older_state(game, random.Random(4), moves_then=3, moves_since=3)
    monkeypatch.setattr(store, "_rebuild", lambda *args: pytest.fail("replayed from scratch"))
    with CaptureQueriesContext(connection) as queries:
        loaded = store.load(game, engine)
    assert len(queries) == 1
    assert (loaded.seq, loaded.head_hash) == (game.seq, game.head_hash)
    monkeypatch.undo()
    assert exact(loaded.state) == exact(store.load(game, engine, use_snapshots=False).state)


def test_an_undo_since_the_state_held_means_a_replay(game, mo):
    rng = random.Random(6)
    engine = engine_for(game)
    for _ in range(4):
        random_move(game, rng)
    older = store.load(game, engine)
    check_undo(game, mo, to_seq=2, reason="test")
    random_move(game, rng)
    store.forget_all()
    store.remember(game, engine, older)
    loaded = store.load(game, engine)
    assert exact(loaded.state) == exact(store.load(game, engine, use_snapshots=False).state)


def test_a_row_older_than_the_state_held_gets_the_state_at_its_own_head(game):
    rng = random.Random(8)
    engine = engine_for(game)
    random_move(game, rng)
    stale_row = Game.objects.get(pk=game.pk)
    expected = exact(current_state(game))
    random_move(game, rng)
    store.load(game, engine)
    at_stale = store.load(stale_row, engine)
    assert (at_stale.seq, exact(at_stale.state)) == (stale_row.seq, expected)
    assert store.load(game, engine).seq == game.seq


def test_one_event_behind_the_head_event_read_with_the_row_is_enough(game):
    """The usual case with two workers: the other one made the last move."""
    engine = hold_an_older_state(game, random.Random(11), moves_then=1, moves_since=1)
    row = sql.game(game.pk)
    with CaptureQueriesContext(connection) as queries:
        loaded = store.load(row, engine)
    assert len(queries) == 0
    assert exact(loaded.state) == exact(store.load(game, engine, use_snapshots=False).state)


@pytest.mark.postgres
def test_several_events_behind_the_events_read_with_the_row_are_enough(game):
    """The other workers made the last few moves: the game's read asked for
    the events since the state this process holds, and brought them."""
    engine = hold_an_older_state(game, random.Random(13), moves_then=1, moves_since=4)
    row = sql.game(game.pk, after=store.known_seq(game.pk))
    with CaptureQueriesContext(connection) as queries:
        loaded = store.load(row, engine)
    assert len(queries) == 0
    assert (loaded.seq, loaded.head_hash) == (game.seq, game.head_hash)
    assert exact(loaded.state) == exact(store.load(game, engine, use_snapshots=False).state)


@pytest.mark.postgres
def test_a_move_on_a_worker_several_events_behind_reads_the_game_once(game, monkeypatch):
    """The API's move asks its game read for the events since the state this
    process holds: no second read, no replay."""
    engine = hold_an_older_state(game, random.Random(16), moves_then=1, moves_since=3)
    game.refresh_from_db()
    state = store.load(game, engine, use_snapshots=False).state  # a replay: the memo stays
    seat = min(engine.to_act(state))
    action = engine.legal_actions(state, seat)[0]
    monkeypatch.setattr(sql, "events_between", lambda *args: pytest.fail("read the events again"))
    monkeypatch.setattr(store, "_rebuild", lambda *args: pytest.fail("replayed from scratch"))
    event = check_submit_action_by_id(
        game.pk, users_by_seat(game)[seat], action=action, expected_seq=game.seq
    )
    assert event.seq == game.seq + 1


@pytest.mark.postgres
def test_a_page_or_api_read_of_a_game_brings_the_events_since_too(game, monkeypatch):
    engine = hold_an_older_state(game, random.Random(17), moves_then=2, moves_since=2)
    row = viewers.game(game.pk)
    monkeypatch.setattr(sql, "events_between", lambda *args: pytest.fail("read the events again"))
    game.refresh_from_db()
    assert store.load(row, engine).seq == row.seq == game.seq


def test_a_state_held_for_another_engine_version_is_not_used(game, monkeypatch):
    engine = hold_an_older_state(game, random.Random(14), moves_then=2, moves_since=0)
    other = type(engine)()
    monkeypatch.setattr(other, "VERSION", engine.VERSION + 1, raising=False)
    rebuilt = []
    real = store._rebuild
    monkeypatch.setattr(store, "_rebuild", lambda *args: rebuilt.append(1) or real(*args))
    store.load(game, other)
    assert rebuilt == [1]


@pytest.mark.parametrize("title", ["havana", "pointcity", "estates", "18cuba"])
def test_a_catch_up_plays_the_recorded_moves_without_listing_them_again(
    make_game, alice, bob, title, monkeypatch
):
    """The moves another worker appended were checked when they were; the
    catch-up plays them on a copy and comes to the very state a checked
    replay does."""
    game = make_game(title, players=[alice, bob], seed=7)
    engine = hold_an_older_state(game, random.Random(15), moves_then=3, moves_since=4)
    monkeypatch.setattr(
        type(engine), "candidates", lambda *args: pytest.fail("listed the legal moves")
    )
    monkeypatch.setattr(store, "_rebuild", lambda *args: pytest.fail("replayed from scratch"))
    game.refresh_from_db()
    loaded = store.load(game, engine)
    monkeypatch.undo()
    assert loaded.seq == game.seq
    assert exact(loaded.state) == exact(store.load(game, engine, use_snapshots=False).state)
