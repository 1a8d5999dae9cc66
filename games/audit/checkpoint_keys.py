"""The keys that sign checkpoints, and what a signed checkpoint says.

A checkpoint is signed with Ed25519 rather than sealed with the chain's
HMAC: a seal can be checked only by whoever holds its key, a signature by
anyone holding the public key, and checkpoints are for people outside the
server (witnesses, players) to hold it to its history.

The signing key is derived from the chain key (CHAIN_KEY), so an operator
has one secret to keep, rotate and retire: a retired chain key's checkpoint
key still checks the checkpoints it signed.  CHECKPOINT_KEY, 64 hex digits,
sets the seed directly instead (for a signer kept apart from the chain key).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

from games.engines.base import canonical_json

# Signed before the fields, so a checkpoint's signature can never be taken
# for a signature on anything else this key might one day sign.
PREFIX = "correo-checkpoint:"
FIELDS = ("game", "seq", "head_hash", "at", "final")


def message(record: dict[str, Any]) -> bytes:
    """The bytes a checkpoint's signature covers: its fields as canonical JSON."""
    return (PREFIX + canonical_json({name: record[name] for name in FIELDS})).encode()


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey

    @property
    def public_hex(self) -> str:
        return public_hex(self.private.public_key())

    @property
    def key_id(self) -> str:
        return key_id(self.public_hex)

    def sign(self, record: dict[str, Any]) -> str:
        return self.private.sign(message(record)).hex()


def public_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def key_id(public: str) -> str:
    """A short name for a public key (the first 16 hex digits of its sha256)."""
    return hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]


def _seed(chain_key: str) -> bytes:
    return hashlib.sha256(("correo-checkpoint-key:" + chain_key).encode()).digest()


@cache
def _signers(seed_hex: str, chain_key: str, retired: tuple[str, ...]) -> tuple[Signer, ...]:
    seeds = [bytes.fromhex(seed_hex) if seed_hex else _seed(chain_key)]
    seeds += [_seed(key) for key in retired if key]
    return tuple(Signer(Ed25519PrivateKey.from_private_bytes(seed)) for seed in seeds)


def signers() -> tuple[Signer, ...]:
    """The current signer first, then the retired chain keys' (to check with)."""
    return _signers(
        settings.CHECKPOINT_KEY, settings.CHAIN_KEY, tuple(settings.CHAIN_KEYS_RETIRED)
    )


def current() -> Signer:
    return signers()[0]


def public_keys() -> dict[str, str]:
    """Every public key this server signs or signed with, by key id."""
    return {signer.key_id: signer.public_hex for signer in signers()}


def signature_problem(record: dict[str, Any], public_keys_: dict[str, str]) -> str | None:
    """Why `record`'s signature does not hold under `public_keys_`, if it does not."""
    public = public_keys_.get(str(record.get("key_id", "")))
    if public is None:
        return f"signed with key {record.get('key_id')!r}, which is not one of the known keys"
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public))
        key.verify(bytes.fromhex(str(record.get("signature", ""))), message(record))
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return "signature does not hold (forged, or altered after signing)"
    return None
