"""Engine tests run without Django (-p no:django).

tests/conftest.py has an autouse fixture that needs pytest-django's `settings`;
this same-named no-op overrides it for the pure engine tests below.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing() -> None:
    return None
