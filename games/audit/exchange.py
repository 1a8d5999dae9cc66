"""A game as one JSON document (docs/export-format.md): writing it for a
viewer, and reading a complete one back with every check an import needs.

An export shows exactly what its viewer may see: the events as the events
API shapes them for that viewer, and nothing of the chain that the view
hides.  Only a complete document (a moderator's, or any after the game
ended) holds what rebuilding the game needs: every event's opening (stored
payload, actor, nonce), the seals, the setup, the salt and the seed.

Reading checks everything before anything is written: the shape, every
hash and link under the document's chain rule, every seal this server can
check, every event's shown fields against its own opening, the setup
against its commitment, and the replay with today's engine against the
state the exporting server reached.  It also says which events no seal
here vouches for; whether those may come in at all is the moderator's word
(games.services.importing, which writes).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_noop

from games.audit import golden
from games.engines import base
from games.errors import ImportRefused
from games.models import Event, Game, Press
from games.selectors import history, shown, talk, verify_record, viewers, visibility
from games.selectors.viewers import Viewer
from games.stream import chain, commitment, replay, store
from games.stream.derived import derived_fields
from games.stream.replay import TALK_KINDS

# The note an import ends with (games.services.importing writes it).
IMPORTED = "imported"

FORMAT = "correo-game"
HEX = re.compile("[0-9a-f]*")
UNSEALED = "unsealed"
# An event this server (or one with its key) sealed as imported unverified.
UNVERIFIED = "imported-unverified"
INT32 = 2**31 - 1
INT64 = 2**63 - 1
VERSION = 1
# The game's facts the created event records (and nothing changes later).
FIXED_AT_CREATION = ("title", "engine_version", "options", "clock", "public", "spectator_delay")
GAME_FIELDS: dict[str, type] = {
    "id": int, "engine_version": int, "chain_version": int, "options": dict, "public": bool,
    "spectator_delay": int, "status": str, "seq": int, "seed": int, "state_hash": str,
}  # fmt: skip
# The keys of a seat replacement's payload that name accounts by id.
REPLACEMENT_ACCOUNTS = ("user", "previous")
ABORT_REASON_MAX = Game._meta.get_field("abort_reason").max_length
EVENT_KEYS = frozenset(
    {"seq", "kind", "seat", "source", "created_at", "payload", "hash", "prev_hash",
     "commitment", "opening", "public_payload", "actor", "seal"}
)  # fmt: skip


# --- writing ---------------------------------------------------------------------


def is_complete(game: Game, viewer: Viewer) -> bool:
    """Whether this viewer's export holds everything: moderators always,
    everyone once the game is over."""
    return viewer.moderator or game.status != Game.Status.ACTIVE


def full_viewer(game: Game) -> Viewer:
    """The viewer of a complete export made without a requester (the command's --full)."""
    return Viewer(seat=None, moderator=True, head=game.seq)


def export(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The game as one document, as `viewer` may see it."""
    revealed = is_complete(game, viewer)
    head = game.seq if revealed else viewer.head
    if revealed:
        # After the end, messages that stay private (notes, the moderators'
        # acts, private messages the table chose not to reveal) stay sealed
        # for everyone but moderators: such a document cannot be imported.
        reader = talk.everything() if viewer.moderator else talk.after_the_end(game)
        events = complete_events(game, reader)
    else:
        reader = talk.reader_for(game, viewer)
        events = history.events(game, viewer, after=0, limit=head)
    sealed = any(e["kind"] in TALK_KINDS and "opening" not in e for e in events)
    return {
        "format": FORMAT,
        "version": VERSION,
        "complete": revealed and not sealed,
        "shown_to": _shown_to(game, viewer),
        "exported_at": chain.timestamp(timezone.now()),
        "game": _game_part(game, head, revealed),
        "commitment": verify_record.verification_of(game, reveal=revealed, head=head),
        "seats": [
            {"seat": seat.index, "username": seat.user.username, "status": seat.status}
            for seat in viewers.seats_of(game)
        ],
        "accounts": _accounts(game, head, reader),
        "events": events,
    }


def complete_events(game: Game, reader: talk.Reader | None = None) -> list[dict[str, Any]]:
    """Every event up to the row's head revealed (as the audit shows them),
    with its seal; a move appended meanwhile waits for the next export.
    Messages are shown as `reader` may read them (default: a moderator)."""
    reader = talk.everything() if reader is None else reader
    rows = Event.objects.filter(game=game, seq__lte=game.seq).select_related("actor")
    rows = rows.order_by("seq")
    return [
        shown_complete(event, game.chain_version, _username(event.actor), reader) for event in rows
    ]


def shown_complete(
    event: Event, version: int, actor: str | None, reader: talk.Reader | None = None
) -> dict[str, Any]:
    """One event of a complete document.  The seal (an HMAC of the hash under
    the server's key) tells nothing the hash does not, but only complete
    documents carry it: only they can be imported and have it checked."""
    reader = talk.everything() if reader is None else reader
    shown = visibility.event_for(
        event, None, reveal_all=True, chain_version=version, reader=reader
    )
    if event.kind in TALK_KINDS and "opening" not in shown:
        actor = None
    return {**shown, "actor": actor, "seal": {"key_id": event.key_id, "mac": event.mac}}


def _username(user) -> str | None:
    return user.username if user is not None else None


def _shown_to(game: Game, viewer: Viewer) -> str:
    if game.status != Game.Status.ACTIVE:
        return "everyone"
    if viewer.moderator:
        return "moderator"
    return "spectator" if viewer.seat is None else f"seat {viewer.seat}"


def _game_part(game: Game, head: int, complete: bool) -> dict[str, Any]:
    current = head == game.seq
    part: dict[str, Any] = {
        "id": game.pk,
        "title": game.title,
        "engine_version": game.engine_version,
        "chain_version": game.chain_version,
        "options": game.options,
        "clock": game.clock,
        "public": game.public,
        "spectator_delay": game.spectator_delay,
        "created_at": chain.timestamp(game.created_at),
        "status": game.status if current else Game.Status.ACTIVE,
        "seq": head,
        "head_hash": verify_record.shown_hash(
            game, game.head_hash if current else verify_record.head_hash_at(game, head),
            reveal=complete,
        ),
        "result": game.result if current else None,
    }  # fmt: skip
    if complete:
        engine = base.get(game.title)
        part["seed"] = game.seed
        part["state_hash"] = golden.state_hash(store.load(game, engine).state)
    return part


def _accounts(game: Game, head: int, reader: talk.Reader) -> list[dict[str, Any]]:
    """Every account the stream names up to `head` (seats and actors), by
    this server's id: the openings and the created event name them by id.
    The sender of a message the reader may not read is not named."""
    from accounts.models import User

    rows = Event.objects.filter(game=game, seq__lte=head)
    acting = rows.exclude(actor=None).exclude(kind__in=TALK_KINDS)
    ids = set(acting.values_list("actor_id", flat=True).distinct())
    for message in rows.filter(kind__in=TALK_KINDS).exclude(actor=None).order_by():
        if reader.reads(message):
            ids.add(message.actor_id)
    naming = rows.filter(kind__in=(Event.Kind.CREATED, Event.Kind.SEAT_REPLACED))
    for kind, payload in naming.values_list("kind", "payload"):
        ids.update(_payload_accounts(kind, payload))
    users = User.objects.filter(pk__in=ids).order_by("pk").values_list("pk", "username")
    return [{"id": pk, "username": username} for pk, username in users]


def _payload_accounts(kind: str, payload: dict[str, Any]) -> list[int]:
    """The account ids a stored payload names: the created event's seats, a
    seat replacement's new and previous player."""
    if kind == Event.Kind.CREATED:
        return list(payload.get("seats", []))
    if kind == Event.Kind.SEAT_REPLACED:
        return [payload[key] for key in REPLACEMENT_ACCOUNTS if key in payload]
    return []


# --- reading ---------------------------------------------------------------------


@dataclass
class Checked:
    """A complete document that passed every check, as model instances not
    yet saved (ids still the exporting server's)."""

    game: dict[str, Any]
    salt: str
    accounts: dict[int, str]  # id on the exporting server: username
    events: list[Event]
    derived: dict[str, Any]
    paused: bool
    locked: bool
    unchecked_keys: list[str] = field(default_factory=list)
    # The events no seal this server can check vouches for, each by its own
    # seal (games.stream.chain: a later good seal fixes them, it does not vouch).
    unverified: list[int] = field(default_factory=list)


def check(document: Any) -> Checked:
    """Every check of a document before it is imported; ImportRefused says
    the first that fails."""
    _check_header(document)
    game = _game_section(document)
    accounts = _accounts_section(document)
    events = _events(document, game, accounts)
    unchecked, unverified = _check_chain(events, game["chain_version"])
    engine = base.get(game["title"])
    _check_created(engine, game, events, accounts)
    salt = _check_setup(document, events)
    _check_heads(document, events)
    _check_seats(document, events, accounts)
    derived = _check_replay(engine, game, events)
    paused, locked = shown.clock_marks(e.payload for e in events if e.kind == Event.Kind.CLOCK)
    return Checked(
        game=game, salt=salt, accounts=accounts, events=events, derived=derived,
        paused=paused, locked=locked, unchecked_keys=unchecked, unverified=unverified,
    )  # fmt: skip


def _check_header(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(
            gettext_noop("this is not a Correo game export (format %(format)s)"), format=FORMAT
        )
    if document.get("version") != VERSION:
        raise ImportRefused(
            gettext_noop("export format version %(version)s is not supported (only %(known)s)"),
            version=str(document.get("version"))[:20], known=VERSION,
        )  # fmt: skip
    if document.get("complete") is not True:
        raise ImportRefused(
            gettext_noop(
                "this export was made for %(viewer)s of a running game and lacks what that "
                "view hides; import one made by a moderator or after the game ended"
            ),
            viewer=str(document.get("shown_to", "a player"))[:40],
        )  # fmt: skip


def _malformed(where: str) -> ImportRefused:
    return ImportRefused(gettext_noop("the export is malformed: %(where)s"), where=where)


def _field(container: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _types(kind)):
        raise _malformed(f"{where}.{key}")
    return value


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _game_section(document: dict[str, Any]) -> dict[str, Any]:
    game = _field(document, "game", dict, "document")
    title = _field(game, "title", str, "game")
    try:
        base.get(title)
    except KeyError:
        raise ImportRefused(
            gettext_noop("this server has no title %(title)r"), title=title[:40]
        ) from None
    for key, kind in GAME_FIELDS.items():
        _field(game, key, kind, "game")
    _field(game, "clock", (dict, type(None)), "game")
    for key, least, most in (("id", 1, INT64), ("engine_version", 0, INT32),
                             ("chain_version", 1, chain.CURRENT_VERSION), ("seq", 1, INT32),
                             ("spectator_delay", 0, 1000), ("seed", -INT64, INT64)):  # fmt: skip
        if not least <= game[key] <= most:
            raise _malformed(f"game.{key} is out of range")
    if game["status"] not in Game.Status.values:
        raise _malformed("game.status")
    return game


def _accounts_section(document: dict[str, Any]) -> dict[int, str]:
    accounts: dict[int, str] = {}
    for number, entry in enumerate(_field(document, "accounts", list, "document")):
        pk = _field(entry, "id", int, f"accounts[{number}]")
        name = _field(entry, "username", str, f"accounts[{number}]")
        if pk in accounts or name in accounts.values() or not name:
            raise _malformed(f"accounts[{number}] repeats an id or a name")
        accounts[pk] = name
    return accounts


def _events(
    document: dict[str, Any], game: dict[str, Any], accounts: dict[int, str]
) -> list[Event]:
    shown = _field(document, "events", list, "document")
    if not shown:
        raise _malformed("events is empty")
    if len(shown) != game["seq"]:
        raise ImportRefused(
            gettext_noop("the export is truncated: the game is at seq %(seq)s, it holds "
                         "%(count)s events"),
            seq=game["seq"], count=len(shown),
        )  # fmt: skip
    return [_event(item, number, game, accounts) for number, item in enumerate(shown)]


def _event(item: Any, number: int, game: dict[str, Any], accounts: dict[int, str]) -> Event:
    """The stored event a shown one opens to, and a refusal unless showing
    that event again gives exactly what the document holds."""
    where = f"events[{number}]"
    if not isinstance(item, dict) or not set(item) <= EVENT_KEYS:
        raise _malformed(where)
    opening = _field(item, "opening", dict, where)
    seal = _field(item, "seal", dict, where)
    actor_id = opening.get("actor")
    if actor_id is not None and (type(actor_id) is not int or actor_id not in accounts):
        raise _malformed(f"{where}.opening.actor names no account")
    try:
        event = Event(
            game_id=game["id"], seq=_field(item, "seq", int, where),
            kind=_field(item, "kind", str, where), seat=item.get("seat"), actor_id=actor_id,
            source=_field(item, "source", str, where),
            payload=_field(opening, "payload", dict, f"{where}.opening"),
            created_at=datetime.datetime.fromisoformat(_field(item, "created_at", str, where)),
            prev_hash=_field(item, "prev_hash", str, where), hash=_field(item, "hash", str, where),
            nonce=opening.get("nonce", ""), key_id=_field(seal, "key_id", str, f"{where}.seal"),
            mac=_field(seal, "mac", str, f"{where}.seal"),
        )  # fmt: skip
        again = shown_complete(event, game["chain_version"], accounts.get(actor_id))
    except (ValueError, TypeError, KeyError, AttributeError):
        raise _malformed(where) from None
    if event.created_at.tzinfo is None or not _fits(event):
        raise _malformed(where)
    if base.canonical_json(again) != base.canonical_json(item):
        raise ImportRefused(
            gettext_noop("event %(seq)s does not match its own opening (altered?)"),
            seq=event.seq,
        )
    return event


def _fits(event: Event) -> bool:
    """The columns hold what the document gives (the database would refuse
    it, or worse, cut it, only at the insert)."""
    return (
        event.kind in Event.Kind.values
        and event.source in Event.Source.values
        and (event.seat is None or (type(event.seat) is int and 0 <= event.seat < 100))
        and isinstance(event.nonce, str)
        and all(HEX.fullmatch(value) for value in
                (event.nonce, event.key_id, event.mac, event.hash, event.prev_hash))
        and len(event.nonce) <= 32 and len(event.key_id) <= 16 and len(event.mac) <= 64
        and len(event.hash) == 64 and len(event.prev_hash) == 64
    )  # fmt: skip


def _check_chain(events: list[Event], version: int) -> tuple[list[str], list[int]]:
    """The chain as the exporting server wrote it: seqs gapless, each hash
    over its content and the one before.  Seals are checked where this
    server holds their key.  Returned: why some seals could not be checked
    (the ids of the keys this server lacks, `unsealed`, `imported-unverified`)
    and the seqs of those events.

    Each event is vouched for by its own seal only.  A later good seal does
    fix the content before it, but a seal's key_id and mac are outside the
    hash: a forger who turned an unverified import's seals into a foreign
    key's would otherwise have them vouched for by the next good seal."""
    prev = chain.GENESIS_HASH
    unchecked: set[str] = set()
    unverified: list[int] = []
    for expected, event in enumerate(events, start=1):
        if event.seq != expected:
            raise ImportRefused(
                gettext_noop("event %(seq)s is missing or out of order"), seq=expected
            )
        if event.prev_hash != prev or chain.compute_hash(event, version) != event.hash:
            raise ImportRefused(
                gettext_noop("the hash chain breaks at event %(seq)s (altered?)"), seq=event.seq
            )
        why = _unchecked_seal(event, version)
        if why is not None:
            unchecked.add(why)
            unverified.append(event.seq)
        prev = event.hash
    return sorted(unchecked), unverified


def _unchecked_seal(event: Event, version: int) -> str | None:
    """Why this server cannot vouch for the event's seal, or None when it
    does; a refusal when the seal is made with a key here and is wrong."""
    if not (event.key_id and event.mac):
        # Only a version-1 game has events older than seals.
        if version >= 2:
            raise _malformed(f"event {event.seq} carries no seal")
        return UNSEALED
    if event.key_id not in chain.keyring()[1]:
        return event.key_id
    problem = chain.seal_problem(event.hash, event.key_id, event.mac)
    if problem == chain.UNVERIFIED_SEAL:
        return UNVERIFIED
    if problem:
        raise ImportRefused(
            gettext_noop("the seal of event %(seq)s does not match (altered?)"), seq=event.seq
        )
    return None


def _check_created(engine, game: dict[str, Any], events: list[Event], accounts) -> None:
    """The stream opens with its created event, which records the game's
    fixed facts as the document gives them, and the payloads naming
    accounts (the seats; a seat's new player) name accounts of the document."""
    created = events[0]
    if created.kind != Event.Kind.CREATED or "setup" not in created.payload:
        raise _malformed("the first event is not a created event with its setup")
    said = {key: game.get(key) for key in FIXED_AT_CREATION}
    recorded = {key: created.payload.get(key) for key in FIXED_AT_CREATION}
    if base.canonical_json(recorded) != base.canonical_json(said):
        raise _malformed(f"game.{'/'.join(FIXED_AT_CREATION)} differ from the created event")
    press = created.payload.get("press", Press.FULL)
    if press not in Press.values or type(created.payload.get("reveal_private", True)) is not bool:
        raise _malformed("the created event's press setting")
    seats = created.payload.get("seats")
    if (
        not isinstance(seats, list)
        or not all(type(pk) is int and pk in accounts for pk in seats)
        or not engine.MIN_PLAYERS <= len(set(seats)) == len(seats) <= engine.MAX_PLAYERS
    ):
        raise _malformed("the created event's seats")
    holders = list(seats)
    for event in events:
        if event.kind != Event.Kind.SEAT_REPLACED:
            continue
        seat, user = event.payload.get("seat"), event.payload.get("user")
        if not (type(seat) is int and 0 <= seat < len(seats) and type(user) is int
                and user in accounts):  # fmt: skip
            raise _malformed(f"event {event.seq}'s seat or user")
        # Who had the seat is the stream's to say: a payload naming another
        # account would be relinked here as someone who never held it.
        previous = event.payload.get("previous", holders[seat])
        if type(previous) is not int or previous != holders[seat]:
            raise _malformed(f"event {event.seq}'s previous player did not hold the seat")
        holders[seat] = user


def _check_seats(document: dict[str, Any], events: list[Event], accounts: dict[int, str]) -> None:
    """The seats listed are those the stream leaves: who holds each, in order."""
    holders = list(events[0].payload["seats"])
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            holders[event.payload["seat"]] = event.payload["user"]
    listed = [
        (_field(seat, "seat", int, "seats"), _field(seat, "username", str, "seats"))
        for seat in _field(document, "seats", list, "document")
    ]
    if listed != [(index, accounts[user]) for index, user in enumerate(holders)]:
        raise _malformed("seats differ from the players the stream seats")


def _check_setup(document: dict[str, Any], events: list[Event]) -> str:
    """The created event's setup is the one it committed to under the salt,
    and the document's commitment record repeats them."""
    created = events[0].payload
    shown = _field(document, "commitment", dict, "document")
    salt = _field(shown, "salt", str, "commitment")
    if len(salt) > 64 or commitment.commit(created["setup"], salt) != created.get("commitment"):
        raise ImportRefused(gettext_noop("the setup does not match its commitment"))
    for key in ("commitment", "setup"):
        if base.canonical_json(shown.get(key)) != base.canonical_json(created[key]):
            raise _malformed(f"commitment.{key} differs from the created event")
    return salt


def _check_heads(document: dict[str, Any], events: list[Event]) -> None:
    """The hashes the document repeats are its events'."""
    shown = document["commitment"]
    heads = (
        shown.get("created_event_hash"),
        shown.get("head_hash"),
        document["game"].get("head_hash"),
    )
    if heads != (events[0].hash, events[-1].hash, events[-1].hash):
        raise _malformed("the head hashes differ from the events'")


def _check_replay(engine, game: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    """Today's engine replays the stream to the state the exporting server
    reached: with the same engine version as a matter of course, with
    another only if the states still agree."""
    created = events[0].payload
    undos = {e.seq: e.payload.get("to_seq") for e in events if e.kind == Event.Kind.UNDO}
    if not all(type(to) is int and 1 <= to < seq for seq, to in undos.items()):
        raise _malformed("an undo names no earlier event")
    ranges = replay.live_ranges(events[-1].seq, undos)
    live = [e for e in events if replay.is_live(e.seq, ranges)]
    steps = [(e.kind, e.seat, e.payload.get("action")) for e in live if e.kind in
             replay.ENGINE_KINDS]  # fmt: skip
    replayed = golden.replay_steps(engine, created["setup"], steps, {})
    if replayed.failed is not None or golden.state_hash(replayed.state) != game["state_hash"]:
        raise ImportRefused(
            gettext_noop(
                "the game does not replay to the same state with this server's %(title)s "
                "(engine version %(here)s; the export was made with %(there)s)"
            ),
            title=engine.TITLE, here=engine.VERSION, there=game["engine_version"],
        )  # fmt: skip
    abort_reason = _abort_reason(live)
    derived = (
        {"to_act": [], "status": Game.Status.ABORTED, "result": None,
         "abort_reason": abort_reason}
        if abort_reason is not None
        else {**derived_fields(engine, replayed.state), "abort_reason": ""}
    )  # fmt: skip
    if derived["status"] != game["status"]:
        raise ImportRefused(
            gettext_noop("the replay ends %(replayed)s, the export says %(said)s"),
            replayed=derived["status"], said=game["status"],
        )  # fmt: skip
    if base.canonical_json(derived["result"]) != base.canonical_json(game.get("result")):
        raise ImportRefused(gettext_noop("the replay gives another result than the export"))
    return derived


def _abort_reason(live: list[Event]) -> str | None:
    """Why the live stream ended without a result, as games.services.undo
    decides it: the first live moderator's abort gives its reason, a
    resignation the game could not go on without gives none ("").  None:
    nothing aborted the game."""
    for event in live:
        if event.kind == Event.Kind.ABORT:
            reason = event.payload.get("reason")
            if not isinstance(reason, str) or len(reason) > ABORT_REASON_MAX:
                raise _malformed(f"event {event.seq}'s reason")
            return reason
        if event.kind == Event.Kind.RESIGN and event.payload.get("aborts"):
            return ""
    return None


def import_record(game: Game) -> dict[str, Any]:
    """What the import's note recorded (the doors report it): the accounts
    mapped, whether the game was imported unverified."""
    note = (
        Event.objects.filter(game=game, kind=Event.Kind.NOTE).order_by("-seq").values_list(
            "payload", flat=True
        )
    )  # fmt: skip
    payload = next((p for p in note if p.get("note") == IMPORTED), {})
    return {
        "accounts": payload.get("accounts", {}),
        "imported_unverified": game.imported_unverified,
        "unverified": payload.get("origin", {}).get("unverified", []),
    }


def imported_lines(game: Game) -> list[str]:
    """The import's outcome in words, for the command and the admin page:
    the game, each account renamed, and whether it came in unverified."""
    record = import_record(game)
    lines = [f"imported as game {game.pk} ({game.title}, seq {game.seq})"]
    lines += [
        f"account {old!r} of the export is {new!r} here"
        for old, new in record["accounts"].items() if old != new
    ]  # fmt: skip
    if record["imported_unverified"]:
        seqs = chain.runs_text([seq for a, b in record["unverified"] for seq in range(a, b + 1)])
        lines.append(
            f"imported unverified: the seals of events {seqs} could not be checked here; "
            "the game is marked so"
        )
    return lines
