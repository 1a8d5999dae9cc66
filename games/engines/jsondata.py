"""State and actions are plain JSON data: copied, compared and serialised
here, the same way everywhere (hashes and byte-for-byte comparisons)."""

from __future__ import annotations

import json
from typing import Any


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of JSON state; faster than copy.deepcopy for plain data."""
    copied: dict[str, Any] = json.loads(json.dumps(state))
    return copied


def same_json(a: Any, b: Any) -> bool:
    """Equal as canonical JSON: equal, and of the same type all the way down
    (True is not 1, 1.0 is not 1), without serialising either."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(map(same_json, a, b))
    return bool(a == b)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# json.dumps builds an encoder, and the encoder its C core, on every call:
# for a small payload that was two thirds of the cost.  The C core is built
# once here with the same options (JSONEncoder.iterencode shows them), except
# the check for circular data, which JSON never is (it would recurse until
# Python's limit instead).
_make_c_encoder = getattr(json.encoder, "c_make_encoder", None)  # absent in pure-Python builds
_C_CANONICAL = (
    None
    if _make_c_encoder is None
    else _make_c_encoder(
        None, _CANONICAL.default, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
)


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing and byte-for-byte comparisons."""
    if _C_CANONICAL is None:
        return _CANONICAL.encode(value)
    return "".join(_C_CANONICAL(value, 0))
