"""A JSON column that keeps the text exactly as written.

PostgreSQL's jsonb reorders object keys; engine state read back from it could
then iterate in another order than the replay that wrote it.  Storing the JSON
text keeps snapshots and replays byte-for-byte identical on every database.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models


class JSONTextField(models.TextField):
    description = "JSON stored as text, key order preserved"

    def from_db_value(self, value: str | None, expression, connection) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    def value_to_string(self, obj) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""
