"""The Estates tests are pure Python and run without Django (-p no:django)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing():
    """Override tests/conftest.py's autouse fixture, which needs pytest-django's
    ``settings``; nothing here hashes passwords."""
