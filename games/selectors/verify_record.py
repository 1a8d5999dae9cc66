"""The verification record: the setup commitment, the head hash as the
viewer may be shown it, and whether a head a player was mailed is still in
the chain."""

from __future__ import annotations

import hmac
import re
from typing import Any

from games.models import Event, Game
from games.selectors.viewers import Viewer
from games.stream import commitment


def head_hash_at(game: Game, seq: int) -> str:
    return Event.objects.values_list("hash", flat=True).get(game=game, seq=seq)


def shown_hash(game: Game, hash_: str, *, reveal: bool) -> str | None:
    """An event's hash (the head's, the created event's) as a viewer may see
    it: a version-1 hash can give away hidden values (games.stream.chain), so only
    those who see everything get one."""
    return hash_ if game.chain_version >= 2 or reveal else None


HOW_TO_VERIFY = (
    "commitment = sha256(canonical_json(setup) + salt) as lowercase hex, where canonical_json "
    "is JSON with keys sorted, no whitespace (separators ',' and ':') and UTF-8 kept as is "
    "(Python: json.dumps(setup, sort_keys=True, separators=(',', ':'), ensure_ascii=False)). "
    "The commitment was published in the created event (seq 1) before the first move; "
    "the setup and salt are revealed when the game ends."
)


HOW_TO_VERIFY_CHAIN = (
    "Version 2: each event's hash = sha256(canonical_json({'prev': prev_hash, 'event': "
    "{'game', 'seq', 'kind', 'seat', 'source', 'created_at', 'payload': public_payload, "
    "'commitment'}})), where public_payload is the event's public_payload if shown, else its "
    "payload; the first prev_hash is 64 zeros. Where an event carries an opening (your own "
    "events; every event once the game is over), commitment = sha256(canonical_json(opening)). "
    "Version 1 (older games): hash = sha256(canonical_json({'prev': prev_hash, 'event': "
    "{'game', 'seq', 'kind', 'seat', 'source', 'created_at', 'actor': opening.actor, "
    "'payload': opening.payload}})), shown once the game is over."
)


def verification_of(game: Game, *, reveal: bool, head: int | None = None) -> dict[str, Any]:
    """The commitment record; `head_hash` as the viewer's head (default: now) stands."""
    created = Event.objects.get(game=game, seq=1)
    info: dict[str, Any] = {
        "id": game.pk,
        "commitment": created.payload["commitment"],
        "created_event_hash": shown_hash(game, created.hash, reveal=reveal),
        "head_hash": shown_hash(
            game,
            game.head_hash if head in (None, game.seq) else head_hash_at(game, head),
            reveal=reveal,
        ),
        "algorithm": "sha256",
        "how_to_verify": HOW_TO_VERIFY,
        "chain_version": game.chain_version,
        "how_to_verify_chain": HOW_TO_VERIFY_CHAIN,
        "revealed": reveal,
        # Imported from a document whose seals nothing here could check
        # (docs/guarantees.md, "Tamper evidence"): a fact of the game's origin, fixed at
        # the import, so it tells a delayed spectator nothing new.
        "imported_unverified": game.imported_unverified,
    }
    if reveal:
        setup = created.payload["setup"]
        info.update(
            setup=setup,
            salt=game.salt,
            matches=commitment.commit(setup, game.salt) == created.payload["commitment"],
        )
    return info


def verification(
    game: Game, viewer: Viewer, seen: tuple[int, str] | None = None
) -> dict[str, Any]:
    reveal = game.status != Game.Status.ACTIVE or viewer.moderator
    info = verification_of(game, reveal=reveal, head=viewer.head)
    if seen is not None:
        info["seen"] = seen_in_chain(game, viewer, *seen, reveal=reveal)
    return info


def seen_in_chain(game: Game, viewer: Viewer, seq: int, hash_: str, *, reveal: bool):
    """Whether a head the viewer was told of (a mail's seq and head hash) is
    still the chain's at that seq: cutting events off the end and moving
    the game row back leaves a chain whose seals all hold, and only those
    who were shown the old head can tell.

    Compared only with what this viewer may see: a delayed spectator's
    question about a seq past their head is not answered (a "no" would
    tell that the game has not got there, a "yes" what happened), and a
    version-1 hash only with those who see everything (it would be a test
    of every candidate for what the view hides)."""
    answer: dict[str, Any] = {"seq": seq, "hash": hash_, "chain_hash": None}
    if not reveal and game.chain_version < 2:
        return {**answer, "status": "hidden"}
    if seq > viewer.head:
        # Players, moderators and undelayed spectators see up to the head:
        # a seq past it is one the stream no longer holds.
        return {**answer, "status": "beyond_view" if viewer.delayed else "not_in_chain"}
    here = Event.objects.filter(game=game, seq=seq).values_list("hash", flat=True).first()
    if here is None:  # a stream with a gap: verify_games says where
        return {**answer, "status": "not_in_chain"}
    same = hmac.compare_digest(here, hash_)
    return {**answer, "chain_hash": here, "status": "in_chain" if same else "not_in_chain"}


# "41:3f0c..." as the API takes it, or the line a mail's footer carries.
_SEEN_FORMS = (
    re.compile(r"^\s*([1-9][0-9]{0,9})\s*:\s*([0-9a-fA-F]{64})\s*$"),
    re.compile(r"\bseq\s+([1-9][0-9]{0,9}),\s*event-chain head\s+([0-9a-fA-F]{64})\b"),
)


def parse_seen(text: str) -> tuple[int, str] | None:
    """A head as a person pastes it: `SEQ:HASH`, or a mail's "at seq S,
    event-chain head H"; None when it is neither."""
    for form in _SEEN_FORMS:
        found = form.search(text)
        if found and int(found[1]) <= 2**31 - 1:
            return int(found[1]), found[2].lower()
    return None
