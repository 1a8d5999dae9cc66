"""Stored games to export: golden games played through the service."""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path

from django.db import connection, transaction

from accounts.models import User
from games.audit import exchange, golden
from games.engines.base import canonical_json
from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.importing import do_import_game
from games.services.moves import do_submit_action
from games.services.seats import do_resign
from games.stream import chain, store
from tests.support.play import random_move

NAMES = ["alice", "bob", "carol", "dave", "erin"]
GOLDEN = Path(__file__).resolve().parent.parent / "golden"
# One whole game of each title, with a resignation among them (Havana's
# 4p-seed2, Point City's 3p-seed2, The Estates' 3p rounds-3 seed2).
ROUND_TRIPS = [
    "18cuba/2p-difficulty-challenging-seed1.json",
    "havana/3p-seed1.json",
    "havana/4p-seed2.json",
    "pointcity/3p-seed2.json",
    "pointcity/1p-solo_level-1-seed1.json",
    "estates/3p-edition-the-estates-rounds-3-seed2.json",
]


def recording(name: str) -> golden.Recording:
    return golden.Recording.from_json(json.loads((GOLDEN / name).read_text()))


def play(name: str, users: list, *, steps: int | None = None) -> Game:
    """The golden game `name` played through the service by `users` (its
    first `steps` steps, or all of it)."""
    played = recording(name)
    game = do_create_game(
        title=played.title, players=users[: played.players], options=played.options,
        seed=played.seed, creator=users[0],
    )  # fmt: skip
    created = Event.objects.get(game=game, seq=1)
    assert canonical_json(created.payload["setup"]) == canonical_json(played.setup)
    for kind, seat, action in played.steps[:steps]:
        game.refresh_from_db()
        if kind == "resign":
            do_resign(game, seat, actor=users[seat], source=Event.Source.API)
            continue
        by_timer = kind == "timeout"
        do_submit_action(
            game, seat, actor=None if by_timer else users[seat], action=action, text=None,
            expected_seq=game.seq, source=Event.Source.TIMER if by_timer else Event.Source.API,
            kind=kind,
        )  # fmt: skip
    game.refresh_from_db()
    return game


def forgotten(make):
    """What `make()` returns, with every row it wrote rolled back: the
    database is as empty of it as before (an import "elsewhere").

    The id sequences stay past the ids it used, as on a server moved whole
    whose operator advanced them first (docs/api.md, "Moving a game"):
    PostgreSQL's sequences do not roll back anyway; SQLite's AUTOINCREMENT
    marks do, and are put back.
    An import keeps a document's ids only below them."""
    with transaction.atomic():
        made = make()
        marks = sqlite_sequences()
        transaction.set_rollback(True)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM sqlite_sequence")
            cursor.executemany("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", marks)
    return made


def sqlite_sequences() -> list[tuple[str, int]]:
    if connection.vendor != "sqlite":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, seq FROM sqlite_sequence")
        return cursor.fetchall()


def exported_elsewhere(name: str, *, steps: int | None = None, act=None) -> dict:
    """A complete export of the golden game `name` (then `act(game, players,
    moderator)`, if given), from a database that is then rolled back: the
    import that follows starts with no game and no players."""
    from tests.conftest import make_user

    def make():
        players = [make_user(n) for n in NAMES]
        game = play(name, players, steps=steps)
        if act is not None:
            act(game, players, make_user("mo", is_moderator=True))
            game.refresh_from_db()
        return exchange.export(game, exchange.full_viewer(game))

    document = forgotten(make)
    store.forget_all()
    return document


def import_it(document: dict, **options) -> Game:
    """The command's import: placeholders for every account unless mapped."""
    options.setdefault("mapping", {})
    options.setdefault("placeholders", True)
    return do_import_game(document, actor=None, source=Event.Source.SYSTEM, **options)


def duel_exported_elsewhere(act) -> dict:
    """A complete export of a duel that `act(game, players, moderator)` plays,
    from a database then rolled back."""

    from tests.conftest import make_user

    def make():
        players = [make_user(name) for name in NAMES[:2]]
        moderator = make_user("mo", is_moderator=True)
        game = do_create_game(
            title="duel", players=players, options={"rounds": 3}, seed=13,
            clock={"per_move": "2d", "on_timeout": "auto"},
        )  # fmt: skip
        act(game, players, moderator)
        game.refresh_from_db()
        return exchange.export(game, exchange.full_viewer(game))

    document = forgotten(make)
    store.forget_all()
    return document


def moves(game, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        game.refresh_from_db()
        random_move(game, rng)


# A key this server lacks: what another server, or a forger, seals with.
FOREIGN_KEY = "0123456789abcdef"


def resealed(
    document: dict, *, ours: bool = False, game_id: int | None = None,
    account_ids: dict[int, int] | None = None,
) -> dict:  # fmt: skip
    """The document with every hash recomputed over what it now holds, sealed
    with a key this server lacks (what a forger, or another server, makes),
    or with this server's own (`ours`: as if this server had written it).
    `game_id` and `account_ids` (old id: new id) renumber the game and the
    accounts, everywhere the hashes cover them."""
    game = {**document["game"], "id": game_id or document["game"]["id"]}
    renumber = account_ids or {}

    def relinked(pk):
        return renumber.get(pk, pk)

    accounts = {relinked(a["id"]): a["username"] for a in document["accounts"]}
    prev = chain.GENESIS_HASH
    shown = []
    for item in document["events"]:
        opening = item["opening"]
        payload = dict(opening["payload"])
        if item["kind"] == "created":
            payload["seats"] = [relinked(pk) for pk in payload["seats"]]
        if item["kind"] == "seat_replaced":
            payload.update({k: relinked(payload[k]) for k in ("user", "previous") if k in payload})
        event = Event(
            game_id=game["id"], seq=item["seq"], kind=item["kind"], seat=item["seat"],
            actor_id=relinked(opening["actor"]), source=item["source"], payload=payload,
            created_at=datetime.datetime.fromisoformat(item["created_at"]), prev_hash=prev,
            nonce=opening.get("nonce", ""),
        )  # fmt: skip
        event.hash = chain.compute_hash(event, game["chain_version"])
        event.key_id, event.mac = chain.seal(event.hash) if ours else (FOREIGN_KEY, "f" * 64)
        shown.append(
            exchange.shown_complete(event, game["chain_version"], accounts.get(event.actor_id))
        )
        prev = event.hash
    heads = {"head_hash": shown[-1]["hash"]}
    return {
        **document,
        "game": {**game, **heads},
        "commitment": {**document["commitment"], **heads, "created_event_hash": shown[0]["hash"]},
        "accounts": [{"id": pk, "username": name} for pk, name in accounts.items()],
        "events": shown,
    }


def last_ids() -> dict[str, int]:
    """The highest id of the game and account tables."""
    return {
        "game": Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
        "user": User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
    }
