"""Request validation.

Bad input of every kind, at every endpoint, anonymous or not, is a 4xx in
the API's error shape and changes nothing in the database.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from urllib.parse import urlencode

import pytest
import yaml
from django.db import transaction
from django.test import override_settings
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from accounts import tokens
from accounts.models import ApiToken, Block, Suspension, User
from games.audit import exchange
from games.models import (
    Event,
    Game,
    Invitation,
    InviteLink,
    ModerationItem,
    Mute,
    Seat,
    SeatOffer,
    Snapshot,
    Table,
    TableSeat,
    Vacation,
)
from games.services.abort import check_abort
from games.services.clocks import check_lock
from games.services.creation import do_create_game
from games.services.invitations import check_invite
from games.services.moves import check_submit_action
from games.services.queue import check_report
from games.services.seat_offers import check_offer_seat
from games.services.suspension import check_suspend
from games.services.tables import check_create_table, check_join_table
from games.services.talk import check_send_message
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.conftest import make_user
from tests.support.consent import consenting
from tests.support.play import hand
from tests.support.rows import rows_of
from tournaments.models import Entry, Round, Seating, Tournament
from tournaments.services import check_create_tournament, check_sign_up, check_start_tournament

# --- bad input at every endpoint ---------------------------------------------

# Every writing endpoint: its method and path, who may use it, and a body it
# accepts from them in `world`.  A bad body is one of these with one thing
# spoiled, so that its refusal is for that thing alone.
WRITES = {
    "register": ("post", "/api/auth/register/", None,
                 lambda w: {"username": "dora", "email": "dora@example.org",
                            "password": "a long passphrase 9"}),
    "token": ("post", "/api/auth/token/", None,
              lambda w: {"username": "alice", "password": "correct horse 42"}),
    "me": ("patch", "/api/auth/me/", "alice",
           lambda w: {"email": "alice@example.net", "notify_mode": "off",
                      "current_password": "correct horse 42"}),
    "password": ("post", "/api/auth/password/", "alice",
                 lambda w: {"current_password": "correct horse 42",
                            "new_password": "a fresh long phrase 8"}),
    "create": ("post", "/api/games/", "alice",
               lambda w: {"title": "duel", "players": ["alice", "bob"], "options": {"rounds": 2}}),
    "move": ("post", "/api/games/{game}/actions/", "bob",
             lambda w: {"seq": 2, "action": {"type": "commit", "card": w.bobs_card}}),
    "undo": ("post", "/api/games/{game}/undo/", "mo",
             lambda w: {"to_seq": 1, "reason": "a slip of the hand"}),
    "hand_to_bot": ("post", "/api/games/{game}/hand-to-bot/", "mo",
                    lambda w: {"seat": 1, "kind": "random", "reason": "bob vanished"}),
    "takeback": ("post", "/api/games/{game}/takeback/", "alice", lambda w: {"seq": 2}),
    "clock": ("post", "/api/games/{game}/clock/", "mo",
              lambda w: {"action": "pause", "reason": "a dispute"}),
    "vacation": ("post", "/api/vacation/", "alice", lambda w: {"days": 3}),
    "replace-seat": ("post", "/api/games/{game}/replace-seat/", "mo",
                     lambda w: {"seat": 1, "username": "carol", "reason": "bob left"}),
    "force-resign": ("post", "/api/games/{game}/force-resign/", "mo",
                     lambda w: {"seat": 1, "reason": "bob left"}),
    "abort": ("post", "/api/games/{game}/abort/", "mo", lambda w: {"reason": "a broken game"}),
    "note": ("post", "/api/games/{game}/note/", "mo", lambda w: {"text": "read the rules"}),
    "lock": ("post", "/api/games/{game}/lock/", "mo", lambda w: {"reason": "a dispute"}),
    "unlock": ("post", "/api/games/{locked}/unlock/", "mo", lambda w: {"reason": "settled"}),
    "report": ("post", "/api/games/{game}/report/", "alice", lambda w: {"reason": "rude"}),
    "order": ("post", "/api/games/{game}/orders/", "bob",
              lambda w: {"order": {"kind": "play", "after": {"type": "never"},
                                   "action": {"type": "commit", "card": w.bobs_card}}}),
    "message": ("post", "/api/games/{game}/messages/", "alice",
                lambda w: {"to": "table", "text": "well played"}),
    "report-message": ("post", "/api/games/{game}/messages/{said}/report/", "bob",
                       lambda w: {"reason": "rude"}),
    "hide-message": ("post", "/api/games/{game}/messages/{said}/hide/", "mo",
                     lambda w: {"reason": "rude"}),
    "mute": ("post", "/api/games/{game}/mutes/", "bob", lambda w: {"seat": 0}),
    "suspend": ("post", "/api/users/bob/suspend/", "mo", lambda w: {"reason": "abuse"}),
    "unsuspend": ("post", "/api/users/sid/unsuspend/", "mo", lambda w: {"reason": "served"}),
    "take": ("post", "/api/moderation/queue/{item}/take/", "mo", lambda w: {"note": "mine"}),
    "close": ("post", "/api/moderation/queue/{item}/close/", "mo", lambda w: {"note": "done"}),
    "table": ("post", "/api/tables/", "alice",
              lambda w: {"title": "duel", "seats": {"min": 2, "max": 3}, "seat_order": "joined"}),
    "join": ("post", "/api/tables/{table}/join/", "mo", lambda w: {}),
    "leave": ("post", "/api/tables/{table}/leave/", "bob", lambda w: {}),
    "start": ("post", "/api/tables/{table}/start/", "alice", lambda w: {}),
    "remove": ("post", "/api/tables/{table}/remove/", "alice", lambda w: {"username": "bob"}),
    "invite": ("post", "/api/tables/{table}/invite/", "alice",
               lambda w: {"usernames": ["carol"], "emails": ["dora@example.net"]}),
    "links": ("post", "/api/tables/{table}/links/", "alice",
              lambda w: {"single_use": True, "expires_in": 3600}),
    "revoke": ("post", "/api/tables/{table}/links/revoke/", "alice", lambda w: {}),
    "accept": ("post", "/api/invitations/{invitation}/accept/", "mo", lambda w: {}),
    "rematch": ("post", "/api/games/{ended}/rematch/", "alice", lambda w: {"order": "keep"}),
    "block": ("post", "/api/blocks/", "bob", lambda w: {"username": "carol"}),
    "offer-seat": ("post", "/api/games/{game}/offer-seat/", "mo",
                   lambda w: {"seat": 1, "reason": "bob left"}),
    "take-seat": ("post", "/api/seats/{offer}/take/", "carol", lambda w: {}),
    "withdraw-offer": ("post", "/api/seats/{withdrawable}/withdraw/", "mo", lambda w: {}),
    "decline": ("post", "/api/invitations/{declinable}/decline/", "bob", lambda w: {}),
    "import": ("post", "/api/games/import/", "mo",
               lambda w: {"document": exchange.export(w.game, exchange.full_viewer(w.game)),
                          "map": {"alice": "alice", "bob": "bob"}}),
    "tournament": ("post", "/api/tournaments/", "mo",
                   lambda w: {"name": "Winter cup", "title": "duel", "table_size": 2,
                              "rounds": 2, "format": "round_robin"}),
    "tournament-signup": ("post", "/api/tournaments/{tournament}/signup/", "carol", lambda w: {}),
    "tournament-withdraw": ("post", "/api/tournaments/{tournament}/withdraw/", "bob",
                            lambda w: {}),
    "tournament-start": ("post", "/api/tournaments/{tournament}/start/", "mo", lambda w: {}),
    "tournament-advance": ("post", "/api/tournaments/{running}/advance/", "mo", lambda w: {}),
}  # fmt: skip
# The import takes bodies up to CORREO_IMPORT_MAX_BYTES, not DATA_UPLOAD_MAX_MEMORY_SIZE:
# a megabyte is read, and refused for what it holds.
LARGER_BODIES = {"import"}

# Every reading endpoint, and who may read it.
READS = {
    "ping": ("/api/ping/", None),
    "titles": ("/api/titles/", None),
    "games": ("/api/games/", "alice"),
    "detail": ("/api/games/{game}/", "alice"),
    "actions": ("/api/games/{game}/actions/", "bob"),
    "events": ("/api/games/{game}/events/", "alice"),
    "messages": ("/api/games/{game}/messages/", "alice"),
    "orders": ("/api/games/{game}/orders/", "bob"),
    "checkpoints": ("/api/checkpoints/", "alice"),
    "mutes": ("/api/games/{game}/mutes/", "alice"),
    "audit": ("/api/games/{game}/audit/", "mo"),
    "takeback": ("/api/games/{game}/takeback/", "alice"),
    "verify": ("/api/games/{game}/verify/", None),
    "export": ("/api/games/{game}/export/", "alice"),
    "vacation": ("/api/vacation/", "alice"),
    "me": ("/api/auth/me/", "alice"),
    "tokens": ("/api/auth/tokens/", "alice"),
    "schema": ("/api/schema/", None),
    "queue": ("/api/moderation/queue/", "mo"),
    "tables": ("/api/tables/", "alice"),
    "table": ("/api/tables/{table}/", "alice"),
    "invitations": ("/api/invitations/", "bob"),
    "blocks": ("/api/blocks/", "alice"),
    "user": ("/api/users/bob/", None),
    "seats": ("/api/seats/", None),
    "leaderboard": ("/api/titles/duel/ratings/", None),
    "user ratings": ("/api/users/bob/ratings/", None),
    "tournaments": ("/api/tournaments/", None),
    "tournament": ("/api/tournaments/{tournament}/", None),
}
# Every deleting endpoint (they read no body), and who may use it.
DELETES = {
    "log out": ("/api/auth/token/", "alice"),
    "revoke": ("/api/auth/tokens/{token}/", "alice"),
    "unmute": ("/api/games/{game}/mutes/1/", "alice"),
    "unblock": ("/api/blocks/sid/", "alice"),
    "cancel orders": ("/api/games/{game}/orders/", "bob"),
}
# Not here: POST /api/inbound/email/ takes a raw mail, not JSON; its bad input
# is for the tests of the mail doors.
ELSEWHERE = {("post", "/api/inbound/email/")}

MARK = "\ue000"  # a private-use character stands for the spoiled spot


@dataclass
class World:
    """alice and bob play a clocked duel; alice has committed (seq 2), bob
    has not; mo moderates.  Clients are made (and tokens stored) up front."""

    game: Game
    bobs_card: int
    clients: dict
    locked: Game  # a game a moderator locked
    item: int  # an open item of the moderators' queue
    token: int  # one of alice's API tokens, not the one her client uses
    bobs_token: int
    table: int  # a waiting table alice hosts and bob sits at
    invitation: int  # mo's invitation to another of alice's tables
    declinable: int  # bob's invitation to that table
    said: int  # the seq of alice's message to the table
    ended: int  # a game of alice and bob's that a moderator aborted
    offer: int  # a seat of a running game offered to whoever takes it
    withdrawable: int  # another such offer
    tournament: int  # a duel tournament mo organises, taking sign-ups: alice and bob are in
    running: int  # another, started, its one game aborted: the round waits for `advance`

    def at(self, path: str) -> str:
        return path.format(
            game=self.game.pk, locked=self.locked.pk, item=self.item, token=self.token,
            table=self.table, invitation=self.invitation, declinable=self.declinable,
            said=self.said, ended=self.ended, offer=self.offer, withdrawable=self.withdrawable,
            tournament=self.tournament, running=self.running,
        )  # fmt: skip


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The world, built once per module and worker rather than once for each
    of the module's three hundred tests (it costs a fifth of a second of
    inserts each time).  It is written in a transaction that stays open for
    the module and is rolled back at its end; each test runs in a savepoint
    inside it (pytest-django's `db`), so what one test writes is gone before
    the next, as with a world of its own."""
    from config.celery import app

    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        with django_db_blocker.unblock(), fast, transaction.atomic():
            yield _build()
            transaction.set_rollback(True)
    finally:
        app.conf.task_always_eager = eager


def _build() -> World:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    mo = make_user("mo", is_moderator=True)
    game = do_create_game(
        title="duel", players=[alice, bob], seed=7, creator=alice, clock={"per_move": "72h"}
    )
    check_submit_action(
        game, alice, action={"type": "commit", "card": hand(game, 0)[0]}, expected_seq=1
    )
    said = check_send_message(game, alice, to="table", text="good luck", source="api").seq
    locked = do_create_game(title="duel", players=[alice, bob], seed=8)
    check_lock(locked, mo, reason="a dispute")
    item = check_report(locked, bob, reason="alice cheats")
    sid = make_user("sid")
    check_suspend(sid, mo, reason="abuse")
    Block.objects.create(blocker=alice, blocked=sid)
    table = check_create_table(alice, title="duel", seats={"min": 2, "max": 4})
    check_join_table(table.pk, bob)
    other = check_create_table(alice, title="duel", seats=4)
    asked = check_invite(other.pk, alice, usernames=["mo", "bob"])
    invited = {invitation.user.username: invitation.pk for invitation in asked}
    consenting(alice, bob)  # what the older POST /api/games/ asks
    ended = do_create_game(title="duel", players=[alice, bob], seed=9)
    check_abort(ended, mo, reason="over")
    offered = do_create_game(title="duel", players=[bob, mo], seed=10)
    offer = check_offer_seat(offered, mo, seat=0, reason="bob left")
    withdrawable = check_offer_seat(offered, mo, seat=1, reason="mo left")
    cup = check_create_tournament(mo, name="Cup", title="duel", table_size=2, rounds=2)
    running = check_create_tournament(mo, name="Open", title="duel", table_size=2, rounds=2)
    for player in (alice, bob):
        check_sign_up(cup.pk, player)
        check_sign_up(running.pk, player)
    check_start_tournament(running.pk, mo)
    check_abort(Seating.objects.get(round__tournament=running, seat=0).game, mo, reason="over")
    people = [("alice", alice), ("bob", bob), ("carol", carol), ("mo", mo)]
    clients = {name: client_for(user) for name, user in people}
    for client in clients.values():
        # A token's first use records it (accounts.tokens.touch): done here,
        # before any test takes its picture of the database.
        assert client.get("/api/auth/me/").status_code == 200
    clients[None] = client_for(None)
    return World(game=game, bobs_card=hand(game, 1)[0], clients=clients,
                 locked=locked, item=item.pk, token=tokens.issue(alice, "spare")[0].pk,
                 bobs_token=tokens.issue(bob, "bob's")[0].pk, table=table.pk,
                 invitation=invited["mo"], declinable=invited["bob"], said=said,
                 ended=ended.pk, offer=offer.pk, withdrawable=withdrawable.pk,
                 tournament=cup.pk, running=running.pk)  # fmt: skip


@pytest.fixture
def world(built, db):
    """The module's world as its rows stand: the games read afresh, and
    clients without the cookies an earlier test's answers left them."""
    for client in built.clients.values():
        client.cookies.clear()
    return replace(built, game=Game.objects.get(pk=built.game.pk),
                   locked=Game.objects.get(pk=built.locked.pk))  # fmt: skip


def everything() -> dict:
    """Every row a request could write, to compare before and after."""
    return rows_of(User, ApiToken, Game, Seat, Event, Snapshot, Vacation, Notification,
                   ModerationItem, Suspension, Table, TableSeat, Invitation, InviteLink, Mute,
                   Block, SeatOffer, Tournament, Entry, Round, Seating)  # fmt: skip


def _first(value, kind) -> list | None:
    """The path to the first value of `kind` in a body, depth first."""
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        if isinstance(item, kind) and not isinstance(item, bool):
            return [key]
        if isinstance(item, dict | list) and (inner := _first(item, kind)) is not None:
            return [key, *inner]
    return None


def marked(good: dict, kind=str, *, replace: bool = False) -> dict:
    """The body with MARK after (or instead of) its first value of `kind`; a
    body without one gets a key of its own: a bad value is bad anywhere."""
    body = json.loads(json.dumps(good))
    path = _first(body, kind)
    if path is None:
        return {**body, "note": MARK}
    *outer, last = path
    holder = body
    for key in outer:
        holder = holder[key]
    holder[last] = MARK if replace else holder[last] + MARK
    return body


def spoiled(body: dict, marker: str, replacement: str) -> bytes:
    """The body as UTF-8 JSON with its marker (quotes and all) replaced."""
    return json.dumps(body, ensure_ascii=False).replace(marker, replacement).encode()


def in_string(tail: str):
    """`tail`, JSON text, right after the first string of the body."""
    return lambda good: spoiled(marked(good), MARK, tail)


def as_number(number: str):
    """The first number of the body written as `number`."""
    return lambda good: spoiled(marked(good, int, replace=True), f'"{MARK}"', number)


def as_value(value: str):
    """The first string of the body replaced by the JSON `value`."""
    return lambda good: spoiled(marked(good, replace=True), f'"{MARK}"', value)


def with_key(key: str):
    """An extra key, JSON text (the body does not read it)."""
    return lambda good: spoiled({**good, MARK: 1}, MARK, key)


def raw_in_string(raw: bytes):
    """Bytes right after the first string of the UTF-8 body."""
    return lambda good: spoiled(marked(good), MARK, MARK).replace(MARK.encode(), raw)


def repeated_key(good: dict) -> bytes:
    key, value = next(iter(good.items()), ("note", 1))  # an empty body: a key it never reads
    return ("{" + json.dumps({key: value})[1:-1] + ", " + json.dumps(good)[1:]).encode()


def form_fields_with_nul(good: dict) -> dict:
    """The body's top-level scalars as form fields, its first string ending in NUL."""
    fields = {key: value for key, value in good.items() if isinstance(value, str | int)}
    key = next((key for key, value in fields.items() if isinstance(value, str)), "note")
    return {**fields, key: f"{fields.get(key, '')}\x00"}


def form_with_nul(good: dict) -> bytes:
    return urlencode(form_fields_with_nul(good)).encode()


def multipart_with_nul(good: dict) -> bytes:
    return encode_multipart(BOUNDARY, form_fields_with_nul(good))


JSON = "application/json"
PARSE_ERROR = (400, "parse_error")
REFUSED = None  # any 4xx in the error shape: the fields' own rules refuse it
# Forms are parsed where the view takes them (not /api/auth/me/: JSON only).
FORM_REFUSED = [PARSE_ERROR, (415, "unsupported_media_type")]

BAD_BODIES = {
    "arrays nested 100 000 deep": (lambda good: b"[" * 100_000, JSON, PARSE_ERROR),
    "objects nested 100 000 deep": (lambda good: b'{"a":' * 100_000, JSON, PARSE_ERROR),
    "a value nested 40 deep": (as_value("[" * 40 + "]" * 40), JSON, PARSE_ERROR),
    "NUL in a string": (in_string(r"\u0000"), JSON, PARSE_ERROR),
    "NUL in a key": (with_key(r"x\u0000"), JSON, PARSE_ERROR),
    "lone high surrogate": (in_string(r"\ud800"), JSON, PARSE_ERROR),
    "lone low surrogate": (in_string(r"\udfff"), JSON, PARSE_ERROR),
    "surrogates in the wrong order": (in_string(r"\udc00\ud800"), JSON, PARSE_ERROR),
    "lone surrogate in a key": (with_key(r"\ud83d"), JSON, PARSE_ERROR),
    "invalid UTF-8": (raw_in_string(b"\xff\xfe"), JSON, PARSE_ERROR),
    "overlong UTF-8 NUL": (raw_in_string(b"\xc0\x80"), JSON, PARSE_ERROR),
    "UTF-8 encoded surrogate": (raw_in_string(b"\xed\xa0\x80"), JSON, PARSE_ERROR),
    "a surrogate through UTF-7": (in_string("+2AA-"), JSON + "; charset=utf-7", PARSE_ERROR),
    "a charset that decompresses": (in_string(""), JSON + "; charset=bz2_codec", PARSE_ERROR),
    "JSON is not punycode": (in_string(""), JSON + "; charset=punycode", PARSE_ERROR),
    "1e999999": (as_number("1e999999"), JSON, PARSE_ERROR),
    "-1e999999": (as_number("-1e999999"), JSON, PARSE_ERROR),
    "NaN": (as_number("NaN"), JSON, PARSE_ERROR),
    "Infinity": (as_number("Infinity"), JSON, PARSE_ERROR),
    "2**63": (as_number(str(2**63)), JSON, PARSE_ERROR),
    "an integer of 5000 digits": (as_number("7" * 5000), JSON, PARSE_ERROR),
    "an integer of 10**6 digits": (as_number("7" * 10**6), JSON, (413, "too_large")),
    "a key given twice": (repeated_key, JSON, PARSE_ERROR),
    "truncated": (lambda good: json.dumps(good)[:-1].encode(), JSON, PARSE_ERROR),
    "a form with NUL": (form_with_nul, "application/x-www-form-urlencoded", FORM_REFUSED),
    "multipart with NUL": (multipart_with_nul, MULTIPART_CONTENT, FORM_REFUSED),
    "plain text": (lambda good: b"seq=1", "text/plain", (415, "unsupported_media_type")),
    "a list": (lambda good: b"[]", JSON, REFUSED),
    "null": (lambda good: b"null", JSON, REFUSED),
    "a 900 kB string": (in_string("x" * 900_000), JSON, REFUSED),
}


def assert_refused(response, expected) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    if response["Content-Type"].startswith("application/vnd.oai.openapi"):
        body = yaml.safe_load(response.content)  # the schema answers in its own format
    else:
        body = response.json()
    assert isinstance(body["error"], str) and isinstance(body["detail"], str) and body["detail"]
    if isinstance(expected, tuple):
        assert (response.status_code, body["error"]) == expected, body
    elif expected is not None:
        assert (response.status_code, body["error"]) in expected, body


def call(client, method: str, path: str, body: bytes | None = None, content_type=JSON, **extra):
    if body is None:
        return getattr(client, method)(path, **extra)
    return getattr(client, method)(path, data=body, content_type=content_type, **extra)


@pytest.mark.parametrize("endpoint", WRITES)
def test_the_good_bodies_are_accepted(world, endpoint):
    method, path, who, good = WRITES[endpoint]
    response = call(world.clients[who], method, world.at(path),
                    json.dumps(good(world)).encode())  # fmt: skip
    assert 200 <= response.status_code < 300, response.json()


@pytest.mark.slow
@pytest.mark.parametrize("endpoint", WRITES)
def test_a_bad_body_is_refused_clearly_and_changes_nothing(world, endpoint, subtests):
    method, path, who, good = WRITES[endpoint]
    path = world.at(path)
    before = everything()
    for name, (spoil, content_type, expected) in BAD_BODIES.items():
        if name == "a 900 kB string" and _first(good(world), str) is None:
            continue  # nothing of this body holds a string that could be long
        # A savepoint each: a database error in one subtest (PostgreSQL then
        # refuses every statement until a rollback) must not fail the others.
        if endpoint in LARGER_BODIES and expected == (413, "too_large"):
            expected = PARSE_ERROR
        with subtests.test(body=name), transaction.atomic():
            body = spoil(good(world))
            response = call(world.clients[who], method, path, body, content_type)
            assert_refused(response, expected)
            if who is not None:
                anonymous = call(world.clients[None], method, path, body, content_type)
                assert_refused(anonymous, (401, "not_authenticated"))
            assert everything() == before


BAD_QUERIES = [
    ("events", "after=%00"), ("events", "after=-1"), ("events", "after=1e999"),
    ("events", "after=%ED%A0%80"), ("events", "after=" + "9" * 5000), ("events", "limit=1e999"),
    ("events", "limit=0"), ("events", "limit=99999999999999999999999"),
    ("games", "page=-1"), ("games", "page=0"), ("games", "page=%00"), ("games", "page=1e999"),
    ("games", "page_size=%00"), ("games", "page_size=0"), ("games", "page_size=1e999"),
    ("games", "mine=%00"), ("games", "to_act=%ED%A0%80"), ("games", "status=lost"),
    ("games", "status=%00"), ("games", "player=" + "x" * 200),
    ("invitations", "all=maybe"), ("invitations", "all="), ("games", "mine="),
    ("games", "to_act="),
]  # fmt: skip


@pytest.mark.parametrize(("endpoint", "query"), BAD_QUERIES)
def test_a_bad_query_parameter_is_a_clear_400(world, endpoint, query):
    path, who = READS[endpoint]
    path = f"{world.at(path)}?{query}"
    before = everything()
    assert_refused(world.clients[who].get(path), (400, "invalid"))
    assert_refused(world.clients[None].get(path), (401, "not_authenticated"))
    assert everything() == before


# Parameters no endpoint reads, or reads as something else (DRF's `format`).
JUNK_QUERIES = ["%00=%00&x=%ED%A0%80", "format=%00", "x=" + "%00" * 2000]


@pytest.mark.parametrize("endpoint", READS)
def test_junk_in_the_query_string_breaks_no_endpoint(world, endpoint, subtests):
    path, who = READS[endpoint]
    before = everything()
    for query in JUNK_QUERIES:
        with subtests.test(query=query[:20]), transaction.atomic():
            for identity in dict.fromkeys([who, None]):
                response = world.clients[identity].get(f"{world.at(path)}?{query}")
                assert response.status_code < 500, response.content[:300]
                if response.status_code >= 400:
                    assert_refused(response, REFUSED)
            assert everything() == before


BAD_IDS = [
    "1" + "0" * 30, str(2**63), str(2**63 - 1), "0", "-1", "%00", "%ED%A0%80", "1e3", "%D9%A1",
]  # fmt: skip
# The ids a path may name: a game's, a table's, an invitation's, a tournament's.
IDS = r"\{(game|table|invitation|declinable|ended|offer|withdrawable|tournament|running)\}"
WITH_A_GAME = [
    ("get", path, who, None) for path, who in READS.values() if re.search(IDS, path)
] + [
    (method, path, who, good)
    for method, path, who, good in WRITES.values()
    if re.search(IDS, path)
]


@pytest.mark.parametrize(("method", "path", "who", "good"), WITH_A_GAME)
def test_a_game_id_that_names_no_game_is_a_404(world, method, path, who, good, subtests):
    body = json.dumps(good(world)).encode() if good else None
    before = everything()
    for game_id in BAD_IDS:
        with subtests.test(game_id=game_id), transaction.atomic():
            named = re.sub(IDS, game_id, path).replace("{said}", str(world.said))
            response = call(world.clients[who], method, named, body)
            assert_refused(response, (404, "not_found"))
            assert_refused(call(world.clients[None], method, named, body), REFUSED)
            assert everything() == before


NAMED = [(method, path, who, good) for method, path, who, good in WRITES.values()
         if "{item}" in path or "/users/" in path]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "who", "good"), NAMED)
def test_an_item_or_user_that_does_not_exist_is_a_404(world, method, path, who, good, subtests):
    body = json.dumps(good(world)).encode()
    before = everything()
    for bad in [*BAD_IDS, "nobody", "%C3%A9" * 200]:
        spoiled_path = path.replace("{item}", bad).replace("/bob/", f"/{bad}/")
        spoiled_path = spoiled_path.replace("/sid/", f"/{bad}/")
        with subtests.test(bad=bad[:20]), transaction.atomic():
            assert_refused(call(world.clients[who], method, spoiled_path, body),
                           (404, "not_found"))  # fmt: skip
            assert everything() == before


# Authorization as a server hands it on: WSGI headers are bytes read as latin-1.
BAD_TOKENS = [
    "Token " + "a" * 39 + "\x00", "Token " + "\x00" * 40, "Token \xff\xfe", "Token",
    "Token " + "é".encode().decode("latin-1"), "Token " + "a" * 8000,
]  # fmt: skip
AUTHENTICATING = (
    [("get", path, None) for name, (path, _) in READS.items() if name != "ping"]
    + [(method, path, good) for method, path, who, good in WRITES.values() if who is not None]
    + [("delete", path, None) for path, _ in DELETES.values()]
)


@pytest.mark.parametrize(("method", "path", "good"), AUTHENTICATING)
def test_a_bad_token_is_a_401_and_changes_nothing(world, method, path, good, subtests):
    path = world.at(path)
    body = json.dumps(good(world)).encode() if good else None
    before = everything()
    for header in BAD_TOKENS:
        with subtests.test(header=header[:50]), transaction.atomic():
            response = call(world.clients[None], method, path, body, HTTP_AUTHORIZATION=header)
            assert_refused(response, (401, "authentication_failed"))
            assert everything() == before


@pytest.mark.parametrize("tag", ["\x00" + "\xff" * 1000, "*", '"', "W/", '"' * 5000, "\x00"])
def test_a_garbage_if_none_match_is_ignored(world, tag):
    response = world.clients["alice"].get(f"/api/games/{world.game.pk}/", HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 200 and response["ETag"]


def test_every_endpoint_of_the_schema_meets_bad_input(world):
    schema = world.clients[None].get("/api/schema/?format=json").json()
    documented = {(method, path) for path, item in schema["paths"].items() for method in item}
    covered = {
        (method, re.sub(IDS, "{id}", path.replace("{locked}", "{id}")).replace("{said}", "{seq}"))
        for method, path, _, _ in WRITES.values()
    }  # fmt: skip
    covered = {
        (method, path.replace("/bob/", "/{username}/").replace("/sid/", "/{username}/"))
        for method, path in covered
    }
    covered |= {
        ("get", re.sub(IDS, "{id}", path).replace("/bob/", "/{username}/")
         .replace("/titles/duel/", "/titles/{title}/"))
        for path, _ in READS.values()
    }  # fmt: skip
    covered |= {
        ("delete", re.sub(IDS, "{id}", path.replace("{token}", "{id}"))
         .replace("/mutes/1/", "/mutes/{seat}/").replace("/sid/", "/{username}/"))
        for path, _ in DELETES.values()
    }  # fmt: skip
    assert documented - ELSEWHERE == covered


@pytest.mark.parametrize("endpoint", DELETES)
def test_a_delete_is_refused_to_strangers_and_changes_nothing(world, endpoint):
    path, _ = DELETES[endpoint]
    before = everything()
    assert_refused(world.clients[None].delete(world.at(path)), (401, "not_authenticated"))
    assert everything() == before


def test_a_token_id_that_names_none_of_mine_is_a_404(world, subtests):
    before = everything()
    for bad in [*BAD_IDS, str(world.bobs_token), "nobody"]:
        with subtests.test(bad=bad[:20]), transaction.atomic():
            response = world.clients["alice"].delete(f"/api/auth/tokens/{bad}/")
            assert_refused(response, (404, "not_found"))
            assert everything() == before


def test_the_deletes_do_what_they_say(world):
    for endpoint in ["unblock", "revoke", "log out"]:  # logged out, alice can revoke no more
        path, who = DELETES[endpoint]
        assert world.clients[who].delete(world.at(path)).status_code == 204, endpoint
    assert not ApiToken.objects.filter(pk=world.token).exists()
    assert not Block.objects.exists()
    assert world.clients["alice"].get("/api/auth/me/").status_code == 401  # logged out


# The HTTP doors outside the API answer people or scrapers, not in JSON.
OTHER_DOORS = [
    ("get", "/email/unsubscribe/{junk}/"), ("post", "/email/unsubscribe/{junk}/"),
    ("get", "/healthz?{junk}"), ("get", "/metrics?{junk}"), ("get", "/api/docs/?{junk}"),
    ("get", "/api/redoc/?{junk}"), ("get", "/?{junk}"), ("get", "/games/1/?at={junk}"),
    ("get", "/games/{junk}/"), ("post", "/accounts/login/?{junk}"),
    ("get", "/accounts/reset/{junk}/{junk}/"),
]  # fmt: skip
JUNK = ["%00", "%ED%A0%80", "a:b%00", "1" * 5000, "%FF%FE"]


@pytest.mark.parametrize(("method", "path"), OTHER_DOORS)
def test_junk_at_the_other_doors_is_no_5xx_and_changes_nothing(world, method, path, subtests):
    before = everything()
    for junk in JUNK:
        with subtests.test(junk=junk[:20]), transaction.atomic():
            response = getattr(world.clients[None], method)(path.format(junk=junk))
            assert response.status_code < 500, response.content[:300]
            assert everything() == before


def test_the_admin_login_refuses_nul_and_surrogates(world):
    before = everything()
    for username in ["mo%00", "mo%ED%A0%80", "%00" * 200]:
        response = world.clients[None].post(
            "/admin/login/",
            f"username={username}&password=correct+horse+42",
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    assert everything() == before
