"""Table talk in the stream: a message is an event like any other for the
chain, and nothing at all for the engines, the undo, the clocks and the
seq a player's move names.  Who may send what, and the refusals."""

from __future__ import annotations

import random

import pytest

from games.audit import golden
from games.engines import base
from games.errors import Forbidden, GameLocked, InvalidRequest, NotASeat, StaleSeq, TooFast
from games.models import Event, Game
from games.selectors import talk, viewers
from games.services import talk as talk_service
from games.services.clocks import check_lock
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.takeback import check_answer_takeback, check_request_takeback
from games.services.undo import check_undo
from games.stream import chain, store
from games.stream.derived import engine_for
from tests.golden import record
from tests.support.play import current_state, random_move, users_by_seat


def say(game, user, to, text="hello", source="api"):
    game.refresh_from_db()
    return talk_service.check_send_message(game, user, to=to, text=text, source=source)


@pytest.fixture
def game(alice, bob, carol):
    return do_create_game(title="duel", players=[alice, bob, carol], options={"rounds": 2}, seed=3)


def test_a_message_is_a_sealed_link_of_the_chain_with_nothing_public(game, alice, mo):
    event = say(game, alice, "table", "the deck looks thin")
    assert (event.kind, event.source, event.seat, event.actor_id) == ("message", "talk", None,
                                                                      alice.pk)  # fmt: skip
    assert event.payload == {"to": "table", "from": 0, "by": "alice",
                             "text": "the deck looks thin", "via": "api"}  # fmt: skip
    game.refresh_from_db()
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    assert store.chain_problems(game, rows) == []
    assert chain.seal_problem(event.hash, event.key_id, event.mac) is None
    # The hash covers an empty public payload and a commitment: the words,
    # the sender and the audience are only in the opening.
    assert chain.public_payload(event) == {}


def test_replay_skips_messages_and_every_state_is_unchanged(game, alice, bob, carol):
    rng = random.Random(5)
    people = [alice, bob, carol]
    states = []
    while game.status == Game.Status.ACTIVE:
        for who, to in ((people[rng.randrange(3)], "table"), (alice, 1), (bob, "me")):
            say(game, who, to, f"move {game.seq}")
        random_move(game, rng)
        game.refresh_from_db()
        states.append(golden.state_hash(current_state(game)))
    replayed = store.load(game, engine_for(game), use_snapshots=False, memo=False).state
    assert golden.state_hash(replayed) == states[-1]


@pytest.mark.parametrize("title", ["havana", "pointcity", "estates"])
def test_a_golden_game_with_talk_between_its_moves_ends_exactly_as_recorded(title, db):
    """Each step of a recorded game played through the service with a
    message before it ends at the recorded state."""
    from tests.conftest import make_user

    path = min((p for p in record.HERE.glob(f"{title}/*.json")), key=lambda p: p.stat().st_size)
    recording = record.load(path)
    engine = base.get(recording.title)
    users = [make_user(f"p{i}") for i in range(recording.players)]
    game = do_create_game(
        title=recording.title, players=users, options=recording.options, seed=recording.seed
    )
    for number, (kind, seat, action) in enumerate(recording.steps):
        if number % 3 == 0:
            say(game, users[number % len(users)], "table", f"step {number}")
        game.refresh_from_db()
        if kind == "resign":
            pytest.skip("recordings with a resignation are replayed by test_golden")
        check_submit_action(game, users[seat], action=action, expected_seq=game.seq - 1
                            if number % 3 == 0 else game.seq)  # fmt: skip
    state = store.load(game, engine, use_snapshots=False, memo=False).state
    assert golden.state_hash(state) == recording.final_hash


def test_a_move_naming_the_seq_before_some_talk_still_applies(game, alice, bob):
    engine = engine_for(game)
    state = current_state(game)
    seen = game.seq
    say(game, bob, "table", "your move")
    say(game, bob, 0, "psst")
    action = engine.legal_actions(state, 0)[0]
    event = check_submit_action(game, alice, action=action, expected_seq=seen)
    assert event.seq == seen + 3


def test_a_move_naming_a_seq_before_a_move_that_changed_its_choices_is_still_stale(
    game, alice, bob
):
    engine = engine_for(game)
    seen = game.seq
    first = engine.legal_actions(current_state(game), 0)[0]
    check_submit_action(game, alice, action=first, expected_seq=seen)
    say(game, bob, "table")
    game.refresh_from_db()
    with pytest.raises(StaleSeq):  # her own move changed what she may choose from
        check_submit_action(game, alice, action=first, expected_seq=seen)


def test_an_undo_leaves_messages_alone(game, alice, bob, carol, mo):
    rng = random.Random(1)
    random_move(game, rng)
    say(game, alice, "table", "before the undo")
    random_move(game, rng)
    game.refresh_from_db()
    said = say(game, bob, 0, "about to be undone?").seq
    check_undo(game, mo, to_seq=2, reason="misclick")
    game.refresh_from_db()
    viewer = viewers.viewer_of(game, alice)
    texts = [m.get("text") for m in talk.messages(game, viewer, after=0)]
    assert texts == ["before the undo", "about to be undone?"]
    # ... and an undo of the undo brings back the moves, not a second copy of talk.
    check_undo(game, mo, to_seq=game.seq - 1, reason="redo")
    game.refresh_from_db()
    assert [m["seq"] for m in talk.messages(game, viewer, after=0)][-1] == said


def test_talk_lets_a_takeback_be_asked_and_does_not_make_it_lapse(alice, bob):
    game = do_create_game(title="havana", players=[alice, bob], seed=1)
    engine = engine_for(game)
    users = users_by_seat(game)
    # Play until a move that may be taken back is made.
    rng = random.Random(2)
    for _ in range(60):
        game.refresh_from_db()
        state = current_state(game)
        seat = sorted(engine.to_act(state))[0]
        action = rng.choice(engine.legal_actions(state, seat))
        check_submit_action(game, users[seat], action=action, expected_seq=game.seq)
        if engine.takeback_allowed(state, seat, action, current_state(game)):
            break
    else:
        pytest.skip("no move that may be taken back came up")
    say(game, users[1 - seat], "table", "really?")
    game.refresh_from_db()
    check_request_takeback(game, users[seat], expected_seq=game.seq - 1)
    say(game, users[seat], "table", "please")
    game.refresh_from_db()
    event = check_answer_takeback(game, users[1 - seat], answer="approve", expected_seq=game.seq)
    assert event.kind == "undo"


def test_who_may_send_what(game, alice, bob, charlie, mo):
    assert say(game, alice, 2).payload["to"] == 2
    assert say(game, alice, "me").payload["to"] == "me"
    assert say(game, mo, "table").payload["from"] is None
    assert say(game, charlie, "spectators").payload["from"] is None
    with pytest.raises(NotASeat):
        say(game, charlie, "table")
    with pytest.raises(NotASeat):
        say(game, charlie, "me")
    with pytest.raises(Forbidden):
        say(game, alice, "spectators")
    for bad in (0, 3, -1, "1", True, None, "all", [1]):
        with pytest.raises(InvalidRequest):
            say(game, alice, bad)


def test_the_press_setting_limits_the_players_talk(alice, bob, charlie):
    public = do_create_game(title="duel", players=[alice, bob], press="public")
    say(public, alice, "table")
    with pytest.raises(Forbidden):
        say(public, alice, 1)
    silent = do_create_game(title="duel", players=[alice, bob], press="none")
    with pytest.raises(Forbidden):
        say(silent, alice, "table")
    # Notes and the spectators' room are nobody's press.
    say(silent, alice, "me")
    say(silent, charlie, "spectators")
    with pytest.raises(InvalidRequest):
        do_create_game(title="duel", players=[alice, bob], press="loud")
    stored = Event.objects.get(game=silent, seq=1).payload
    assert (stored["press"], stored["reveal_private"]) == ("none", True)


def test_bad_words_are_refused_and_change_nothing(game, alice, settings):
    settings.CORREO_MESSAGE_LENGTH = 50
    seq = game.seq
    for bad in ("", "   ", "x" * 51, "a\x00b", "a\x07b", "move\u202e3 ti", 42, None, ["hi"]):
        with pytest.raises(InvalidRequest):
            say(game, alice, "table", bad)
    game.refresh_from_db()
    assert game.seq == seq
    assert say(game, alice, "table", "two\nlines\tand ünïcödé 🎲").payload["text"]


def test_a_stranger_may_not_talk_in_a_private_game(alice, bob, charlie):
    game = do_create_game(title="duel", players=[alice, bob], public=False)
    with pytest.raises(Forbidden):
        say(game, charlie, "spectators")


def test_a_locked_game_is_silent_but_for_moderators(game, alice, mo):
    check_lock(game, mo, reason="dispute")
    with pytest.raises(GameLocked):
        say(game, alice, "table")
    say(game, mo, "table", "we are looking into it")


def test_talk_is_rate_limited_per_account_whatever_the_door(game, alice, throttle_rates):
    throttle_rates(talk="3/min")
    for source in ("api", "web", "email"):
        say(game, alice, "table", source=source)
    with pytest.raises(TooFast) as refused:
        say(game, alice, "table", source="api")
    assert refused.value.wait >= 1


def test_talk_after_the_end_mails_nobody_again(alice, bob):
    from notifications.models import Notification

    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 1}, seed=1)
    rng = random.Random(0)
    while game.status == Game.Status.ACTIVE:
        random_move(game, rng)
        game.refresh_from_db()
    before = Notification.objects.count()
    say(game, alice, "table", "good game")
    assert Notification.objects.count() == before


def test_verify_games_accepts_talk_and_catches_a_forged_sender(game, alice, bob):
    from games.audit import verification

    say(game, alice, "table")
    say(game, bob, 0)
    game.refresh_from_db()
    assert list(verification.game_problems(game)) == []
    rows = verification.stored([game])[game.pk].events
    forged = next(r for r in rows if r.kind == "message")
    forged.payload = {**forged.payload, "from": 1}
    problems = list(verification.actor_problems(game, rows, {}))
    assert any("wrote for seat 1" in p for p in problems)
