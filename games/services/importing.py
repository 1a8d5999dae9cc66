"""Importing a game from a complete export (docs/export-format.md).

games.exchange checks the document whole before anything is written; this
writes it in one transaction: the accounts (a given mapping, or inactive
placeholders), the game, its seats and its events, then checks the stored
game as `verify_games` does.  Any failure rolls everything back: no partial
game, no stray account.

Events are inserted as rows, not replayed through the move service: they
keep their seq, kind, actor, source, payload, time and nonce.  Their hashes
are recomputed under this server's ids (a hash covers the game's id and,
inside the commitment, the actor's) and sealed with this server's key: the
exporting server's seals cannot verify here, so the document's own chain is
checked first (games.exchange) and the import is recorded in a final `note`
event, sealed here, that names the origin's game and head hash.  Where the
ids are free here the game and its placeholder accounts keep them, so the
hashes come out as the origin's (a server moved whole keeps its links and
its chains).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import bots
from accounts.models import User
from games import chain, deadlines, exchange, spectators, verification
from games.errors import ImportRefused, InvalidRequest
from games.models import Event, Game, Seat
from games.services.common import require_moderator, sync_seat_statuses

IMPORTED = "imported"


def check_import_game(user, document: Any, *, mapping: dict[str, str], placeholders: bool) -> Game:
    """A moderator's import of a complete export."""
    require_moderator(user, gettext_noop("only moderators may import games"))
    return do_import_game(
        document, mapping=mapping, placeholders=placeholders, actor=user,
        source=Event.Source.MODERATOR,
    )  # fmt: skip


def do_import_game(
    document: Any, *, mapping: dict[str, str], placeholders: bool, actor, source: str
) -> Game:
    """Check `document` whole, then write the game, or nothing at all."""
    _check_mapping(mapping)
    checked = exchange.check(document)
    try:
        with transaction.atomic():
            users = _accounts(checked.accounts, mapping, placeholders)
            game = _write(checked, users, actor, source)
            problems = list(verification.game_problems(game))
            if problems:
                raise ImportRefused(
                    gettext_noop("the imported game does not verify: %(problem)s"),
                    problem=problems[0],
                )
    except (KeyError, IndexError, TypeError, ValueError, DataError, IntegrityError):
        # A document whose hashes hold (anyone can compute sha256) may still
        # carry values no check above foresaw: refused, never a crash.
        raise ImportRefused(
            gettext_noop("the export holds values this server cannot store")
        ) from None
    return game


def _check_mapping(mapping: dict[str, str]) -> None:
    if len(set(mapping.values())) != len(mapping):
        raise InvalidRequest(gettext_noop("map gives one account here for two in the export"))


# --- accounts ---------------------------------------------------------------------


def _accounts(named: dict[int, str], mapping: dict[str, str], placeholders: bool) -> dict:
    """The account here of each account the export names (by its id there)."""

    stray = sorted(set(mapping) - set(named.values()))
    if stray:
        raise ImportRefused(
            gettext_noop("map names accounts the export does not: %(names)s"),
            names=", ".join(stray),
        )
    targets = {u.username: u for u in User.objects.filter(username__in=mapping.values())}
    missing = sorted(set(mapping.values()) - set(targets))
    if missing:
        raise ImportRefused(
            gettext_noop("no account here to map to: %(names)s"), names=", ".join(missing)
        )
    found = {pk: targets[mapping[name]] for pk, name in named.items() if name in mapping}
    # A bot is played by this server's account of its kind and seat, never
    # by a placeholder (which would be a person nobody plays).
    robots = {pk: bots.seat_of_account(name) for pk, name in named.items() if name not in mapping}
    free = _free_ids(User, [pk for pk, seated in robots.items() if seated])
    for pk, seated in robots.items():
        if seated is not None:
            found[pk] = bots.account(*seated, pk=pk if pk in free else None)
    _after_explicit_ids(User, free & {user.pk for user in found.values()})
    unmapped = {pk: name for pk, name in named.items() if pk not in found}
    if unmapped and not placeholders:
        raise ImportRefused(
            gettext_noop(
                "no account given for %(names)s: map each (old=new) or create placeholders"
            ),
            names=", ".join(sorted(unmapped.values())),
        )
    found.update(_placeholders(unmapped))
    return found


def _placeholders(unmapped: dict[int, str]) -> dict:
    """An inactive account per name, keeping the export's id where it is free."""

    taken = sorted(User.objects.filter(username__in=unmapped.values()).values_list(
        "username", flat=True
    ))  # fmt: skip
    if taken:
        raise ImportRefused(
            gettext_noop("accounts %(names)s exist here: map them (name=name) to use them"),
            names=", ".join(taken),
        )
    free = _free_ids(User, unmapped)
    created = {}
    # Those keeping their ids first: a new id handed out before could be one of theirs.
    for pk, name in sorted(unmapped.items(), key=lambda item: item[0] not in free):
        _check_username(name)
        user = User(
            pk=pk if pk in free else None, username=name, is_active=False,
            notify_mode=User.NotifyMode.OFF,
        )  # fmt: skip
        user.set_unusable_password()
        user.save(force_insert=True)
        created[pk] = user
    _after_explicit_ids(User, free)
    return created


def _check_username(name: str) -> None:
    try:
        if len(name) > 150:
            raise ValidationError("too long")
        UnicodeUsernameValidator()(name)
    except ValidationError:
        raise ImportRefused(
            gettext_noop("%(name)s cannot be an account name here: map it to one"),
            name=name[:40],
        ) from None


def _free_ids(model, wanted) -> set[int]:
    return set(wanted) - set(model.objects.filter(pk__in=wanted).values_list("pk", flat=True))


def _after_explicit_ids(model, ids) -> None:
    """Rows written with ids of their own: PostgreSQL's sequence must not
    hand them out again (SQLite's AUTOINCREMENT follows by itself).  The
    sequence only moves forward, so a concurrent insert keeps its id."""
    if not ids or connection.vendor != "postgresql":
        return
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), "
            "GREATEST(%s, nextval(pg_get_serial_sequence(%s, 'id'))))",
            [table, max(ids), table],
        )


# --- the game ---------------------------------------------------------------------


def _write(checked: exchange.Checked, users: dict, actor, source: str) -> Game:
    origin = checked.game
    keep_id = bool(_free_ids(Game, [origin["id"]]))
    first = checked.events[0]
    game = Game(
        pk=origin["id"] if keep_id else None, title=origin["title"], options=origin["options"],
        engine_version=origin["engine_version"], seed=origin["seed"], salt=checked.salt,
        chain_version=origin["chain_version"], public=origin["public"],
        spectator_delay=origin["spectator_delay"], clock=origin["clock"], paused=checked.paused,
        locked=checked.locked, created_by=users.get(first.actor_id), **checked.derived,
    )  # fmt: skip
    game.save(force_insert=True)
    _after_explicit_ids(Game, [game.pk] if keep_id else [])
    ids = {pk: user.pk for pk, user in users.items()}
    events = _relinked(checked.events, game, ids)
    note = _note(game, events[-1], checked, users, actor, source)
    Event.objects.bulk_create([*events, note])
    now = note.created_at
    spectator_seq, spectator_at = spectators.walked([*events, note], game.spectator_delay)
    Game.objects.filter(pk=game.pk).update(
        seq=note.seq, head_hash=note.hash, created_at=first.created_at, updated_at=now,
        spectator_seq=spectator_seq, spectator_at=spectator_at,
    )  # fmt: skip
    game.refresh_from_db()
    _seat(game, events)
    if game.clock:
        # The clocks start afresh here: the time the game spent in transit
        # is nobody's.  A paused (or locked) game's stay stopped: when they
        # restart, the resume's own event gives each seat to act a full move.
        deadlines.refresh(game, None, now)
    return game


def _relinked(events: list[Event], game: Game, ids: dict[int, int]) -> list[Event]:
    """The events under this game's and accounts' ids, chained and sealed
    here; nonces, payloads and times as they were."""
    prev = chain.GENESIS_HASH
    linked = []
    for origin in events:
        event = Event(
            game=game, seq=origin.seq, kind=origin.kind, seat=origin.seat,
            actor_id=ids.get(origin.actor_id), source=origin.source,
            payload=_payload_here(origin, ids), created_at=origin.created_at,
            prev_hash=prev, nonce=origin.nonce,
        )  # fmt: skip
        event.hash = chain.compute_hash(event, game.chain_version)
        event.key_id, event.mac = chain.seal(event.hash)
        linked.append(event)
        prev = event.hash
    return linked


def _payload_here(event: Event, ids: dict[int, int]) -> dict[str, Any]:
    """The payload with the accounts it names (games.exchange) as they are here."""
    if event.kind == Event.Kind.CREATED:
        return {**event.payload, "seats": [ids[pk] for pk in event.payload["seats"]]}
    if event.kind == Event.Kind.SEAT_REPLACED:
        named = (key for key in exchange.REPLACEMENT_ACCOUNTS if key in event.payload)
        return {**event.payload, **{key: ids[event.payload[key]] for key in named}}
    return event.payload


def _note(game: Game, last: Event, checked: exchange.Checked, users, actor, source) -> Event:
    """The import's own event, sealed here: where the game came from, the
    head hash it had there, which seals could not be checked, whose
    accounts became whose."""
    relinked = last.hash != checked.events[-1].hash
    payload = {
        "note": IMPORTED,
        "reason": "imported from an export",
        "origin": {
            "game": checked.game["id"],
            "head_hash": checked.events[-1].hash,
            "seals_unchecked": checked.unchecked_keys,
            "relinked": relinked,
        },
        "accounts": {checked.accounts[pk]: user.username for pk, user in sorted(users.items())},
    }
    note = Event(
        game=game, seq=last.seq + 1, kind=Event.Kind.NOTE, source=source,
        actor=actor if source == Event.Source.MODERATOR else None, payload=payload,
        created_at=timezone.now(),
    )  # fmt: skip
    chain.link(note, last.hash, game.chain_version)
    return note


def _seat(game: Game, events: list[Event]) -> None:
    """The seats as the stream leaves them: who holds each, who is to act, who left."""
    holders = list(events[0].payload["seats"])
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            holders[event.payload["seat"]] = event.payload["user"]
    Seat.objects.bulk_create(
        Seat(game=game, index=index, user_id=user, to_act=index in game.to_act)
        for index, user in enumerate(holders)
    )
    sync_seat_statuses(game)
    played_by_bots = set(User.objects.filter(pk__in=holders).exclude(bot="").values_list(
        "pk", flat=True
    ))  # fmt: skip
    game.bot_seats = [index for index, user in enumerate(holders) if user in played_by_bots]
    Game.objects.filter(pk=game.pk).update(bot_seats=game.bot_seats)
