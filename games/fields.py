"""A JSON column that keeps the text exactly as written.

PostgreSQL's jsonb reorders object keys; engine state read back from it could
then iterate in another order than the replay that wrote it.  Storing the JSON
text keeps snapshots and replays byte-for-byte identical on every database.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from django.db import models

# orjson reads JSON three times as fast as json does, and gives the same
# values for all it accepts but one case: an integer beyond 64 bits becomes a
# float instead of failing.  Text with 19 digits in a row may hold one, so
# json reads it; orjson refuses NaN, lone surrogates and overlong floats,
# and json reads those too.  tests/games/test_fields.py holds both to the
# same values.
_LONG_DIGITS = re.compile(r"\d{19}")


def from_text(text: str) -> Any:
    """`json.loads(text)`, faster: every snapshot a load reads and every
    payload a verification reads comes through here."""
    if _LONG_DIGITS.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def as_text(value: Any) -> str:
    """The text a JSONTextField stores for `value`."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class JSONTextField(models.TextField):
    description = "JSON stored as text, key order preserved"

    def from_db_value(self, value: str | None, expression, connection) -> Any:
        return None if value is None else from_text(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else as_text(value)

    def value_to_string(self, obj) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""
