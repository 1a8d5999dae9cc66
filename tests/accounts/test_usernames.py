"""The username rules (accounts.rules, accounts.usernames) at every door that
makes a name: the API's register, the web's sign-up, the admin's forms; and
the log-in that finds an account by its name (the user manager).

Each door answers a refusal as a refusal: a 400 from the API, the form again
from the pages, never a 500, and no account is made."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import authenticate
from django.db import IntegrityError, connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from accounts import rules, usernames
from accounts.models import User
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

GOOD = "a long passphrase 9"
DOORS = ["api", "web"]


class Answer:
    def __init__(self, made: bool, said: str, status: int) -> None:
        self.made, self.said, self.status = made, said, status


def sign_up(door: str, name: str, email: str = "new@example.org") -> Answer:
    """Register `name` through the API or the web's sign-up form."""
    if door == "api":
        body = {"username": name, "email": email, "password": GOOD}
        response = APIClient().post("/api/auth/register/", body, format="json")
        assert response.status_code in (201, 400), response.content
        return Answer(response.status_code == 201, response.json().get("detail", ""),
                      response.status_code)  # fmt: skip
    data = {"username": name, "email": email, "password1": GOOD, "password2": GOOD}
    response = Client().post("/accounts/signup/", data)
    assert response.status_code in (200, 302), response.content
    if response.status_code == 302:
        return Answer(True, "", 302)
    form = response.context["form"]
    return Answer(False, " ".join(e for errors in form.errors.values() for e in errors), 200)


def refused(door: str, name: str, says: str, email: str = "new@example.org") -> None:
    before = User.objects.count()
    answer = sign_up(door, name, email)
    assert not answer.made, f"{name!r} was accepted"
    assert says in answer.said, answer.said
    assert User.objects.count() == before


def accepted(door: str, name: str, stored: str | None = None) -> None:
    answer = sign_up(door, name)
    assert answer.made, answer.said
    assert User.objects.filter(username=stored or name).exists()


# --- what a name is made of -------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
def test_names_are_measured_after_nfkc_normalisation(door):
    # nine characters typed, 162 kept: each stands for 18 (with spaces)
    refused(door, "\ufdfa" * 9, "1 to 150 characters")
    refused(door, "\ufdfa" * 8, "letters, digits and . _ - only, not U+0020")


@pytest.mark.parametrize("door", DOORS)
def test_names_are_1_to_150_characters_after_normalisation(door):
    accepted(door, "x" * 150)
    refused(door, "y" * 151, "1 to 150 characters")
    # four characters typed, 152 kept
    refused(door, "x" * 148 + "\u3392", "1 to 150 characters")  # ㎒ is "MHz"


@pytest.mark.parametrize("door", DOORS)
def test_a_name_is_stored_in_its_normal_form(door):
    accepted(door, "\uff44\uff4f\uff52\uff41", stored="dora")  # full-width


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("dora smith", "U+0020"),
        ("dora,smith", "U+002C"),
        ("dora(smith)", "U+0028, U+0029"),
        ("dora\u2474", "U+0028, U+0029"),  # ⑴ is "(1)"
        ("dora\U0001f102", "U+002C"),  # 🄂 is "1,"
        ("\ufdfb", "U+0020"),  # one character, two words
        ("do\u200bra", "U+200B"),  # zero-width space
        ("do\u200dra", "U+200D"),  # zero-width joiner
        ("do\u202era", "U+202E"),  # right-to-left override
        ("do\u00adra", "U+00AD"),  # soft hyphen
        ("do\u3164ra", "U+1160"),  # Hangul filler: a letter drawn as nothing
        ("do\ufe0fra", "U+FE0F"),  # variation selector: a mark drawn as nothing
        ("dora\u2800", "U+2800"),  # braille blank
        ("do\x07ra", "U+0007"),
        ("dora@example", "U+0040"),
        ("dora+1", "U+002B"),
        ("dora:1", "U+003A"),
        ("dora/1", "U+002F"),
    ],
)
def test_spaces_punctuation_control_and_invisible_characters_are_refused(door, name, shown):
    refused(door, name, f"letters, digits and . _ - only, not {shown}")


@pytest.mark.parametrize(
    "name",
    ["Zoë", "Straße", "Олег", "Ζωή", "山田たろう", "ハリー", "हिन्दी", "אבי", "dora_1.x-y",
     "Tokyo東京", "42"],
)  # fmt: skip
def test_letters_and_digits_of_any_script_and_dot_underscore_hyphen_are_allowed(name):
    accepted("api", name)


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("name", [".dora", "_dora", "-dora", "\u0301dora"])
def test_a_name_starts_with_a_letter_or_a_digit(door, name):
    refused(door, name, "starts with a letter or a digit")


@pytest.mark.parametrize("door", DOORS)
def test_at_most_four_marks_in_a_row(door):
    # overlays, which NFKC joins to no letter
    refused(door, "zo\u0334\u0335\u0336\u0337\u0334e", "at most 4 accents")
    accepted(door, "zo\u0334\u0335\u0336\u0337e")


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize(
    "name",
    [
        "\u0430lice",  # a Cyrillic a, then Latin
        "p\u0430ypal",
        "dor\u0430",
        "\u03b1lpha",  # a Greek alpha
        "\u0391lice",  # a Greek capital alpha
    ],
)
def test_mixed_script_names_are_refused(door, name):
    refused(door, name, "written in one script")


# --- names that pass for another --------------------------------------------


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize(
    "name",
    [
        "ALICE",
        "Alice",
        "\uff21\uff2c\uff29\uff23\uff25",  # full-width: normalised to ALICE
        "\uff41\uff4c\uff49\uff43\uff45",  # full-width, small
        "a1ice",
        "A1ICE",
        "\U0001d41a\U0001d425\U0001d422\U0001d41c\U0001d41e",  # mathematical bold
    ],
)
def test_a_name_confusable_with_an_existing_name_is_refused(door, name, alice):
    refused(door, name, "that username is taken, or looks the same as one that is")
    assert User.objects.count() == 1


@pytest.mark.parametrize("door", DOORS)
def test_a_capital_i_that_passes_for_a_small_l_is_refused(door):
    """Folded, a capital I is an i; drawn, it is a small L: the name is
    compared as drawn too."""
    make_user("bill")
    refused(door, "biII", "looks the same as one that is")
    refused(door, "BiII", "looks the same as one that is")
    accepted(door, "biIi")  # the look of "bili", which nobody has


@pytest.mark.parametrize("door", DOORS)
def test_a_whole_name_in_look_alike_letters_of_another_script_is_refused(door):
    make_user("ape")
    refused(door, "\u0430\u0440\u0435", "looks the same as one that is")  # all Cyrillic
    refused(door, "\u0410\u0420\u0415", "looks the same as one that is")  # capitals
    accepted(door, "\u043e\u043b\u0435\u0433")  # олег looks like no name here


@pytest.mark.parametrize("door", DOORS)
def test_a_name_that_looks_like_a_bots_is_reserved(door):
    # U+02D0 is a letter that looks like a colon: the name would pass for
    # the bot's account, and its key would block that account's making
    look_alike = "bot\u02d0greedy\u02d00"
    assert usernames.key(look_alike) == usernames.key("bot:greedy:0")
    refused(door, look_alike, "kept for Correo's bots")
    accepted(door, "bot-greedy")


def test_check_new_username_returns_the_normal_form():
    assert rules.check_new_username("\uff24\uff4f\uff52\uff41") == "Dora"


# --- the database's part ------------------------------------------------------


def test_the_key_column_refuses_look_alike_twins_in_the_database():
    User.objects.create(username="ace")
    for twin in ["ACE", "\u0430\u0441\u0435", "\u0410\u0421\u0415"]:
        with pytest.raises(IntegrityError), transaction.atomic():
            User.objects.create(username=twin)
    assert User.objects.count() == 1


def test_a_renamed_account_takes_its_new_key():
    dora = make_user("dora")
    dora.username = "Ace"
    dora.save(update_fields=["username"])
    assert User.objects.get(pk=dora.pk).username_key == usernames.key("ace")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="\u0430\u0441\u0435")


def twin_committed_meanwhile(monkeypatch, twin: str) -> None:
    """The rules pass, then another request commits `twin` before this one's
    insert: what two sign-ups at the same moment do."""
    honest = rules.check_new_username

    def check_then_lose_the_race(value, **kwargs):
        name = honest(value, **kwargs)

        def other_request():
            try:
                User.objects.create_user(twin, "twin@example.org", GOOD)
            finally:
                connection.close()

        thread = threading.Thread(target=other_request)
        thread.start()
        thread.join()
        return name

    monkeypatch.setattr(rules, "check_new_username", check_then_lose_the_race)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("door", DOORS)
def test_two_sign_ups_racing_with_look_alike_names_make_one_account(door, monkeypatch):
    twin_committed_meanwhile(monkeypatch, "\u0430\u0441\u0435")  # all Cyrillic
    answer = sign_up(door, "ace")
    assert not answer.made and rules.TAKEN in answer.said
    [account] = User.objects.all()
    assert account.username == "\u0430\u0441\u0435"


@pytest.mark.postgres
def test_an_email_too_long_for_its_column_is_a_400_not_a_500():
    long_email = "d" * 64 + "@" + ".".join(["e" * 63, "f" * 63, "g" * 63, "h" * 40]) + ".org"
    assert 254 < len(long_email) <= 320
    refused("api", "dora", "no more than 254 characters", email=long_email)
    refused("web", "dora", "at most 254 characters", email=long_email)


@pytest.mark.postgres
@pytest.mark.parametrize("door", DOORS)
def test_a_value_the_rules_let_by_and_the_column_cannot_hold_is_no_500(door, monkeypatch):
    """Were the rules ever to let a longer name by, the column's refusal
    (DataError on PostgreSQL) is still an answer to the client."""
    monkeypatch.setattr(usernames, "MAX_LENGTH", 1000)
    refused(door, "x" * 200, "too long")


# --- log-in -------------------------------------------------------------------


def log_in(door: str, name: str, password: str = "correct horse 42") -> bool:
    if door == "api":
        body = {"username": name, "password": password}
        response = APIClient().post("/api/auth/token/", body, format="json")
        assert response.status_code in (200, 400)
        return response.status_code == 200
    path = "/admin/login/?next=/admin/" if door == "admin" else "/accounts/login/"
    response = Client().post(path, {"username": name, "password": password})
    assert response.status_code in (200, 302)
    return response.status_code == 302


LOG_IN_DOORS = ["web", "admin", "api"]


@pytest.mark.parametrize("door", LOG_IN_DOORS)
@pytest.mark.parametrize("typed", ["Mo", "MO", "mo", "\uff2d\uff4f"])  # the last full-width
def test_log_in_matches_the_name_in_any_letter_case_and_width(door, typed):
    make_user("Mo", is_staff=True, is_superuser=True)
    assert log_in(door, typed)


@pytest.mark.parametrize("door", LOG_IN_DOORS)
def test_a_look_alike_name_does_not_log_in(door):
    make_user("alice", is_staff=True, is_superuser=True)
    assert log_in(door, "alice")
    for typed in ["a1ice", "\u0430lice", "aiice"]:
        assert not log_in(door, typed)


def test_the_wrong_password_does_not_log_in_whatever_the_case(alice):
    assert authenticate(username="ALICE", password="not it") is None
    assert authenticate(username="ALICE", password="correct horse 42") == alice


# --- the admin ------------------------------------------------------------------


@pytest.fixture
def admin_client():
    root = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(root)
    return client


def test_the_admin_applies_the_rules_to_a_new_name(admin_client, alice):
    response = admin_client.post(
        "/admin/accounts/user/add/",
        {"username": "A1ICE", "password1": GOOD, "password2": GOOD, "usable_password": "true"},
    )
    assert response.status_code == 200
    assert "looks the same as one that is" in response.content.decode()
    assert not User.objects.filter(username="A1ICE").exists()


def change_form(user: User, **fields) -> dict:
    return {
        "username": user.username, "email": user.email, "is_active": "on",
        "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00",
        "notify_mode": user.notify_mode, "language": user.language,
    } | fields  # fmt: skip


def test_the_admin_refuses_a_look_alike_for_a_new_name(admin_client, alice, bob):
    response = admin_client.post(f"/admin/accounts/user/{bob.pk}/change/",
                                 change_form(bob, username="\u0430lice"))  # fmt: skip
    assert response.status_code == 200
    assert "written in one script" in response.content.decode()
    response = admin_client.post(f"/admin/accounts/user/{bob.pk}/change/",
                                 change_form(bob, username="a1ice"))  # fmt: skip
    assert response.status_code == 200 and "looks the same" in response.content.decode()
    bob.refresh_from_db()
    assert bob.username == "bob"


def test_the_admin_keeps_a_name_from_before_the_rules(admin_client):
    old = User.objects.create(username="old_name@example", email="old@example.org")
    response = admin_client.post(f"/admin/accounts/user/{old.pk}/change/",
                                 change_form(old, email="new@example.org"))  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    old.refresh_from_db()
    assert (old.username, old.email) == ("old_name@example", "new@example.org")


def test_the_admin_edits_an_account_whose_name_has_marks(admin_client):
    """Django's own username validator refuses combining marks, which the
    rules allow (Devanagari's vowel signs): the admin judges by the rules."""
    hindi = make_user("हिन्दी")
    response = admin_client.post(f"/admin/accounts/user/{hindi.pk}/change/",
                                 change_form(hindi, email="new@example.org"))  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    hindi.refresh_from_db()
    assert hindi.email == "new@example.org"
