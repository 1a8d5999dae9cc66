"""Importing a game from a complete export (docs/export-format.md).

games.audit.exchange checks the document whole before anything is written; this
writes it in one transaction: the accounts (a given mapping, or inactive
placeholders), the game, its seats and its events, then checks the stored
game as `verify_games` does.  Any failure rolls everything back: no partial
game, no stray account.

Events are inserted as rows, not replayed through the move service: they
keep their seq, kind, actor, source, payload, time and nonce.  Their hashes
are recomputed under this server's ids (a hash covers the game's id and,
inside the commitment, the actor's) and sealed with this server's key: the
exporting server's seals cannot verify here, so the document's own chain is
checked first (games.audit.exchange) and the import is recorded in a final `note`
event, sealed here, that names the origin's game and head hash.

A seal that cannot be checked here (another server's key, or none) vouches
for nothing: anyone can compute sha256, so such a document may say anything,
a moderator's note rewritten in another's name included.  It is refused
unless the moderator accepts it in so many words (`accept_unverified_seals`);
then its events are sealed as imported unverified (games.stream.chain), never as
this server's own, and the game is marked `imported_unverified`.

The game and its placeholder accounts keep the document's ids only where
this server's id sequences have already passed them and they are free, so
the hashes come out as the origin's (a server moved whole, with its
sequences advanced first, keeps its links and its chains).  Any other id is
replaced by a new one: an id at or past a sequence would move the sequence
(PostgreSQL: setval; SQLite: AUTOINCREMENT's high mark) up to it, and a
document naming 2**63 - 1 would leave no id for any later game or sign-up.

Placeholders take their names through accounts.rules.check_new_username, as
a sign-up does; a name that fails there gets a derived one, and the note
(and the answer) say whose account became which.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts import bots, rules
from accounts.models import User
from games.audit import exchange, verification
from games.audit.exchange import IMPORTED
from games.clocks import deadlines
from games.errors import ImportRefused, InvalidRequest
from games.models import Event, Game, Press, Seat
from games.services.common import require_moderator
from games.stream import chain, spectators
from games.stream.derived import sync_seat_statuses

# How many derived names to try for one placeholder before giving up.
DERIVED_TRIES = 20


def check_import_game(
    user, document: Any, *, mapping: dict[str, str], placeholders: bool,
    accept_unverified_seals: bool = False,
) -> Game:  # fmt: skip
    """A moderator's import of a complete export."""
    require_moderator(user, gettext_noop("only moderators may import games"))
    return do_import_game(
        document, mapping=mapping, placeholders=placeholders, actor=user,
        source=Event.Source.MODERATOR, accept_unverified_seals=accept_unverified_seals,
    )  # fmt: skip


def do_import_game(
    document: Any, *, mapping: dict[str, str], placeholders: bool, actor, source: str,
    accept_unverified_seals: bool = False,
) -> Game:  # fmt: skip
    """Check `document` whole, then write the game, or nothing at all."""
    _check_mapping(mapping)
    checked = exchange.check(document)
    _check_seals(checked, accept_unverified_seals)
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


def _check_seals(checked: exchange.Checked, accepted: bool) -> None:
    """Events whose seals nothing here can check come in only on the
    moderator's explicit word."""
    if checked.unverified and not accepted:
        raise ImportRefused(
            gettext_noop(
                "the seals of events %(seqs)s cannot be checked here (%(why)s), so nothing "
                "vouches that a server wrote them as they are; import it only if you trust "
                "where the document comes from, accepting unverified seals (the game is then "
                "marked imported unverified)"
            ),
            seqs=chain.runs_text(checked.unverified), why=", ".join(checked.unchecked_keys),
        )  # fmt: skip


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
    kept = _keepable(User, [pk for pk, seated in robots.items() if seated])
    for pk, seated in robots.items():
        if seated is not None:
            found[pk] = bots.account(*seated, pk=pk if pk in kept else None)
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
    """An inactive account per name, keeping the export's id where the
    table's sequence has passed it and it is free (_keepable)."""

    taken = sorted(User.objects.filter(username__in=unmapped.values()).values_list(
        "username", flat=True
    ))  # fmt: skip
    if taken:
        raise ImportRefused(
            gettext_noop("accounts %(names)s exist here: map them (name=name) to use them"),
            names=", ".join(taken),
        )
    kept = _keepable(User, unmapped)
    created = {}
    for pk, name in sorted(unmapped.items()):
        user = User(
            pk=pk if pk in kept else None, username=_placeholder_name(name), is_active=False,
            notify_mode=User.NotifyMode.OFF,
        )  # fmt: skip
        user.set_unusable_password()
        user.save(force_insert=True)
        created[pk] = user
    return created


def _placeholder_name(name: str) -> str:
    """The name a placeholder gets here: its own if a sign-up could take it
    (accounts.rules decides, as for every sign-up: the form, another
    account's name in other letters, whatever it refuses), else a derived
    one that only says where it came from.  A name taken exactly was refused
    before: that may be the same person, whom the moderator maps."""
    for candidate in (name, *_derived_names(name)):
        try:
            return rules.check_new_username(candidate)
        except ValidationError:
            continue
    raise ImportRefused(
        gettext_noop("%(name)s cannot be an account name here: map it to one"), name=name[:40]
    )


def _derived_names(name: str):
    """`imported-` and a digest of the name: plain ASCII, stable for a name,
    and nothing a reader could take for another account's name."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    yield f"imported-{digest}"
    for number in range(2, DERIVED_TRIES + 1):
        yield f"imported-{digest}-{number}"


def _free_ids(model, wanted) -> set[int]:
    return set(wanted) - set(model.objects.filter(pk__in=wanted).values_list("pk", flat=True))


def _keepable(model, wanted) -> set[int]:
    """The ids of `wanted` a row of `model` may be written with: free, and
    already passed by the table's id sequence.  An id the sequence has not
    reached would either be handed out again (a later insert fails) or, if
    the sequence were moved up to it, take every id below it out of use: at
    2**63 - 1 no game or account could be made any more.  Below the
    sequence nothing moves, so concurrent inserts keep their ids too."""
    passed = _sequence_passed(model)
    return _free_ids(model, [pk for pk in wanted if 0 < pk <= passed])


def _sequence_passed(model) -> int:
    """The highest id the table's sequence has handed out (0: none).
    PostgreSQL: the sequence's last value (never rolled back).  SQLite:
    AUTOINCREMENT's high mark in sqlite_sequence (rolled back with the
    transaction that raised it).  Another database keeps no ids."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT pg_sequence_last_value(pg_get_serial_sequence(%s, %s)::regclass)",
                [table, model._meta.pk.column],
            )
        elif connection.vendor == "sqlite":
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
        else:
            return 0
        row = cursor.fetchone()
    return row[0] if row and row[0] is not None else 0


# --- the game ---------------------------------------------------------------------


def _write(checked: exchange.Checked, users: dict, actor, source: str) -> Game:
    origin = checked.game
    keep_id = bool(_keepable(Game, [origin["id"]]))
    first = checked.events[0]
    game = Game(
        pk=origin["id"] if keep_id else None, title=origin["title"], options=origin["options"],
        engine_version=origin["engine_version"], seed=origin["seed"], salt=checked.salt,
        chain_version=origin["chain_version"], public=origin["public"],
        spectator_delay=origin["spectator_delay"], clock=origin["clock"], paused=checked.paused,
        press=first.payload.get("press", Press.FULL),
        reveal_private=first.payload.get("reveal_private", True),
        rated=first.payload.get("rated", True) is not False,
        locked=checked.locked, created_by=users.get(first.actor_id),
        imported_unverified=bool(checked.unverified), **checked.derived,
    )  # fmt: skip
    game.save(force_insert=True)
    ids = {pk: user.pk for pk, user in users.items()}
    events = _relinked(checked.events, game, ids, set(checked.unverified))
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


def _relinked(
    events: list[Event], game: Game, ids: dict[int, int], unverified: set[int]
) -> list[Event]:
    """The events under this game's and accounts' ids, chained and sealed
    here; nonces, payloads and times as they were.  Those whose seals could
    not be checked are sealed as imported unverified (games.stream.chain)."""
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
        event.key_id, event.mac = chain.seal(event.hash, unverified=origin.seq in unverified)
        linked.append(event)
        prev = event.hash
    return linked


def _payload_here(event: Event, ids: dict[int, int]) -> dict[str, Any]:
    """The payload with the accounts it names (games.audit.exchange) as they are here."""
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
            "unverified": chain.runs(checked.unverified),
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
