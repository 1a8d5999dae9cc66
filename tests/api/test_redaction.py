"""Redaction: no requester ever receives another seat's hidden values.

Whole random games of every title (and the test engine `duel`) are walked
through the HTTP API.  At every step every seat and a stranger (eve, a
spectator) fetch the game's detail, and one of them in turn fetches the
rest the API gives them: the event log since their last fetch, their legal
actions and, less often, the verification record, the takeback status and
the games list.  At the end everyone fetches everything.  Some walks have a
delayed stranger, and in some a mover takes moves back now and then.  Then,
per requester:

* Differential check of the views.  For each title, `mask(state, viewer)`
  replaces what the viewer must not know (other seats' face-down choices and
  hidden hands, cheques and stashes, bag / pile / deck / roof orders, the far
  side of cards, future rounds) by what the table can know about it (counts,
  multisets, "has chosen"), and `vary(state, viewer, rng)` returns a state
  that differs from the real one *only* there (checked: equal masks).  The
  engine's view, legal actions and `to_act` must be the same for both; the
  detail the API returned must be exactly the engine's view of the real
  state.  Naive substring checks of small numbers would collide; this does not.
* The same differential over HTTP: every other round of steps, at each step
  for one requester in turn, the server is made to load the varied state at
  the head (`store.load` is wrapped), and the detail and actions the
  requester receives must not change.  This catches a leak anywhere between
  the engine state and the JSON, not only in `view`.
* The event log: the created event never carries the setup; another seat's
  action appears only in its public form (`engine.public_action` of the state
  before it), the requester's own in full.
* The mails too: a seat in turn gets the game part of its turn mail (the
  board in the title's words, what happened over the last moves, its moves
  with their glosses), held to the same secrets check and differential.
* The web pages too: the requester in turn fetches the game page (board,
  moves, log), which is held to the same secrets check, and the HTTP
  differential renders it again under the varied state: a page must not
  change either (the CSRF token, which is per request, is left out).
* Anywhere in the JSON: no `setup`, `seed` or `salt` key, neither the salt
  nor the seed nor the long shuffled orders of the setup, and the verify
  record unrevealed, until the game ends; then the setup and salt are there
  and match the commitment.

The last tests plant leaks (in a view, in the event log, in the API layer,
in the verify record) and require the checker to report each one.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.engines import base
from games.engines.base import canonical_json, clone
from games.models import Event, Game
from games.selectors import orders as order_records
from games.selectors import shown, verify_record, visibility
from games.stream import spectators, store
from tests.conftest import make_user
from tests.support.consent import consenting
from tests.support.pages import without_csrf

try:
    from games.stream import lru as memo
except ImportError:  # no in-process cache to bypass
    memo = None

State = dict[str, Any]
Viewer = int | None  # a seat, or None for the stranger

FORBIDDEN_KEYS = {"setup", "seed", "salt"}
MAIL_SINCE = 8  # moves a checked mail tells of
MAX_PROBLEMS = 12
# Every so many steps a seat writes standing orders and another requester's
# whole answer (detail, log, page, ETag) must stay byte for byte the same.
ORDERS_EVERY = 12


# --- per title: what is hidden from a viewer ----------------------------------


@dataclass(frozen=True)
class Hidden:
    """`mask` keeps what the viewer may know; `vary` changes only the rest;
    `secret_orders` are the setup's long shuffled sequences (hidden while they
    are in the future)."""

    mask: Callable[[State, Viewer], State]
    vary: Callable[[State, Viewer, random.Random], State]
    secret_orders: Callable[[State, State], list[list[Any]]]


def _others(state: State, viewer: Viewer, players: int) -> list[int]:
    return [seat for seat in range(players) if seat != viewer]


# Havana: hands, discards and resources are open; the face-down choices of the
# other seats, the bag order and the building pile are not.


def havana_mask(state: State, viewer: Viewer) -> State:
    masked = clone(state)
    masked["bag"] = sorted(state["bag"])  # the contents follow from the open table
    masked["pile"] = len(state["pile"])
    masked["pending"] = [
        choice if seat == viewer else choice is not None
        for seat, choice in enumerate(state["pending"])
    ]
    return masked


def havana_vary(state: State, viewer: Viewer, rng: random.Random) -> State:
    from games.engines.havana.order import arrange

    varied = clone(state)
    rng.shuffle(varied["bag"])
    rng.shuffle(varied["pile"])
    for seat in _others(state, viewer, state["players"]):
        choice = state["pending"][seat]
        if choice is None:
            continue
        own = state["seats"][seat]
        if "cards" in choice:
            varied["pending"][seat] = {"cards": arrange(rng.sample(own["hand"], 2))}
        else:
            varied["pending"][seat] = {
                "card": rng.choice(own["hand"]),
                "cover": rng.choice(own["cards"]),
            }
    return varied


def havana_orders(setup: State, state: State) -> list[list[Any]]:
    return [setup["bag"], setup["pile"]]


# The Estates: each seat's split between cheques in hand and stashed cheques
# is secret (their sum follows from the public payments), and so are the roof
# order and every later round's display, roofs and start player.


def estates_mask(state: State, viewer: Viewer) -> State:
    masked = clone(state)
    for seat in _others(state, viewer, state["players"]):
        masked["money"][seat] = state["money"][seat] + state["stash"][seat]
        masked["stash"][seat] = None
    masked["roofs"] = sorted(state["roofs"])
    masked["setups"] = [
        {**setup, "roofs": sorted(setup["roofs"])} if number < state["round"] else None
        for number, setup in enumerate(state["setups"])
    ]
    return masked


def estates_vary(state: State, viewer: Viewer, rng: random.Random) -> State:
    varied = clone(state)
    for seat in _others(state, viewer, state["players"]):
        total = state["money"][seat] + state["stash"][seat]
        varied["stash"][seat] = rng.randint(0, total)
        varied["money"][seat] = total - varied["stash"][seat]
    rng.shuffle(varied["roofs"])
    for later in varied["setups"][state["round"] :]:
        cubes = [cube for row in later["display"] for cube in row]
        rng.shuffle(cubes)
        later["display"] = [[cubes.pop() for _ in row] for row in later["display"]]
        rng.shuffle(later["roofs"])
        later["start"] = rng.randrange(state["players"])
    return varied


def estates_orders(setup: State, state: State) -> list[list[Any]]:
    orders = [later["roofs"] for later in setup["setups"]]
    for number, later in enumerate(setup["setups"]):
        if number >= state["round"]:  # a display is laid out when its round starts
            orders.extend(later["display"])
    return orders


# Point City: nothing is secret between seats, but every card's far side is
# (the resource side of a building, the building side of a resource card, in
# the market, in stocks and in the discards), and so are the pile below its
# top card, the removed cards and the unrevealed civic tokens.


@functools.cache
def _pc_cards():
    from games.engines.pointcity.data import CARDS

    return CARDS


@functools.cache
def _pc_resource_face(card_id: int) -> str:
    return _pc_cards()[card_id].stock_kind


@functools.cache
def _pc_building_face(card_id: int) -> str:
    from games.engines.pointcity.view import building_face

    return canonical_json(building_face(card_id))


def _pc_face(slot: dict[str, Any]) -> str:
    from games.engines.pointcity.market import RESOURCE

    if slot["side"] == RESOURCE:
        return _pc_resource_face(slot["card"])
    return _pc_building_face(slot["card"])


def _pc_players(state: State) -> list[dict[str, Any]]:
    return [*state["seats"], *([state["bot"]] if state["bot"] is not None else [])]


def pointcity_mask(state: State, viewer: Viewer) -> State:
    cards = _pc_cards()
    masked = clone(state)
    pile = state["pile"]
    masked["pile"] = {
        "top": _pc_resource_face(pile[0]) if pile else None,
        "tiers": [cards[c].tier for c in pile],
    }
    masked["removed"] = sorted(cards[c].tier for c in state["removed"])
    masked["token_box"] = sorted(state["token_box"])
    masked["market"] = [
        None if slot is None else {"side": slot["side"], "face": _pc_face(slot)}
        for slot in state["market"]
    ]
    masked["discard"] = [_pc_resource_face(c) for c in state["discard"]]
    for player, original in zip(_pc_players(masked), _pc_players(state), strict=True):
        player["stock"] = [_pc_resource_face(c) for c in original["stock"]]
        player["city"] = [_pc_building_face(c) for c in original["city"]]
    return masked


def pointcity_vary(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Shuffle the unseen cards within their tiers, then swap every card whose
    visible face is known for an unseen card with the same face and tier."""
    from games.engines.pointcity.market import RESOURCE

    cards = _pc_cards()
    varied = clone(state)
    unseen = [(varied["pile"], i) for i in range(1, len(varied["pile"]))]
    unseen += [(varied["removed"], i) for i in range(len(varied["removed"]))]
    by_tier: dict[int, list[tuple[list[int], int]]] = {}
    for where, i in unseen:
        by_tier.setdefault(cards[where[i]].tier, []).append((where, i))
    for places in by_tier.values():
        ids = [where[i] for where, i in places]
        rng.shuffle(ids)
        for (where, i), card in zip(places, ids, strict=True):
            where[i] = card
    # A swap keeps the face at both places, so these indexes stay right.
    faces = {"resource": _pc_resource_face, "building": _pc_building_face}
    unseen_by_face = {
        kind: _group(unseen, lambda card, face=face: (cards[card].tier, face(card)))
        for kind, face in faces.items()
    }

    def swap(get: Callable[[], int], put: Callable[[int], None], kind: str) -> None:
        card = get()
        places = unseen_by_face[kind].get((cards[card].tier, faces[kind](card)), [])
        if places:
            where, i = rng.choice(places)
            put(where[i])
            where[i] = card

    def at(holder: list[Any], i: int, kind: str) -> None:
        swap(lambda: holder[i], lambda card: holder.__setitem__(i, card), kind)

    if varied["pile"]:
        at(varied["pile"], 0, "resource")
    for slot in varied["market"]:
        if slot is not None:
            kind = "resource" if slot["side"] == RESOURCE else "building"
            swap(lambda s=slot: s["card"], lambda card, s=slot: s.__setitem__("card", card), kind)
    for player in _pc_players(varied):
        for i in range(len(player["stock"])):
            at(player["stock"], i, "resource")
        for i in range(len(player["city"])):
            at(player["city"], i, "building")
    for i in range(len(varied["discard"])):
        at(varied["discard"], i, "resource")
    rng.shuffle(varied["token_box"])
    return varied


def _group(places: list[tuple[list[int], int]], key: Callable[[int], Any]) -> dict[Any, list]:
    grouped: dict[Any, list] = {}
    for where, i in places:
        grouped.setdefault(key(where[i]), []).append((where, i))
    return grouped


def pointcity_orders(setup: State, state: State) -> list[list[Any]]:
    return [setup["pile"], setup["removed"], setup["token_box"]]


# Duel (the test engine): other seats' hands and commitments, and the deck.


def duel_mask(state: State, viewer: Viewer) -> State:
    masked = clone(state)
    masked["deck"] = len(state["deck"])
    for seat in _others(state, viewer, state["players"]):
        masked["hands"][seat] = len(state["hands"][seat])
        masked["committed"][seat] = state["committed"][seat] is not None
    return masked


def duel_vary(state: State, viewer: Viewer, rng: random.Random) -> State:
    varied = clone(state)
    others = _others(state, viewer, state["players"])
    pool = list(state["deck"])
    for seat in others:
        pool += state["hands"][seat]
        if state["committed"][seat] is not None:
            pool.append(state["committed"][seat])
    rng.shuffle(pool)
    varied["deck"] = [pool.pop() for _ in state["deck"]]
    for seat in others:
        varied["hands"][seat] = sorted(pool.pop() for _ in state["hands"][seat])
        if state["committed"][seat] is not None:
            varied["committed"][seat] = pool.pop()
    return varied


def duel_orders(setup: State, state: State) -> list[list[Any]]:
    return [setup["deck"]]


# 18Cuba: nothing is hidden (III.1: all holdings open) and its one chance, the
# playing order, is dealt at setup and shown at once. The walk still proves
# that the API gives every requester the engine's view, legal moves and log,
# and no salt or seed; there is nothing to vary.


def cuba_mask(state: State, viewer: Viewer) -> State:
    return clone(state)


def cuba_vary(state: State, viewer: Viewer, rng: random.Random) -> State:
    return clone(state)


def cuba_orders(setup: State, state: State) -> list[list[Any]]:
    return []


NOTHING_HIDDEN = {"18cuba"}

HIDDEN: dict[str, Hidden] = {
    "18cuba": Hidden(cuba_mask, cuba_vary, cuba_orders),
    "havana": Hidden(havana_mask, havana_vary, havana_orders),
    "estates": Hidden(estates_mask, estates_vary, estates_orders),
    "pointcity": Hidden(pointcity_mask, pointcity_vary, pointcity_orders),
    "duel": Hidden(duel_mask, duel_vary, duel_orders),
}


# --- helpers -------------------------------------------------------------------


def plain(value: Any) -> Any:
    """As the value travels in JSON."""
    return json.loads(json.dumps(value))


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, e.g. `view.seats[1].choice`."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key} (only in {'first' if key in a else 'second'})"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (lengths {len(a)} and {len(b)})"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(a, str) and isinstance(b, str) and a != b and max(len(a), len(b)) > 80:
        # A page: where it first differs, with a little of each side.
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
        return f"{path or '.'} at {at}: {a[at - 20 : at + 40]!r} != {b[at - 20 : at + 40]!r}"
    return None if a == b and type(a) is type(b) else f"{path or '.'}: {a!r} != {b!r}"


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= keys_in(item)
        return found
    if isinstance(value, list):
        return set().union(*(keys_in(item) for item in value)) if value else set()
    return set()


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def who(viewer: Viewer) -> str:
    return "the stranger" if viewer is None else f"seat {viewer}"


@dataclass
class Move:
    seat: int
    action: dict[str, Any]
    before: State
    # what the move set off without a decision (`engine.effects`), stored
    # with it and public: every viewer receives it
    effects: list[dict[str, Any]] = dataclasses.field(default_factory=list)


# --- the checker ------------------------------------------------------------------


class RedactionWalk:
    """Plays one random game through the API and collects every redaction problem.

    Problems are collected, not raised, so that a test can prove they are found.
    """

    def __init__(
        self,
        as_,
        monkeypatch,
        title: str,
        players: int,
        seed: int,
        options: dict | None = None,
        spectator_delay: int = 0,
        takebacks: int = 0,
    ) -> None:
        self.as_ = as_
        self.monkeypatch = monkeypatch
        self.title = title
        self.engine = base.get(title)
        self.hidden = HIDDEN[title]
        self.players = players
        self.options = options or {}
        self.delay = spectator_delay
        self.takebacks_left = takebacks
        self.takeback_rng = random.Random(seed + 1)
        # One generator for the game (its secret seed, then the moves), so a
        # walk's seed fixes its game; another for the variations.
        self.rng = random.Random(seed)
        self.vary_rng = random.Random(-seed)
        self.problems: list[str] = []
        self.step = 0
        self.views_checked = 0
        self.views_varied = 0
        self.http_checks = 0
        # Standing orders planted along the way: tag -> the seat that wrote it.
        self.order_tags: dict[str, int] = {}
        self.orders_planted = 0

    def problem(self, message: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(f"{self.title} step {self.step}: {message}")

    def create(self) -> None:
        names = ["alice", "bob", "carol", "dave", "erin"][: self.players]
        users = [make_user(name) for name in names]
        self.clients = {seat: self.as_(user) for seat, user in enumerate(users)}
        self.clients[None] = self.as_(make_user("eve"))
        self.pages = {viewer: _logged_in(user) for viewer, user in enumerate(users)}
        self.pages[None] = _logged_in(User.objects.get(username="eve"))
        consenting(users[0], *users[1:])  # what POST /api/games/ asks of the others
        body = {"title": self.title, "players": names, "options": self.options}
        body["spectator_delay"] = self.delay
        with self.monkeypatch.context() as patch:
            patch.setattr("games.services.creation.secrets.randbits", self.rng.getrandbits)
            created = self.clients[0].post("/api/games/", body, format="json")
        assert created.status_code == 201, created.json()
        self.id = created.json()["id"]
        game = Game.objects.get(pk=self.id)
        self.secret_seed, self.salt = str(game.seed), game.salt
        self.created = Event.objects.get(game=game, seq=1).payload
        self.setup = self.created["setup"]
        self.state = clone(self.setup)
        self.states = {1: self.state}  # after each seq, for a delayed spectator
        self.moves: dict[int, Move] = {}
        self.bookkeeping: dict[int, dict[str, Any]] = {}  # takeback events: seq -> payload
        self.seen = dict.fromkeys(self.clients, 0)
        self.last_seq = 1

    def play(self, *, max_steps: int = 5000, until_a_problem: bool = False) -> list[str]:
        self.create()
        for self.step in range(max_steps):
            if until_a_problem and self.problems:
                break
            received = self.check_everyone()
            if self.step == 0:
                self.check_the_plant_takes()
            if self.engine.result(self.state) is not None:
                self.check_the_end()
                break
            if self.round() % 2 == 0:
                self.check_over_http(received)
            if self.step % ORDERS_EVERY == 1:
                self.plant_orders()
            self.move()
        return self.problems

    def plant_orders(self) -> None:
        """A seat in turn leaves standing orders that never fire (one is
        dropped when the seat comes to act, one waits for a round that never
        comes, where the title names rounds), each holding a tag of its own,
        and cancels the older one.  Nothing any other requester receives may
        change meanwhile, not a byte of the detail, the log, the page or
        the ETag; and the owner is shown them."""
        # Over the walk every seat writes, and every other requester watches.
        turn = self.step // ORDERS_EVERY
        owner = turn % self.players
        other = [v for v in self.viewers() if v != owner][(turn // self.players) % self.players]
        before = self.receives_now(other)
        tags = [f"ord{secrets.token_hex(8)}" for _ in range(2)]
        orders = [{"kind": "play", "action": {"type": tags[0]}, "after": {"type": tags[0]}}]
        phases = getattr(self.engine, "ORDER_PHASES", None)
        if phases is not None:
            far = phases.words((99, 0, 0)[: len(phases.key(self.state))])
            orders.append({"kind": "play", "action": {"type": tags[1]}, "phase": far})
        url = f"/api/games/{self.id}/orders/"
        for order, tag in zip(orders, tags, strict=False):
            posted = self.clients[owner].post(url, {"order": order}, format="json")
            assert posted.status_code == 201, posted.json()
            self.order_tags[tag] = owner
            self.orders_planted += 1
        mine = self.clients[owner].get(url).json()
        if mine["orders"] and tags[1] not in json.dumps(mine["orders"][0]):
            cancelled = self.clients[owner].delete(f"{url}?id={mine['orders'][0]['id']}")
            assert cancelled.status_code == 200, cancelled.json()
        shown_to_owner = json.dumps(self.clients[owner].get(url).json())
        if phases is not None and tags[1] not in shown_to_owner:
            self.problem(f"{who(owner)} is not shown their own standing order")
        after = self.receives_now(other)
        for name, body in before.items():
            if after[name] != body:
                self.problem(f"{who(other)} receives another {name} once orders were written")

    def receives_now(self, viewer: Viewer) -> dict[str, Any]:
        """What `viewer` receives of the game, byte for byte, with its ETag."""
        detail = self.clients[viewer].get(f"/api/games/{self.id}/")
        return {
            "detail": detail.content, "etag": detail.headers.get("ETag"),
            "events": self.clients[viewer].get(f"/api/games/{self.id}/events/?limit=500").content,
            "page": self.page(viewer),
        }  # fmt: skip

    def page(self, viewer: Viewer) -> str:
        """The game page as the requester's browser gets it, less the
        per-request CSRF token."""
        response = self.pages[viewer].get(f"/games/{self.id}/")
        assert response.status_code == 200, (who(viewer), response.status_code)
        return without_csrf(response.content.decode())

    def mail(self, viewer: int) -> str:
        """The game part of the seat's turn mail now (text and HTML), telling
        what happened over the last few moves."""
        from django.template.loader import render_to_string

        from notifications import render

        game = Game.objects.get(pk=self.id)
        since = max(1, self.last_seq - MAIL_SINCE)
        facts = render.game_facts(game, viewer, game.seq, since=since)
        return "".join(
            render_to_string(f"notifications/emails/_game.{kind}", {"game": facts})
            for kind in ("txt", "html")
        )

    def get(self, viewer: Viewer, path: str) -> dict[str, Any]:
        response = self.clients[viewer].get(f"/api/games/{self.id}/{path}")
        assert response.status_code == 200, (who(viewer), path, response.json())
        return response.json()

    def move(self) -> None:
        """A random legal move (the listed actions are checked against the
        engine's whenever they are fetched)."""
        seat = self.rng.choice(sorted(self.engine.to_act(self.state)))
        action = self.rng.choice(plain(self.engine.legal_actions(self.state, seat)))
        body = {"seq": self.last_seq, "action": action}
        posted = self.clients[seat].post(f"/api/games/{self.id}/actions/", body, format="json")
        assert posted.status_code == 201, (body, posted.json())
        self.last_seq = posted.json()["seq"]
        before, self.state = self.state, self.engine.apply(self.state, seat, action)
        effects = plain(self.engine.effects(self.state)) if hasattr(self.engine, "effects") else []
        self.moves[self.last_seq] = Move(seat, action, before, effects)
        self.states[self.last_seq] = self.state
        if (
            self.takebacks_left
            and self.engine.result(self.state) is None
            and self.engine.takeback_allowed(before, seat, action, self.state)
            and self.takeback_rng.random() < 0.2
        ):
            self.take_back(seat, before)

    def take_back(self, seat: int, before: State) -> None:
        """The mover asks to take the move back; everyone else approves."""
        self.takebacks_left -= 1
        move_seq = self.last_seq
        url = f"/api/games/{self.id}/takeback/"
        asked = self.clients[seat].post(url, {"seq": move_seq}, format="json")
        assert asked.status_code == 201, asked.json()
        request_seq = self.last_seq = asked.json()["seq"]
        self.bookkeeping[request_seq] = {"move_seq": move_seq}
        self.states[request_seq] = self.state
        for other in _others(self.state, seat, self.players):
            body = {"seq": self.last_seq, "answer": "approve"}
            answered = self.clients[other].post(url, body, format="json")
            assert answered.status_code == 201, answered.json()
            self.last_seq = answered.json()["seq"]
        # The last approval answered at the seq before the undo it caused.
        for seq in range(request_seq + 1, self.last_seq):
            self.bookkeeping[seq] = {"request_seq": request_seq, "answer": "approve"}
            self.states[seq] = self.state
        self.bookkeeping[self.last_seq] = {"to_seq": move_seq - 1}
        self.state = self.states[self.last_seq] = before

    # -- what everyone receives, every step

    def viewers(self) -> list[Viewer]:
        return [*range(self.players), None]

    def in_turn(self) -> Viewer:
        return self.viewers()[self.step % len(self.viewers())]

    def head_of(self, viewer: Viewer) -> int:
        """The seq a requester sees: a stranger lags `spectator_delay` moves."""
        if viewer is None and self.engine.result(self.state) is None:
            return max(1, self.last_seq - self.delay)
        return self.last_seq

    def round(self) -> int:
        """Steps go in rounds, one step per requester in turn."""
        return self.step // len(self.viewers())

    def check_everyone(self) -> dict[Viewer, dict[str, Any]]:
        """What each requester receives now, checked.

        Everyone fetches the detail at every step.  The rest is fetched by one
        requester per step, in turn: the event log (every event since that
        requester's last fetch: an event is redacted the same whenever it is
        fetched while the game runs) and the legal actions; every second
        round the turn mail; every third round the verify record (it
        depends on nothing but the game's status); every sixth the takeback
        status, the games list and the web page (the dearest request of all:
        a leak on it would come from the view or the log, which are checked
        at every step).  Every request costs
        milliseconds; this keeps the walks fast without leaving any event
        unchecked for any requester, and the engine-level differential
        covers every seat's legal actions at every step.  At the end everyone
        fetches everything.
        """
        active = self.engine.result(self.state) is None
        received = {}
        for viewer in self.viewers():
            turn = viewer == self.in_turn() or not active
            got = {"detail": self.get(viewer, "")}
            if turn:
                if viewer is not None:
                    got["actions"] = self.get(viewer, "actions/")
                got["events"] = self.get(viewer, f"events/?after={self.seen[viewer]}&limit=500")
                if self.round() % 3 == 0 or not active:
                    got["verify"] = self.get(viewer, "verify/")
                if self.round() % 6 == 0 or not active:
                    got["page"] = self.page(viewer)
                if self.round() % 2 == 0 and viewer is not None and active:
                    got["mail"] = self.mail(viewer)
                if self.round() % 6 == 0 or not active:
                    got["takeback"] = self.get(viewer, "takeback/")
                    got["list"] = self.clients[viewer].get("/api/games/?page_size=100").json()
                events = got["events"]["events"]
                self.check_events(viewer, events, revealed=not active)
                if events:
                    self.seen[viewer] = events[-1]["seq"]
            received[viewer] = got
            if active:
                state = self.states[self.head_of(viewer)]
                if got["detail"]["seq"] != self.head_of(viewer):
                    self.problem(f"{who(viewer)} sees seq {got['detail']['seq']}")
                self.check_secrets_absent(viewer, got, state)
                self.check_views(viewer, got, state)
        return received

    def check_secrets_absent(self, viewer: Viewer, got: dict[str, Any], state: State) -> None:
        for name, body in got.items():
            leaked = keys_in(body) & FORBIDDEN_KEYS
            if leaked:
                self.problem(f"{who(viewer)} receives {sorted(leaked)} in {name}")
            text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
            if self.salt in text:
                self.problem(f"{who(viewer)} receives the salt in {name}")
            if self.secret_seed in text:
                self.problem(f"{who(viewer)} receives the secret seed in {name}")
            for tag, owner in self.order_tags.items():
                if viewer != owner and tag in text:
                    self.problem(
                        f"{who(viewer)} receives a standing order of seat {owner} in {name}"
                    )
            for order in self.hidden.secret_orders(self.setup, state):
                if len(order) >= 5 and json.dumps(order, separators=(",", ":")) in text:
                    self.problem(f"{who(viewer)} receives a shuffled order of the setup in {name}")
        if "verify" in got:
            verify = got["verify"]
            if verify.get("revealed") is not False:
                self.problem(f"{who(viewer)} gets a revealed verify record while the game runs")
            if verify.get("commitment") != self.created["commitment"]:
                self.problem(f"{who(viewer)} gets another commitment than the created event's")

    def check_views(self, viewer: Viewer, got: dict[str, Any], state: State) -> None:
        engine = self.engine
        own = plain(engine.view(state, viewer))
        if got["detail"]["view"] != own:
            where = first_difference(got["detail"]["view"], own, "view")
            self.problem(f"{who(viewer)} receives another view than the engine's: {where}")
        if got["detail"]["to_act"] != sorted(engine.to_act(state)):
            self.problem(f"{who(viewer)} receives another to_act than the engine's")
        if "actions" in got:
            legal = engine.legal_actions(state, viewer) if viewer in engine.to_act(state) else []
            if [a["action"] for a in got["actions"]["actions"]] != plain(legal):
                self.problem(f"{who(viewer)} receives other legal actions than the engine's")
        varied = self.varied(viewer, state)
        self.views_checked += 1
        self.views_varied += canonical_json(varied) != canonical_json(state)
        real, other = self.seen_by(viewer, state), self.seen_by(viewer, varied)
        if real != other:
            where = first_difference(real, other)
            self.problem(f"what {who(viewer)} sees depends on hidden values: {where}")

    def varied(self, viewer: Viewer, state: State) -> State:
        varied = self.hidden.vary(state, viewer, self.vary_rng)
        masks = [self.hidden.mask(s, viewer) for s in (state, varied)]
        # A variation that touched something public would prove nothing.
        assert canonical_json(masks[0]) == canonical_json(masks[1]), first_difference(*masks)
        return varied

    def seen_by(self, viewer: Viewer, state: State) -> dict[str, Any]:
        engine = self.engine
        seen = {"view": plain(engine.view(state, viewer)), "to_act": sorted(engine.to_act(state))}
        if viewer is not None:
            seen["actions"] = plain(engine.legal_actions(state, viewer))
        return seen

    # -- the event log

    def check_events(self, viewer: Viewer, events: list[dict], *, revealed: bool) -> None:
        for event in events:
            seq, payload = event["seq"], event["payload"]
            if event["kind"] == "created":
                # The game's `public` flag is dropped from the created event for
                # everyone (visibility strips `public` from every payload).
                expected = {k: v for k, v in self.created.items() if k != "public"}
                if not revealed:
                    expected.pop("setup")
            elif event["kind"] == "action":
                move = self.moves[seq]
                if event["seat"] != move.seat:
                    self.problem(f"event {seq} names seat {event['seat']}, not {move.seat}")
                expected = {"action": move.action}
                public = self.engine.public_action(move.before, move.seat, move.action)
                if public is not None and viewer != move.seat and not revealed:
                    expected = {"action": public}
                if move.effects:
                    expected["effects"] = move.effects
            elif seq in self.bookkeeping:  # a takeback's request, answers and undo
                expected = self.bookkeeping[seq]
                if event["kind"] == "undo":
                    expected = {**expected, "reason": payload.get("reason")}
            else:
                self.problem(f"unexpected event kind {event['kind']} at {seq}")
                continue
            if plain(payload) != plain(expected):
                where = first_difference(plain(payload), plain(expected), "payload")
                self.problem(f"{who(viewer)} receives event {seq} as {where}")

    # -- the whole detail over HTTP, with the server loading a varied state

    def check_over_http(self, received: dict[Viewer, dict[str, Any]]) -> None:
        viewer = self.in_turn()
        head = self.head_of(viewer)
        planted = self.with_state(
            self.varied(viewer, self.states[head]), viewer, received[viewer], head
        )
        for name, body in planted.items():
            if body != received[viewer][name]:
                where = first_difference(received[viewer][name], body, name)
                self.problem(
                    f"what {who(viewer)} receives over HTTP depends on hidden values: {where}"
                )
        self.http_checks += 1

    def with_state(
        self, state: State, viewer: Viewer, received: dict[str, Any], head: int
    ) -> dict[str, Any]:
        """What `viewer` receives while the server loads `state` at `head`
        (the detail, and the legal actions if they were fetched)."""
        load = store.load

        def planted(game, engine, **kwargs):
            loaded = load(game, engine, **kwargs)
            if game.pk == self.id and loaded.seq == head:
                return dataclasses.replace(loaded, state=clone(state))
            return loaded

        with self.monkeypatch.context() as patch:
            patch.setattr(store, "load", planted)
            if memo is not None:  # in-process caches would serve the real state
                patch.setattr(memo.LRU, "get_or_compute", lambda _self, _key, compute: compute())
            got = {"detail": self.get(viewer, "")}
            if "actions" in received:
                got["actions"] = self.get(viewer, "actions/")
            if "page" in received:
                got["page"] = self.page(viewer)
            if "mail" in received:
                got["mail"] = self.mail(viewer)
            return got

    def check_the_plant_takes(self) -> None:
        """The HTTP differential is only worth something if the API really
        renders the planted state, caches or not: plant a publicly different
        state once, after the real one was served."""
        seat = sorted(self.engine.to_act(self.state))[0]
        action = self.engine.legal_actions(self.state, seat)[0]
        other = self.engine.apply(self.state, seat, action)
        got = self.with_state(other, seat, {}, self.last_seq)
        assert got["detail"]["view"] == plain(self.engine.view(other, seat)), (
            "the API ignores the planted state: the HTTP differential would prove nothing"
        )

    # -- the end

    def check_the_end(self) -> None:
        for viewer in self.viewers():
            verify = self.get(viewer, "verify/")
            if not (verify["revealed"] and verify["matches"]):
                self.problem(f"{who(viewer)} cannot verify the setup after the end")
            if verify.get("setup") != self.setup or verify.get("salt") != self.salt:
                self.problem(f"{who(viewer)} gets another setup or salt than the game's")
            events = self.get(viewer, "events/?limit=500")["events"]
            if [e["seq"] for e in events] != list(range(1, self.last_seq + 1)):
                self.problem(f"{who(viewer)} does not get the whole log after the end")
            self.check_events(viewer, events, revealed=True)


# --- the walks -----------------------------------------------------------------

# (title, players, seed, options, spectator delay, takebacks): seeds picked for
# short whole games, so that the file stays fast; the checks do not depend on
# them.  A delayed stranger sees the game as it stood that many moves ago.  In
# some walks a mover takes back a move now and then (when the engine allows
# it), so undone moves stay in the log and must stay redacted there.
WALKS = [
    ("havana", 2, 86, {}, 3, 0),
    ("havana", 3, 952, {}, 0, 3),
    ("estates", 2, 567, {"edition": "the-estates", "rounds": 3}, 0, 3),  # ends in round 2
    ("estates", 4, 1458, {}, 2, 0),
    ("pointcity", 1, 77, {}, 0, 0),
    ("pointcity", 2, 29, {}, 2, 0),
    ("18cuba", 3, 3, {"difficulty": "hard"}, 0, 3),
    ("18cuba", 2, 4, {"difficulty": "easy", "map_part": "west"}, 2, 0),
    ("duel", 2, 29, {}, 0, 2),
    ("duel", 4, 1, {}, 1, 0),
]


@pytest.mark.slow
@pytest.mark.parametrize(("title", "players", "seed", "options", "delay", "takebacks"), WALKS)
def test_no_requester_ever_receives_another_seats_hidden_values(
    as_, monkeypatch, title, players, seed, options, delay, takebacks
):
    walk = RedactionWalk(
        as_, monkeypatch, title, players, seed, options, spectator_delay=delay, takebacks=takebacks
    )
    problems = walk.play()
    assert problems == []
    assert walk.engine.result(walk.state) is not None, "the walk must reach the end"
    assert walk.takebacks_left < takebacks or not takebacks, "no move was taken back"
    # The variations must have had something to vary nearly all the time
    # (in a title that hides something).
    if title not in NOTHING_HIDDEN:
        assert walk.views_varied >= 0.9 * walk.views_checked, (
            walk.views_varied,
            walk.views_checked,
        )
    assert walk.http_checks >= walk.step // 2 - len(walk.viewers())
    planted = walk.orders_planted
    assert planted >= walk.step // ORDERS_EVERY, "standing orders were planted along the way"


# --- a checker that cannot fail would prove nothing: planted leaks ---------------


def leak_in_view(title: str, extra: Callable[[State, Viewer], dict[str, Any]]):
    """Plant a leak in the engine's view: `extra(state, seat)` is added to it."""

    def plant(monkeypatch) -> None:
        engine_class = type(base.get(title))
        honest = engine_class.view

        def leaky(self, state, seat):
            return {**honest(self, state, seat), **extra(state, seat)}

        monkeypatch.setattr(engine_class, "view", leaky)

    return plant


def leak_in_detail(extra: Callable[[Game, State], dict[str, Any]]):
    """Plant a leak in the API layer, outside any engine view."""

    def plant(monkeypatch) -> None:
        honest = shown.game_detail

        def leaky(game, viewer, *args, **kwargs):
            state = store.load(game, base.get(game.title)).state
            return {**honest(game, viewer, *args, **kwargs), **extra(game, state)}

        monkeypatch.setattr(shown, "game_detail", leaky)

    return plant


def leak_in_page(extra: Callable[[State], Any]):
    """Plant a leak in the web page only: the API stays honest."""

    def plant(monkeypatch) -> None:
        from web import pages

        honest = pages.context

        def leaky(page):
            state = store.load(page.game, base.get(page.game.title)).state
            shown = honest(page)
            return {**shown, "board": f"{shown['board']}<p>{extra(state)}</p>"}

        monkeypatch.setattr(pages, "context", leaky)

    return plant


def leak_in_mail(extra: Callable[[State], Any]):
    """Plant a leak in the turn mail only: the API and the pages stay honest."""

    def plant(monkeypatch) -> None:
        from notifications import render

        honest = render.game_facts

        def leaky(game, seat, seq, **kwargs):
            facts = honest(game, seat, seq, **kwargs)
            state = store.load(game, base.get(game.title), head=seq).state
            return {**facts, "board_lines": [*facts["board_lines"], str(extra(state))]}

        monkeypatch.setattr(render, "game_facts", leaky)

    return plant


def unredacted_actions(monkeypatch) -> None:
    honest = visibility.payload_for

    def leaky(event, seat, *, reveal_all, **kwargs):
        return honest(event, seat, reveal_all=reveal_all or event.kind == "action", **kwargs)

    monkeypatch.setattr(visibility, "payload_for", leaky)


def unredacted_events(monkeypatch) -> None:
    honest = visibility.payload_for
    monkeypatch.setattr(
        visibility,
        "payload_for",
        lambda event, seat, *, reveal_all, **kwargs: honest(event, seat, reveal_all=True),
    )


def verify_revealed_at_once(monkeypatch) -> None:
    honest = verify_record.verification_of
    monkeypatch.setattr(
        verify_record, "verification", lambda game, viewer, seen=None: honest(game, reveal=True)
    )


def _pc_building_sides(state: State, seat: Viewer) -> dict[str, Any]:
    from games.engines.pointcity.view import building_face

    return {"backs": [slot and building_face(slot["card"]) for slot in state["market"]]}


# name: (title, players, seed, plant, what the checker must say)
LEAKS = {
    "another seat's face-down Havana choice in the view": (
        "havana", 3, 36,
        leak_in_view("havana", lambda state, seat: {"choices": state["pending"]}),
        "sees depends on hidden values: .view.choices",
    ),
    "the next cube of the Havana bag in the view": (
        "havana", 2, 86,
        leak_in_view("havana", lambda state, seat: {"next": state["bag"][-3:]}),
        "sees depends on hidden values: .view.next",
    ),
    "the other seats' stashed cheques in the Estates view": (
        "estates", 3, 1,
        leak_in_view("estates", lambda state, seat: {"stashes": state["stash"]}),
        "sees depends on hidden values: .view.stashes",
    ),
    "the next Estates roof, as a count of the high ones": (
        "estates", 2, 94,
        leak_in_view("estates", lambda state, seat: {"high": [r > 3 for r in state["roofs"]]}),
        "sees depends on hidden values: .view.high",
    ),
    "the building side of Point City market cards": (
        "pointcity", 2, 29,
        leak_in_view("pointcity", _pc_building_sides),
        "sees depends on hidden values: .view.backs",
    ),
    "the other Duel hands in the view": (
        "duel", 3, 1,
        leak_in_view("duel", lambda state, seat: {"hands": state["hands"]}),
        "sees depends on hidden values: .view.hands",
    ),
    "the top of the Duel deck, added by the API outside the engine view": (
        "duel", 2, 2,
        leak_in_detail(lambda game, state: {"hint": state["deck"][:1]}),
        "receives over HTTP depends on hidden values: detail.hint",
    ),
    "the top of the Duel deck, drawn on the web page only": (
        "duel", 2, 2,
        leak_in_page(lambda state: state["deck"][:1]),
        "receives over HTTP depends on hidden values: page",
    ),
    "the top of the Duel deck, told in the turn mail only": (
        "duel", 2, 2,
        leak_in_mail(lambda state: state["deck"][:1]),
        "receives over HTTP depends on hidden values: mail",
    ),
    "the salt under an innocent name": (
        "duel", 2, 2,
        leak_in_detail(lambda game, state: {"etag": game.salt}),
        "receives the salt in detail",
    ),
    "another seat's standing orders in the game detail": (
        "duel", 2, 2,
        leak_in_detail(lambda game, state: {"orders": order_records.audit(game)}),
        "receives another detail once orders were written",
    ),
    "an unredacted event log": (
        "duel", 2, 2, unredacted_events, "receives ['setup'] in events",
    ),
    "a face-down Duel commitment in the event log": (
        "duel", 2, 2, unredacted_actions, "as payload.action.card",
    ),
    "the setup and salt in the verify record while the game runs": (
        "duel", 2, 2, verify_revealed_at_once, "receives ['salt', 'setup'] in verify",
    ),
}  # fmt: skip


@pytest.mark.parametrize("leak", sorted(LEAKS))
def test_the_checker_reports_a_planted_leak(as_, monkeypatch, leak):
    title, players, seed, plant, report = LEAKS[leak]
    plant(monkeypatch)
    walk = RedactionWalk(as_, monkeypatch, title, players, seed)
    problems = walk.play(max_steps=12, until_a_problem=True)
    assert any(report in problem for problem in problems), problems


@pytest.mark.slow
@pytest.mark.parametrize(
    ("title", "players", "seed"), sorted({leak[:3] for leak in LEAKS.values()})
)
def test_the_same_short_walks_without_a_planted_leak_report_nothing(
    as_, monkeypatch, title, players, seed
):
    assert RedactionWalk(as_, monkeypatch, title, players, seed).play(max_steps=8) == []


@pytest.mark.parametrize("lagging", [True, False])
def test_the_checker_reports_a_delayed_stranger_who_sees_the_current_game(
    as_, monkeypatch, lagging
):
    if not lagging:
        # the row keeps the head where the spectators' point should be
        monkeypatch.setattr(
            spectators,
            "columns_after",
            lambda game, event, seq: {
                "spectator_seq": event.seq,
                "spectator_at": event.created_at,
            },
        )
    walk = RedactionWalk(as_, monkeypatch, "duel", 2, 2, spectator_delay=2)
    problems = walk.play(max_steps=6, until_a_problem=True)
    assert (problems == []) == lagging, problems
    if not lagging:
        assert "the stranger sees seq 2" in problems[0]
