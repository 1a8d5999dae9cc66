"""The custom user model and the moderator role."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command


def test_the_user_model_is_the_projects_own():
    assert get_user_model()._meta.label == "accounts.User"


def test_make_moderator_grants_and_revokes_the_role(alice):
    call_command("make_moderator", "alice")
    alice.refresh_from_db()
    assert alice.is_moderator
    call_command("make_moderator", "alice", "--revoke")
    alice.refresh_from_db()
    assert not alice.is_moderator


@pytest.mark.django_db
def test_make_moderator_names_an_unknown_user():
    with pytest.raises(CommandError, match="no user named 'zed'"):
        call_command("make_moderator", "zed")
