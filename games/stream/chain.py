"""The hash chain over a game's events: what each hash covers, the server's
keyed seal on it, and what a viewer is shown to check it.

A game keeps the rule it was created under (`Game.chain_version`).

Version 1 hashed every event whole: sha256 of the canonical JSON of
`{"prev": prev_hash, "event": {game, seq, kind, seat, actor, source, payload,
created_at}}`.  A face-down card choice is one of a few dozen values and user
ids are small integers, so whoever is shown such a hash can try every
candidate and find what was hidden.  Version-1 hashes are therefore shown only
to those who may see everything (moderators, everyone once the game is over).

Version 2 hashes only what everyone may see, plus a commitment to the rest:

    opening    = {"actor": actor id, "nonce": 32 random hex digits, "payload": stored payload}
    commitment = sha256(canonical_json(opening))
    hash       = sha256(canonical_json({"prev": prev_hash, "event": {"game", "seq",
                  "kind", "seat", "source", "created_at", "payload": public payload,
                  "commitment"}}))

The nonce is 128 fresh random bits per event and is shown only with the
opening, which goes exactly where the stored payload goes: to the seat that
acted (its own events), to moderators, and to everyone once the game is over.
Without it the commitment is as good as random whatever the payload holds, so
everyone can check the links and the public part of every event at any time,
each player the openings of their own events during the game, and everybody
all of it afterwards (`verify_shown` is that check, on what a viewer received).

The seal, in both versions, keys the chain to a secret outside the database:
`mac = HMAC-SHA256(key, "correo-chain-seal:" + hash)`, stored with the key's
id.  The keys come from the environment (`CHAIN_KEY`, and retired ones in
`CHAIN_KEYS_RETIRED` so older seals keep verifying), so someone who can
rewrite rows and recompute the sha256 hashes still cannot forge the seals.
Since each hash covers the whole chain before it, a good seal on an event
fixes every event up to it: none can be changed afterwards.  Games older than
seals had their heads sealed by the upgrade (games.LegacySeal): only events
up to that seal may go without one of their own.

An event imported from a document whose seal this server could not check
(another server's key, or none) is sealed here under another prefix,
`"correo-chain-unverified-import:"`, on the moderator's explicit word: the
seal fixes it from then on but says that nobody here vouched for where it
came from, and no one without the key can turn it into an ordinary seal.
That is also why a later event's good seal does not make an earlier one
verified: whether an event was checked when it entered this server is its
own seal's to say (games.audit.exchange reads a document that way too).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets
from collections.abc import Callable
from functools import cache, partial
from json.encoder import encode_basestring  # what canonical_json does to a str
from typing import Any

from django.conf import settings

from games.engines.base import canonical_json
from games.stream.payloads import full_payload, public_payload
from games.stream.replay import TALK_KINDS

GENESIS_HASH = "0" * 64
# The rule new games are created under.
CURRENT_VERSION = 2
NONCE_BYTES = 16
SEAL_PREFIX = "correo-chain-seal:"
UNVERIFIED_PREFIX = "correo-chain-unverified-import:"
UNVERIFIED_SEAL = "sealed as imported without a verified seal"


def timestamp(moment: datetime.datetime) -> str:
    """An event's time as hashed and as shown: ISO 8601 in UTC."""
    if moment.tzinfo is datetime.UTC:  # as read back: no conversion to make
        return moment.isoformat()
    return moment.astimezone(datetime.UTC).isoformat()


def new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def sha256(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def opening(event, version: int) -> dict[str, Any]:
    """What the event's hash (version 1) or commitment (version 2) hides."""
    opened = {"actor": event.actor_id, "payload": event.payload}
    if version >= 2:
        opened["nonce"] = event.nonce
    return opened


def commitment(event) -> str:
    return sha256(opening(event, 2))


def sealed_fields(event, public_payload: dict[str, Any], commitment_: str) -> dict[str, Any]:
    """The part of a version-2 event its hash covers besides the link."""
    return {
        "game": event.game_id,
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "source": event.source,
        "created_at": timestamp(event.created_at),
        "payload": public_payload,
        "commitment": commitment_,
    }


def _v1_fields(event) -> dict[str, Any]:
    return {
        "game": event.game_id,
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "actor": event.actor_id,
        "source": event.source,
        "payload": event.payload,
        "created_at": timestamp(event.created_at),
    }


def compute_hash(event, version: int) -> str:
    """The hash `event` must carry under the game's rule."""
    if version == 1:
        return sha256({"prev": event.prev_hash, "event": _v1_fields(event)})
    return _v2_hash(event)


def _v2_hash(event) -> str:
    """`sha256({"prev": ..., "event": sealed_fields(...)})`, written out.

    Every append and every event `verify_games` reads pays this, and the
    payload is the only part worth serialising: it is serialised once and
    shared by the opening and, when nothing of it is hidden, the public part,
    while the scalars around it are spelled in place, in the sorted order
    `canonical_json` gives them.  tests/games/test_chain.py holds it to the
    definition above for arbitrary events.
    """
    payload = event.payload
    payload_json = canonical_json(payload)
    if event.kind == "created" or event.kind in TALK_KINDS or "public" in payload:
        public_json = canonical_json(public_payload(event))
    else:
        public_json = payload_json
    return v2_hash_of(
        payload_json, public_json, actor=event.actor_id, nonce=event.nonce,
        created_at=timestamp(event.created_at), game=event.game_id, kind=event.kind,
        seat=event.seat, seq=event.seq, source=event.source, prev_hash=event.prev_hash,
    )  # fmt: skip


def v2_hash_of(
    payload_json: str,
    public_json: str,
    *,
    actor: int | None,
    nonce: str,
    created_at: str,
    game: int,
    kind: str,
    seat: int | None,
    seq: int,
    source: str,
    prev_hash: str,
) -> str:
    """A version-2 hash from the payload's canonical JSON, whole and public:
    what `_v2_hash` computes, for a caller that serialised the payload once
    for many events (bench/scale_fill.py chains a million copies of a few)."""
    opening_json = (
        f'{{"actor":{_scalar(actor)},"nonce":{_scalar(nonce)},"payload":{payload_json}}}'
    )
    commitment_ = hashlib.sha256(opening_json.encode()).hexdigest()
    sealed_json = (
        f'{{"event":{{"commitment":"{commitment_}",'
        f'"created_at":{_scalar(created_at)},"game":{_scalar(game)},'
        f'"kind":{_scalar(kind)},"payload":{public_json},"seat":{_scalar(seat)},'
        f'"seq":{_scalar(seq)},"source":{_scalar(source)}}},'
        f'"prev":{_scalar(prev_hash)}}}'
    )
    return hashlib.sha256(sealed_json.encode()).hexdigest()


def _scalar(value: str | int | None) -> str:
    """One column's canonical JSON (a str, an int or None)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return str(value)
    return "null" if value is None else canonical_json(value)


def link(event, prev_hash: str, version: int) -> None:
    """Chain `event` after `prev_hash`: its nonce (version 2), hash and seal."""
    event.prev_hash = prev_hash
    event.nonce = new_nonce() if version >= 2 else ""
    event.hash = compute_hash(event, version)
    event.key_id, event.mac = seal(event.hash)


# --- the seal ------------------------------------------------------------------


def key_id(key: str) -> str:
    """A short name for a key that reveals nothing of it."""
    return hashlib.sha256(("correo-chain-key-id:" + key).encode()).hexdigest()[:16]


@cache
def _keyring(current: str, retired: tuple[str, ...]) -> tuple[str, dict[str, bytes]]:
    keys = {key_id(key): key.encode() for key in (current, *retired) if key}
    return key_id(current), keys


def keyring() -> tuple[str, dict[str, bytes]]:
    """The id of the key that seals new events, and every key by id."""
    return _keyring(settings.CHAIN_KEY, tuple(settings.CHAIN_KEYS_RETIRED))


def _mac(key: bytes, hash_: str, prefix: str = SEAL_PREFIX) -> str:
    mac = _keyed(key, prefix).copy()
    mac.update(hash_.encode())
    return mac.hexdigest()


@cache
def _keyed(key: bytes, prefix: str):
    """HMAC under `key` with the prefix already fed: a copy of it costs less
    than setting up the key for every event of a verification."""
    return hmac.new(key, prefix.encode(), hashlib.sha256)


def seal(hash_: str, *, unverified: bool = False) -> tuple[str, str]:
    """This server's seal on `hash_`; `unverified`: an imported event that
    nothing here could vouch for (see the module's docstring)."""
    current, keys = keyring()
    return current, _mac(keys[current], hash_, UNVERIFIED_PREFIX if unverified else SEAL_PREFIX)


def sealer() -> tuple[str, Callable[[str], str]]:
    """The current key's id and `seal`'s mac for many hashes, the keyring
    read once (bench/scale_fill.py seals a hundred million)."""
    current, keys = keyring()
    return current, partial(_mac, keys[current])


def seal_problem(
    hash_: str, key_id_: str, mac: str, keys: dict[str, bytes] | None = None
) -> str | None:
    """Why a seal does not vouch for `hash_`, if it does not (`keys`: the
    keyring's, read once by a caller checking many seals)."""
    if not mac:
        return "not sealed"
    key = (keyring()[1] if keys is None else keys).get(key_id_)
    if key is None:
        return f"sealed with key {key_id_!r}, which this server lacks"
    if not hmac.compare_digest(_mac(key, hash_), mac):
        if hmac.compare_digest(_mac(key, hash_, UNVERIFIED_PREFIX), mac):
            return UNVERIFIED_SEAL
        return "seal does not match (rewritten outside the server?)"
    return None


def unverified_seqs(events: list) -> list[int]:
    """The seqs whose own seal says they were imported unverified."""
    keys = keyring()[1]
    return [
        event.seq for event in events
        if seal_problem(event.hash, event.key_id, event.mac, keys) == UNVERIFIED_SEAL
    ]  # fmt: skip


def runs(seqs: list[int]) -> list[list[int]]:
    """Seqs as runs of [first, last]: how an import's unverified events are
    recorded, and the seqs of a report are said."""
    found: list[list[int]] = []
    for seq in sorted(set(seqs)):
        if found and found[-1][1] == seq - 1:
            found[-1][1] = seq
        else:
            found.append([seq, seq])
    return found


def runs_text(seqs: list[int]) -> str:
    """Seqs as "1-40, 43", for a message."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs(seqs))


# --- checking a stored chain ---------------------------------------------------------


def problems(
    events: list, version: int, legacy_seal=None, *, imported_unverified: bool = False
) -> list[str]:
    """Every break in a game's stored chain: gaps, wrong links, altered
    events, missing or wrong seals.

    Games hashed under version 1 began before seals existed.  The upgrade
    sealed each one's head as it stood (`legacy_seal`, a games.LegacySeal);
    only the events up to it may lack a seal of their own.  Since a hash
    covers the whole chain before it, that one seal vouches for all of them.

    Seals of an unverified import are accepted only in a game marked so
    (`imported_unverified`), and such a mark needs them: a forger who clears
    the mark, or strips those seals, is reported either way.
    """
    found = []
    prev_hash = GENESIS_HASH
    keys = keyring()[1]
    unverified = 0
    for expected_seq, event in enumerate(events, start=1):
        if event.seq != expected_seq:
            found.append(f"seq {expected_seq} missing (found {event.seq})")
            return found
        if event.prev_hash != prev_hash:
            found.append(f"seq {event.seq}: prev_hash does not match the previous event")
        if compute_hash(event, version) != event.hash:
            found.append(f"seq {event.seq}: hash does not match its content (altered?)")
        covered = legacy_seal is not None and event.seq <= legacy_seal.seq and not event.mac
        problem = None if covered else seal_problem(event.hash, event.key_id, event.mac, keys)
        if problem == UNVERIFIED_SEAL:
            unverified += 1
            problem = None if imported_unverified else f"{problem}, in a game not marked so"
        if problem:
            found.append(f"seq {event.seq}: {problem}")
        prev_hash = event.hash
    if imported_unverified and not unverified:
        found.append("marked as imported unverified, but no event is sealed so")
    if legacy_seal is not None:
        found.extend(_legacy_seal_problems(events, legacy_seal))
    return found


def _legacy_seal_problems(events: list, legacy_seal) -> list[str]:
    where = f"the upgrade's seal at seq {legacy_seal.seq}"
    if not 1 <= legacy_seal.seq <= len(events):
        return [f"{where} lies outside the stream"]
    if events[legacy_seal.seq - 1].hash != legacy_seal.hash:
        return [f"{where} was made for another chain (rewritten outside the server?)"]
    problem = seal_problem(legacy_seal.hash, legacy_seal.key_id, legacy_seal.mac)
    return [f"{where}: {problem}"] if problem else []


# --- what a viewer is shown, and checking that ---------------------------------------


def shown(event, version: int, *, opened: bool, revealed: bool) -> dict[str, Any]:
    """The chain fields of one event for a viewer: `opened` viewers see its
    stored payload, `revealed` ones everything (moderators, ended games)."""
    if version == 1:
        if not revealed:
            return {"hash": None, "prev_hash": None}
        return {"hash": event.hash, "prev_hash": event.prev_hash, "opening": opening(event, 1)}
    fields: dict[str, Any] = {
        "hash": event.hash,
        "prev_hash": event.prev_hash,
        "commitment": commitment(event),
    }
    if opened:
        fields["opening"] = opening(event, 2)
        public = public_payload(event)
        if public != full_payload(event):
            fields["public_payload"] = public
    return fields


def verify_shown(game_id: int, version: int, events: list[dict[str, Any]]) -> list[str]:
    """Check a run of events as a viewer received them (JSON, oldest first):
    each hash against its fields, each link to the one before, and each
    opening the viewer got against its commitment.  What a client does."""
    found = []
    prev = None
    for shown_event in events:
        seq = shown_event["seq"]
        if prev is not None and shown_event["prev_hash"] != prev:
            found.append(f"seq {seq}: prev_hash does not match the previous event")
        if shown_event["hash"] is None:
            found.append(f"seq {seq}: no hash shown")
            prev = None
            continue
        expected = _expected_hash(game_id, version, shown_event, found)
        if expected != shown_event["hash"]:
            found.append(f"seq {seq}: hash does not match what was shown")
        prev = shown_event["hash"]
    return found


def _expected_hash(game_id: int, version: int, shown_event: dict, found: list[str]) -> str:
    opened = shown_event.get("opening")
    header = {key: shown_event[key] for key in ("seq", "kind", "seat", "source", "created_at")}
    if version == 1:
        return sha256(
            {
                "prev": shown_event["prev_hash"],
                "event": {"game": game_id, **header, **opened},
            }
        )
    commitment_ = shown_event["commitment"]
    if opened is not None and sha256(opened) != commitment_:
        found.append(f"seq {shown_event['seq']}: opening does not match the commitment")
    public = shown_event.get("public_payload", shown_event["payload"])
    event = {"game": game_id, **header, "payload": public, "commitment": commitment_}
    return sha256({"prev": shown_event["prev_hash"], "event": event})
