"""The "changes nothing" fingerprint that thousands of refusals are checked
with: a check that could not see a change would let every one of them pass."""

import pytest

from accounts.models import User
from games.models import Game, Seat
from tests.conftest import make_user
from tests.support.rows import rows_of

pytestmark = pytest.mark.django_db


def test_the_fingerprint_sees_one_column_of_one_row_change_and_names_its_table():
    alice, bob = make_user("alice"), make_user("bob")
    before = rows_of(User, Game, Seat)
    assert rows_of(User, Game, Seat) == before
    User.objects.filter(pk=bob.pk).update(last_name="x")
    after = rows_of(User, Game, Seat)
    assert [table for table in before if before[table] != after[table]] == ["accounts_user"]
    User.objects.filter(pk=alice.pk).update(last_name="x")
    assert rows_of(User, Game, Seat) != after


def test_the_fingerprint_sees_a_row_come_and_go():
    before = rows_of(User)
    user = make_user("carol")
    assert rows_of(User) != before
    user.delete()
    assert rows_of(User) == before
