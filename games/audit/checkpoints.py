"""Checkpoints: signed statements of where each game's chain stood, published
outside the database, so a history cut short there is caught.

Cutting the newest events off a game and moving its row back leaves a shorter
chain whose every hash and seal holds (the seal's key is the server's, and
the shorter chain is one the server really wrote).  What the database alone
cannot tell, a statement kept elsewhere can: every CHECKPOINT_INTERVAL, and
as each game ends, the server signs `(game, seq, head hash, time)` for every
game that moved since its last checkpoint and writes it first to
CHECKPOINT_LOG (a file the operator keeps off the database's host), then to
the `Checkpoint` table, which serves the feed witnesses mirror
(`GET /api/checkpoints/`).  `verify_games --checkpoints SOURCE` reads such a
log or mirror and reports every game whose stream is shorter than, or
differs from, what was published.

The log is written before the table: a checkpoint in the table was always
published; one the table lost (a failed insert, a restored backup) is
published again next time, which a reader takes as a second statement of
the same fact.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.audit import checkpoint_keys as keys
from games.models import Checkpoint, Event, Game
from games.stream import chain

log = logging.getLogger(__name__)

CHUNK = 500


def record_of(checkpoint: Checkpoint) -> dict[str, Any]:
    """A checkpoint as published: the signed fields, the key id, the signature."""
    return {
        "game": checkpoint.game_id,
        "seq": checkpoint.seq,
        "head_hash": checkpoint.head_hash,
        "at": chain.timestamp(checkpoint.at),
        "final": checkpoint.final,
        "key_id": checkpoint.key_id,
        "signature": checkpoint.signature,
    }


def signed(game: dict[str, Any], at: datetime) -> Checkpoint:
    """A checkpoint of `game` (FIELDS) as it stands, signed, not yet saved."""
    signer = keys.current()
    checkpoint = Checkpoint(
        game_id=game["pk"],
        seq=game["seq"],
        head_hash=game["head_hash"],
        at=at,
        final=game["status"] != Game.Status.ACTIVE,
        listed=listed(game),
        key_id=signer.key_id,
    )
    checkpoint.signature = signer.sign(record_of(checkpoint))
    return checkpoint


def listed(game: dict[str, Any]) -> bool:
    """Whether a checkpoint of `game` as it stands goes in the feed anyone
    signed in may read: only when a stranger to the game is shown that head
    and its hash already.  A private game's players hold it to its history
    with `verify/?seen=` and the operator with the log; a delayed spectator
    would learn where the game really stands (so such a game's checkpoints
    are listed only from its end); a version-1 hash is shown only to those
    who see everything (games.selectors.verify_record)."""
    if not game["public"]:
        return False
    if game["status"] != Game.Status.ACTIVE:
        return True
    return game["spectator_delay"] == 0 and game["chain_version"] >= 2


FIELDS = ("pk", "seq", "head_hash", "status", "public", "spectator_delay", "chain_version")


def due(game_ids: Iterable[int] | None = None) -> Iterator[dict[str, Any]]:
    """The games whose head moved past their last checkpoint (of `game_ids`
    only, if given), in id order, as the fields a checkpoint needs."""
    games = Game.objects.order_by("pk")
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
    last = dict(
        Checkpoint.objects.filter(game__in=games.values("pk"))
        .values("game")
        .annotate(seq=Max("seq"))
        .values_list("game", "seq")
    )
    for game in games.values(*FIELDS).iterator(chunk_size=CHUNK):
        if game["seq"] > last.get(game["pk"], 0):
            yield game


def publish(game_ids: Iterable[int] | None = None) -> int:
    """Sign and publish a checkpoint of every game that moved since its last
    (of `game_ids` only, if given); how many were published.

    Each chunk is stamped with the time it is signed, just before it is
    written, so the feed (ordered by that time) can hold back only the last
    minute for writes still under way."""
    published = 0
    batch: list[dict[str, Any]] = []
    for game in due(game_ids):
        batch.append(game)
        if len(batch) == CHUNK:
            published += _write(batch)
            batch = []
    if batch:
        published += _write(batch)
    return published


def _write(games: list[dict[str, Any]]) -> int:
    """Signed, out to the log (synced) first, then into the table."""
    at = timezone.now()
    batch = [signed(game, at) for game in games]
    _append_to_log([record_of(checkpoint) for checkpoint in batch])
    with transaction.atomic():
        Checkpoint.objects.bulk_create(batch, ignore_conflicts=True)
    return len(batch)


def _append_to_log(records: list[dict[str, Any]]) -> None:
    path = settings.CHECKPOINT_LOG
    if not path:
        return
    lines = "".join(json.dumps(record, sort_keys=True) + "\n" for record in records)
    # O_APPEND: whole lines from several writers never interleave mid-line.
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    try:
        os.write(descriptor, lines.encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def publish_final(game: Game, event: Event) -> None:
    """A game has just ended: its last checkpoint now, not at the next round.
    A failure here only postpones it to the periodic run, never the move."""
    try:
        publish([game.pk])
    except Exception:  # the move committed; the periodic run publishes it
        log.exception("checkpoint of finished game %s postponed", game.pk)


# --- checking a published log against the database --------------------------------------


@dataclass
class Finding:
    game: int | None
    problem: str


def read_source(path: str | Path) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """`(line number, record)` of a checkpoint log or a witness's mirror: one
    JSON object per line; a line that is not one is `(number, None)`."""
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            yield number, record if isinstance(record, dict) else None


def problems_against(records: Iterable[tuple[int, dict[str, Any] | None]]) -> Iterator[Finding]:
    """What the database contradicts of the published checkpoints: a stream
    shorter than a checkpoint (events cut off), a different hash at its seq
    (a diverging history), a game that is gone; and records whose signature
    does not hold (those prove nothing and are reported, not compared)."""
    public = keys.public_keys()
    by_game: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for number, record in records:
        if record is None:
            yield Finding(None, f"line {number}: not a checkpoint record")
            continue
        bad = keys.signature_problem(record, public)
        if bad:
            yield Finding(_int(record.get("game")), f"line {number}: {bad}")
            continue
        by_game.setdefault(int(record["game"]), []).append((number, record))
    for game_id in sorted(by_game):
        yield from _game_against(game_id, by_game[game_id])


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) else None


def _game_against(game_id: int, records: list[tuple[int, dict[str, Any]]]) -> Iterator[Finding]:
    head = Game.objects.filter(pk=game_id).values_list("seq", flat=True).first()
    if head is None:
        yield Finding(game_id, "checkpointed, but the game is not in the database")
        return
    seqs = {int(record["seq"]) for _, record in records}
    hashes = dict(Event.objects.filter(game_id=game_id, seq__in=seqs).values_list("seq", "hash"))
    for number, record in records:
        seq = int(record["seq"])
        if seq > head or seq not in hashes:
            yield Finding(
                game_id,
                f"the stream ends at seq {head}, but a checkpoint published at {record['at']} "
                f"(line {number}) says it reached seq {seq}: events were cut off",
            )
        elif hashes[seq] != record["head_hash"]:
            yield Finding(
                game_id,
                f"the event at seq {seq} is not the one a checkpoint published at "
                f"{record['at']} (line {number}) signed: the history was rewritten",
            )
