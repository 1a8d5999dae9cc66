"""The engine tests run without Django (``-p no:django``).

tests/conftest.py has an autouse fixture that asks for pytest-django's
``settings``; this stand-in keeps that fixture satisfied here, where no
Django setting matters.
"""

from __future__ import annotations

import types

import pytest


@pytest.fixture
def settings():
    return types.SimpleNamespace()
