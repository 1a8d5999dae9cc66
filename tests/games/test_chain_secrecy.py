"""Nothing shown of the event chain gives a hidden choice away.

Havana's face-down card choices and The Estates' stashed cheques are a few
dozen candidates each, and user ids are small integers.  An attacker who holds
everything a seat or a spectator receives (the event log, the game detail, the
verify record, the games list and, for a seat, every mail the real SMTP
conversation delivered) takes each event whose action was shown in public
form, tries every candidate (every legal action of that seat with that public
form) with every user id and every digest received as the previous hash, and
looks for any hash or commitment it can rebuild among the digests received.

Against version 2 it finds nothing.  Against what the server showed before
(version-1 hashes over the whole event, as the log used to carry them) the
same attacker finds every hidden choice; so do version-2 commitments without
their nonce.  Version-1 games as served now show no hash while they run.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import pytest

from accounts.models import User
from games.engines import base
from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.stream import chain, store
from games.stream.payloads import action_payload
from tests.api.conftest import client_for
from tests.notifications.conftest import Sink, eager_celery  # noqa: F401

# slow: an attacker's search over whole games' hashes.
pytestmark = pytest.mark.slow

DIGEST = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
TITLES = {"havana": 3, "estates": 3}
MOVES = 45


@dataclass
class Received:
    """Everything one viewer was given: the events by seq, every digest."""

    events: dict[int, dict] = field(default_factory=dict)
    digests: set[str] = field(default_factory=set)

    def take(self, text: str) -> None:
        self.digests.update(DIGEST.findall(text))


@dataclass
class Hidden:
    """An action shown to others in public form: what the attacker must find."""

    seq: int
    seat: int
    action: dict
    candidates: list[dict]  # every legal action with the same public form
    payloads: list[dict]  # each candidate as the event would have stored it


@pytest.fixture
def legacy_chain(monkeypatch):
    """Games created now hash as games created before version 2 did."""
    monkeypatch.setattr(Game._meta.get_field("chain_version"), "default", 1)


def play(game: Game, users: dict[int, User], rng: random.Random, on_commit) -> list[Hidden]:
    """Random legal moves; returns the actions others saw only in public form."""
    engine = base.get(game.title)
    hidden = []
    for _ in range(MOVES):
        game.refresh_from_db()
        if game.status != "active":
            break
        state = store.load(game, engine).state
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        public = engine.public_action(state, seat, action)
        with on_commit(execute=True):
            event = check_submit_action(game, users[seat], action=action, expected_seq=game.seq)
        if public is not None:
            same_face = [
                a
                for a in engine.legal_actions(state, seat)
                if (engine.public_action(state, seat, a) or a) == public
            ]
            payloads = [action_payload(engine, state, seat, a) for a in same_face]
            hidden.append(Hidden(event.seq, seat, action, same_face, payloads))
    return hidden


def receive(viewer: User, game: Game, sink: Sink) -> Received:
    """Everything the API and the mail gave this viewer about the game."""
    client = client_for(viewer)
    got = Received()
    paths = [
        f"/api/games/{game.pk}/",
        f"/api/games/{game.pk}/verify/",
        "/api/games/",
        f"/api/games/{game.pk}/actions/",
    ]
    for path in paths:
        response = client.get(path)
        got.take(response.content.decode())
        got.take(json.dumps(dict(response.headers)))
    after = 0
    while True:
        page = client.get(f"/api/games/{game.pk}/events/?after={after}&limit=100").json()
        got.take(json.dumps(page))
        for event in page["events"]:
            got.events[event["seq"]] = event
            after = event["seq"]
        if not page.get("more"):
            break
    for message in sink.to(viewer.email):
        got.take(message.as_string())
    return got


def guesses(game: Game, shown: dict, payload: dict, actors, prevs):
    """Every digest an attacker can build for one candidate payload."""
    header = {k: shown[k] for k in ("seq", "kind", "seat", "source", "created_at")}
    for actor in actors:
        # version 2's commitment without its nonce (or with an empty one)
        yield chain.sha256({"actor": actor, "payload": payload})
        yield chain.sha256({"actor": actor, "nonce": "", "payload": payload})
        for prev in prevs:
            event = {"game": game.pk, **header, "actor": actor, "payload": payload}
            yield chain.sha256({"prev": prev, "event": event})


def attack(game: Game, received: Received, hidden: list[Hidden], viewer_seat) -> dict[int, list]:
    """The candidates for each hidden action whose digests the viewer was
    given, by seq (an event's own, or one of an event with the same secret)."""
    actors = [None, *User.objects.values_list("pk", flat=True)]
    found = {}
    for secret in hidden:
        if secret.seat == viewer_seat or secret.seq not in received.events:
            continue
        shown = received.events[secret.seq]
        prevs = {shown.get("prev_hash"), *received.digests} - {None}
        for action, payload in zip(secret.candidates, secret.payloads, strict=True):
            if any(g in received.digests for g in guesses(game, shown, payload, actors, prevs)):
                found.setdefault(secret.seq, []).append(action)
    return found


def recovers_every_choice(found: dict[int, list], hidden: list[Hidden]) -> bool:
    return all(secret.action in found.get(secret.seq, []) for secret in hidden)


def start(title: str, users: list[User]) -> Game:
    return do_create_game(title=title, players=users, seed=11)


@pytest.fixture
def table(alice, bob, carol, eve):
    return [alice, bob, carol], eve


@pytest.mark.mail  # the seat's mails are searched too
@pytest.mark.parametrize("title", sorted(TITLES))
def test_another_seat_and_a_spectator_recover_no_hidden_choice(
    title, table, sink, django_capture_on_commit_callbacks
):
    on_commit = django_capture_on_commit_callbacks
    players, eve = table
    game = start(title, players)
    hidden = play(game, dict(enumerate(players)), random.Random(5), on_commit)
    assert len(hidden) >= 3, "the walk must contain hidden choices to attack"
    for viewer, seat in ((players[1], 1), (eve, None)):
        received = receive(viewer, game, sink)
        assert received.digests, "the viewer is shown the chain"
        assert attack(game, received, hidden, seat) == {}
    assert sink.to(players[1].email), "the seat's mails were searched too"


@pytest.mark.parametrize("title", sorted(TITLES))
def test_the_same_attacker_recovers_every_choice_from_version_1_hashes(
    title, table, sink, legacy_chain, django_capture_on_commit_callbacks
):
    on_commit = django_capture_on_commit_callbacks
    """What the log showed before version 2: hashes over the whole event."""
    players, eve = table
    game = start(title, players)
    assert game.chain_version == 1
    hidden = play(game, dict(enumerate(players)), random.Random(5), on_commit)
    served = receive(eve, game, sink)
    assert attack(game, served, hidden, None) == {}, "version-1 hashes are not shown while it runs"
    assert all(e["hash"] is None for e in served.events.values())
    as_shown_before = Received()
    for event in Event.objects.filter(game=game):
        shown = {**served.events[event.seq], "hash": event.hash, "prev_hash": event.prev_hash}
        as_shown_before.events[event.seq] = shown
        as_shown_before.digests.add(event.hash)
    assert recovers_every_choice(attack(game, as_shown_before, hidden, None), hidden)


def test_commitments_without_their_nonce_give_every_choice_away(
    table, sink, monkeypatch, django_capture_on_commit_callbacks
):
    on_commit = django_capture_on_commit_callbacks
    """The attacker is strong enough to catch a version 2 that lost its nonce."""
    monkeypatch.setattr(chain, "new_nonce", lambda: "")
    players, eve = table
    game = start("havana", players)
    hidden = play(game, dict(enumerate(players)), random.Random(5), on_commit)
    assert recovers_every_choice(attack(game, receive(eve, game, sink), hidden, None), hidden)
