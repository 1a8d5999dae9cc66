"""A delayed spectator learns nothing of the last `spectator_delay` moves,
from any endpoint: every answer (body and headers, ETag included) is the one
the game gave when it stood at the spectator's head.

The reference is a moderator (who is never delayed and, holding no seat, sees
what a spectator sees) asking everything at every step.  A delayed stranger
asking now must get exactly what the moderator got when the game stood where
the stranger stands, except the deadlines, which the log does not record and
a delayed spectator is therefore not shown, and the verify record's secrets,
which a moderator may see early.  Once the game is over nothing is delayed.
"""

from __future__ import annotations

import copy

import pytest

from accounts.models import User
from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.seats import check_resign
from tests.support.consent import consenting
from tests.support.duel import DUEL
from tests.support.play import current_state

DELAY = 3
MOVE_KINDS = ("action", "timeout")
EVENT_QUERIES = ["", "?limit=2", "?after=3&limit=2"]  # all, a first page, a later page
# A fresh request id every time; the length follows the body, compared itself.
UNCOMPARED_HEADERS = {"X-Request-ID", "Content-Length"}


def answer(client, path: str) -> dict:
    response = client.get(path)
    headers = {k: v for k, v in response.headers.items() if k not in UNCOMPARED_HEADERS}
    body = response.json() if response.content else None
    return {"status": response.status_code, "headers": headers, "body": body}


def everything(client, game_id: int) -> dict[str, dict]:
    """Every GET a requester can make about one game (and the list)."""
    base = f"/api/games/{game_id}/"
    got = {"list": answer(client, "/api/games/"), "detail": answer(client, base)}
    for query in EVENT_QUERIES:
        got[f"events{query}"] = answer(client, f"{base}events/{query}")
    for name in ("actions", "takeback", "verify", "audit"):
        got[name] = answer(client, f"{base}{name}/")
    return got


def as_a_delayed_spectator_sees_it(reference: dict[str, dict]) -> dict[str, dict]:
    """The moderator's answers, less what a delayed spectator is never shown."""
    seen = {name: {**got, "body": copy.deepcopy(got["body"])} for name, got in reference.items()}
    detail = seen["detail"]["body"]
    detail["deadline"] = None
    for player in detail["players"]:
        player["deadline"] = None
    for entry in seen["list"]["body"]["results"]:
        entry["deadline"] = None
    verify = seen["verify"]["body"]
    for secret in ("setup", "salt", "matches"):
        verify.pop(secret, None)
    verify["revealed"] = False
    del seen["audit"]  # moderators only
    return seen


def expected_head(game: Game) -> int:
    """The seq just before the DELAY-th latest live move, worked out from the
    log by hand (undone moves do not count)."""
    events = list(Event.objects.filter(game=game).order_by("seq"))
    live, position = [], {}
    for event in events:
        if event.kind == "undo":
            live = live[: position[event.payload["to_seq"]] + 1]
        live.append(event.seq)
        position[event.seq] = len(live) - 1
    moves = [seq for seq in live if events[seq - 1].kind in MOVE_KINDS]
    return moves[-DELAY] - 1 if len(moves) >= DELAY else 1


class Walk:
    """Plays a game over HTTP; after every event the moderator's answers are
    kept, by seq, and the delayed stranger's are checked against them."""

    def __init__(self, clients: dict, game: Game) -> None:
        self.clients, self.game = clients, game
        self.references: dict[int, dict] = {}
        self.refusal: dict | None = None
        self.checked = 0
        self.look()

    def post(self, who: str, path: str, data: dict) -> None:
        self.game.refresh_from_db()
        data = data if path == "clock/" else {"seq": self.game.seq, **data}
        sent = self.clients[who].post(f"/api/games/{self.game.pk}/{path}", data, format="json")
        assert sent.status_code == 201, (who, path, sent.json())
        self.look()

    def move(self, who: str, text: str | None = None) -> None:
        if text is None:
            seat = ["alice", "bob", "carol"].index(who)
            text = f"commit {current_state(self.game)['hands'][seat][0]}"
        self.post(who, "actions/", {"text": text})

    def resign(self, who: str, *, check: bool = True) -> None:
        """Leave the game (no API door for it: by mail, or here the service)."""
        self.game.refresh_from_db()
        check_resign(self.game, User.objects.get(username=who))
        if check:
            self.look()

    def look(self) -> None:
        game = self.game
        game.refresh_from_db()
        self.references[game.seq] = everything(self.clients["mo"], game.pk)
        stranger = everything(self.clients["eve"], game.pk)
        head = expected_head(game)
        assert stranger["detail"]["body"]["seq"] == head
        assert head in self.references, f"no reference at seq {head}"
        wanted = as_a_delayed_spectator_sees_it(self.references[head])
        for name, got in wanted.items():
            assert stranger[name] == got, f"at seq {game.seq} (seen at {head}): {name}"
        self.refusal = self.refusal or stranger["audit"]
        assert stranger["audit"] == self.refusal  # refused, the same way every time
        self.checked += 1


@pytest.fixture
def walk(as_, alice, bob, carol, eve, mo):
    """A public three-seat clocked game with a delay, created over HTTP."""
    clients = {user.username: as_(user) for user in (alice, bob, carol, eve, mo)}
    body = {
        "title": "duel", "players": ["alice", "bob", "carol"], "options": {"rounds": 3},
        "spectator_delay": DELAY, "clock": {"per_move": "72h"},
    }  # fmt: skip
    consenting(alice, bob, carol)
    created = clients["alice"].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    return Walk(clients, Game.objects.get(pk=created.json()["id"]))


@pytest.mark.slow
def test_every_answer_to_a_delayed_spectator_stands_at_the_delayed_seq(walk, monkeypatch):
    walk.move("alice")
    walk.post("alice", "takeback/", {})  # alice asks to take her move back...
    walk.post("bob", "takeback/", {"answer": "approve"})
    walk.post("carol", "takeback/", {"answer": "approve"})  # ...granted: an undo
    walk.move("alice")
    walk.move("bob")
    walk.post("mo", "clock/", {"action": "pause", "reason": "a break"})
    walk.post("mo", "clock/", {"action": "resume", "reason": "back"})
    walk.move("carol")  # the round's cards are revealed
    walk.move("alice", "pass")
    walk.post("mo", "clock/", {"action": "extend", "by": "1h", "reason": "travel"})
    walk.move("bob", "draw")
    walk.move("carol", "pass")  # round 2
    walk.move("carol")
    walk.post("carol", "takeback/", {})  # asked, then refused: the request stays in the log
    walk.post("alice", "takeback/", {"answer": "refuse"})
    walk.move("alice")
    # carol leaves; the game goes on without her (the test engine would abort it)
    monkeypatch.setattr(DUEL, "resign", lambda state, seat: state)
    walk.resign("carol")
    walk.move("bob")  # alice, bob and carol committed: draw phase
    walk.move("alice", "pass")
    walk.move("bob", "pass")
    assert walk.checked == 22


def test_once_the_game_is_over_nothing_is_delayed(walk):
    walk.move("alice")
    walk.move("bob")
    walk.resign("alice", check=False)  # the test engine cannot go on: the game is aborted
    walk.game.refresh_from_db()
    assert walk.game.status == "aborted"
    moderator = everything(walk.clients["mo"], walk.game.pk)
    stranger = everything(walk.clients["eve"], walk.game.pk)
    assert stranger["detail"]["body"]["seq"] == walk.game.seq == 4
    assert stranger["verify"]["body"]["revealed"] is True
    del moderator["audit"], stranger["audit"]
    assert stranger == moderator


def test_the_list_orders_a_delayed_game_by_what_its_spectators_see(as_, alice, bob, carol, eve):
    delayed = do_create_game(title="duel", players=[alice, bob], spectator_delay=DELAY)
    other = do_create_game(title="duel", players=[alice, carol])  # updated after
    for seat, player in ((0, alice), (1, bob)):
        card = current_state(delayed)["hands"][seat][0]
        delayed.refresh_from_db()
        check_submit_action(delayed, player, text=f"commit {card}", expected_seq=delayed.seq)

    def listed(user) -> list[tuple[int, str]]:
        results = as_(user).get("/api/games/").json()["results"]
        return [(entry["id"], entry["updated_at"]) for entry in results]

    # the stranger sees the delayed game as created, before the other game was
    assert [pk for pk, _ in listed(eve)] == [other.pk, delayed.pk]
    assert [pk for pk, _ in listed(alice)] == [delayed.pk, other.pk]  # she played in it
    for user in (eve, alice):
        times = [when for _, when in listed(user)]
        assert times == sorted(times, reverse=True)


def test_a_long_list_keeps_a_delayed_game_where_its_spectators_saw_it_last(as_, alice, bob, eve):
    games = [
        do_create_game(title="duel", players=[alice, bob], spectator_delay=index % 2)
        for index in range(30)
    ]
    moved = games[1]  # its spectators see every move one move late
    card = current_state(moved)["hands"][0][0]
    check_submit_action(moved, alice, text=f"commit {card}", expected_seq=1)
    first = as_(eve).get("/api/games/").json()
    second = as_(eve).get("/api/games/?page=2").json()
    assert first["count"] == 30 and len(first["results"]) == 25 and first["next"]
    listed = first["results"] + second["results"]
    assert [entry["id"] for entry in listed] == [game.pk for game in reversed(games)]
    times = [entry["updated_at"] for entry in listed]
    assert times == sorted(times, reverse=True)
