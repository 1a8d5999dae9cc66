"""Redaction of the table's talk: a walk with planted messages through every
surface a viewer has (the API's detail, events, messages, export and audit;
the game page; the turn mail), for every kind of viewer.

Each planted message holds a token of its own (128 random bits), and so does
a moderator's reason for hiding one; a token must reach exactly the viewers
who may read its message, on every surface, before and after the end.  A
message a viewer may not read must look the same whoever sent it to whom
and however long it is (an empty payload, no seat, no actor, no opening),
and on the human surfaces be "a private message was sent" under full press
and nothing at all otherwise.  The spectator who wrote to the spectators'
room is named nowhere a player looks while the game runs.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass, field

import pytest
from django.template.loader import render_to_string
from django.test import Client

from games.models import Game
from games.services import talk as talk_service
from games.services.creation import do_create_game
from notifications import render
from tests.conftest import make_user
from tests.support.pages import without_csrf
from tests.support.play import random_move

PRIVATE_LINE = "a private message was sent"


def token() -> str:
    return f"tok{secrets.token_hex(16)}"


@dataclass
class Table:
    game: Game
    people: dict[str, object]
    # token: (who may read it while the game runs, who after the end)
    tokens: dict[str, tuple[set[str], set[str]]] = field(default_factory=dict)
    sealed_to: dict[str, int] = field(default_factory=dict)

    def say(self, who: str, to, *, during: set[str], after: set[str]) -> int:
        words = token()
        self.game.refresh_from_db()
        event = talk_service.check_send_message(
            self.game, self.people[who], to=to, text=f"{words} and more words", source="api"
        )
        self.tokens[words] = (during | {"mo"}, after | {"mo"})
        return event.seq

    def hide(self, seq: int) -> None:
        reason = token()
        self.game.refresh_from_db()
        talk_service.check_hide_message(self.game, self.people["mo"], seq=seq, reason=reason)
        self.tokens[reason] = ({"mo"}, {"mo"})


PLAYERS = ("alice", "bob", "carol")
VIEWERS = (*PLAYERS, "charlie", "mo")


def seat_of(name: str) -> int | None:
    return PLAYERS.index(name) if name in PLAYERS else None


def surfaces(table: Table, name: str) -> dict[str, str]:
    """Everything `name` receives of the game, surface by surface, as text."""
    user = table.people[name]
    client = Client()
    client.force_login(user)
    pk = table.game.pk
    got = {}
    for surface, path in (("detail", ""), ("events", "events/?limit=500"),
                          ("messages", "messages/"), ("export", "export/"), ("audit", "audit/"),
                          ("verify", "verify/")):  # fmt: skip
        response = client.get(f"/api/games/{pk}/{path}")
        if surface == "audit" and name != "mo":
            assert response.status_code == 403
            continue
        assert response.status_code == 200, (name, surface, response.content[:300])
        got[surface] = response.content.decode()
    page = client.get(f"/games/{pk}/")
    assert page.status_code == 200
    got["page"] = without_csrf(page.content.decode())
    seat = seat_of(name)
    if seat is not None:
        game = Game.objects.get(pk=pk)
        facts = render.game_facts(game, seat, game.seq, since=1, user_id=user.pk)
        got["mail"] = "".join(
            render_to_string(f"notifications/emails/_game.{kind}", {"game": facts})
            for kind in ("txt", "html")
        )
    return got


def check_tokens(table: Table, *, ended: bool) -> list[str]:
    problems = []
    for name in VIEWERS:
        got = surfaces(table, name)
        for words, (during, after) in table.tokens.items():
            readers = after if ended else during
            for surface, text in got.items():
                if surface == "verify":
                    if words in text:
                        problems.append(f"{name} finds a message in verify/")
                    continue
                human = surface in ("page", "mail", "messages")
                if name in readers and human and words not in text:
                    problems.append(f"{name} misses {words[:9]} on {surface}")
                if name not in readers and words in text:
                    problems.append(f"{name} reads {words[:9]} on {surface}")
        if not ended and name in PLAYERS:
            for surface, text in got.items():
                if "charlie" in text:
                    problems.append(f"{name} learns of the spectator charlie on {surface}")
    return problems


def check_stubs(table: Table, name: str) -> list[str]:
    """The sealed messages in `name`'s events all look alike."""
    client = Client()
    client.force_login(table.people[name])
    events = client.get(f"/api/games/{table.game.pk}/events/?limit=500").json()["events"]
    sealed = [e for e in events if e["kind"] == "message" and "opening" not in e]
    problems = []
    shapes = set()
    for event in sealed:
        if (event["payload"], event["seat"], event["actor"], event["source"]) != (
            {}, None, None, "talk"
        ):  # fmt: skip
            problems.append(f"{name}: sealed message {event['seq']} shows {event}")
        if "public_payload" in event or not re.fullmatch("[0-9a-f]{64}", event["commitment"]):
            problems.append(f"{name}: sealed message {event['seq']} commitment or payload")
        shapes.add(tuple(sorted((k, len(str(v))) for k, v in event.items()
                                if k not in ("seq", "created_at"))))  # fmt: skip
    if len(shapes) > 1:
        problems.append(f"{name}: sealed messages differ in shape: {shapes}")
    table.sealed_to[name] = len(sealed)
    return problems


def people_at_a_table(db) -> dict[str, object]:
    people = {name: make_user(name) for name in (*PLAYERS, "charlie")}
    people["mo"] = make_user("mo", is_moderator=True)
    return people


def plant(table: Table, press: str) -> None:
    everyone, players = set(VIEWERS), set(PLAYERS)
    pair = {"alice", "bob"}
    revealed = pair | (players | {"charlie"} if table.game.reveal_private else set())
    if press != "none":
        table.say("alice", "table", during=everyone, after=everyone)
    if press == "full":
        table.say("alice", 1, during=pair, after=revealed)
        table.say("bob", 0, during=pair, after=revealed)
    table.say("carol", "me", during={"carol"}, after={"carol"})
    table.say("charlie", "spectators", during={"charlie"}, after=everyone)
    if press != "none":
        rude = table.say("bob", "table", during=set(), after=set())
        table.hide(rude)


@pytest.mark.slow  # a walk of every surface for every reader: seconds each
@pytest.mark.parametrize(
    ("press", "reveal_private"),
    [("full", True), ("full", False), ("public", True), ("none", True)],
)
def test_every_message_reaches_exactly_its_readers_on_every_surface(db, press, reveal_private):
    people = people_at_a_table(db)
    game = do_create_game(
        title="duel", players=[people[n] for n in PLAYERS], options={"rounds": 1}, seed=7,
        press=press, reveal_private=reveal_private,
    )  # fmt: skip
    table = Table(game, people)
    rng = random.Random(3)
    random_move(game, rng)
    plant(table, press)
    random_move(game, rng)
    problems = check_tokens(table, ended=False)
    for name in VIEWERS:
        problems += check_stubs(table, name)
    assert problems == []
    # The human surfaces tell of sealed messages only where private ones exist.
    for name in ("carol", "charlie"):
        page = surfaces(table, name)["page"]
        shown = page.count(PRIVATE_LINE)
        # Once in the log and once in the talk box, less the table message
        # a moderator hid (shown as hidden).
        expected = 2 * (table.sealed_to[name] - 1) if press == "full" else 0
        assert shown == expected, (name, shown, expected)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        random_move(game, rng)
        game.refresh_from_db()
    assert check_tokens(table, ended=True) == []
    for name in VIEWERS:
        assert check_stubs(table, name) == []


def test_a_delayed_spectator_reads_the_table_only_as_far_as_they_see(db):
    people = people_at_a_table(db)
    game = do_create_game(
        title="duel", players=[people[n] for n in PLAYERS], options={"rounds": 3}, seed=7,
        spectator_delay=2,
    )  # fmt: skip
    table = Table(game, people)
    rng = random.Random(3)
    for _ in range(4):
        random_move(game, rng)
    everyone = set(VIEWERS)
    table.say("alice", "table", during=everyone - {"charlie"}, after=everyone)
    # The spectators' room runs late too: its place in the stream would tell
    # the spectators how far the game has gone.
    table.say("charlie", "spectators", during={"mo"}, after=everyone)
    client = Client()
    client.force_login(people["charlie"])
    answer = client.get(f"/api/games/{game.pk}/messages/").json()
    assert answer["messages"] == []
    game.refresh_from_db()
    assert answer["seq"] == game.spectator_seq < game.seq
    assert check_tokens(table, ended=False) == []


@pytest.mark.parametrize(
    "leak",
    [
        ("games.selectors.talk.Reader._may_read", lambda self, payload, actor_id: True),
        ("games.selectors.visibility.actor_for",
         lambda event, shown: event.actor.username if event.actor else None),
        ("games.stream.payloads.TALK_KINDS", frozenset()),
    ],
    ids=["every message readable", "senders named", "words in the public part"],
)  # fmt: skip
def test_the_walk_finds_a_planted_leak(db, monkeypatch, leak):
    people = people_at_a_table(db)
    game = do_create_game(
        title="duel", players=[people[n] for n in PLAYERS], options={"rounds": 1}, seed=7
    )
    table = Table(game, people)
    random_move(game, random.Random(3))
    monkeypatch.setattr(*leak)
    plant(table, "full")
    problems = check_tokens(table, ended=False)
    for name in VIEWERS:
        problems += check_stubs(table, name)
    assert problems
