"""The account pages: sign up, the password pages (the reset mail through the
outbox, end to end), and my settings (mail, webhook, vacation)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from games.models import Vacation
from notifications.models import Notification

pytestmark = [pytest.mark.django_db, pytest.mark.mail]

GOOD = "a long passphrase 9"


def signup(client: Client, **fields) -> object:
    data = {"username": "dora", "email": "dora@example.org", "password1": GOOD,
            "password2": GOOD} | fields  # fmt: skip
    return client.post("/accounts/signup/", data)


# --- sign up ------------------------------------------------------------------


def test_the_signup_page_has_labelled_fields(page_as):
    html = page_as(None).get("/accounts/signup/").content.decode()
    for name in ("username", "email", "password1", "password2"):
        assert f'<label for="id_{name}"' in html
        assert f'id="id_{name}"' in html


def test_signing_up_makes_the_account_logs_in_and_goes_home(page_as):
    client = page_as(None)
    response = signup(client)
    assert response.status_code == 302 and response["Location"] == "/"
    dora = User.objects.get(username="dora")
    assert dora.email == "dora@example.org" and dora.check_password(GOOD)
    home = client.get("/").content.decode()
    assert "Your games" in home and 'href="/settings/"' in home and ">dora</a>" in home


@pytest.mark.parametrize(
    ("fields", "field", "says"),
    [
        ({"password2": "another long phrase 7"}, "password2", "the two passwords differ"),
        ({"password1": "123", "password2": "123"}, "password1", "too short"),
        ({"password1": "password", "password2": "password"}, "password1", "too common"),
        ({"password1": "dora.example", "password2": "dora.example"}, "password1", "similar"),
        ({"username": "bad name!"}, "username", "letters, digits"),
        ({"username": ""}, "username", "required"),
        ({"email": "not-an-email"}, "email", "valid email"),
        ({"email": ""}, "email", "required"),
    ],
)
def test_bad_signups_show_the_error_and_make_nothing(page_as, fields, field, says):
    response = signup(page_as(None), **fields)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and says in " ".join(errors[field])
    assert says in response.content.decode()
    assert not User.objects.filter(email="dora@example.org").exists()
    assert "_auth_user_id" not in response.client.session


def test_a_taken_username_is_refused_in_any_letter_case(page_as, alice):
    response = signup(page_as(None), username="ALICE")
    assert "that username is taken" in response.content.decode()
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_the_api_and_the_page_refuse_the_same_names(page_as, alice):
    """One set of rules (accounts.rules): what the API refuses, the page refuses."""
    from accounts.api import RegisterIn

    for name in ["Alice", "bad name!", "x" * 151, "tab\tname"]:
        api = RegisterIn(data={"username": name, "email": "d@example.org", "password": GOOD})
        assert not api.is_valid() and "username" in api.errors
        assert "username" in signup(page_as(None), username=name).context["form"].errors


def test_a_logged_in_player_is_sent_home_from_signup(page_as, alice):
    assert page_as(alice).get("/accounts/signup/")["Location"] == "/"


# --- the navigation -------------------------------------------------------------


def test_visitors_see_log_in_and_sign_up_players_their_settings(page_as, alice):
    visitor = page_as(None).get("/").content.decode()
    assert 'href="/accounts/login/"' in visitor and 'href="/accounts/signup/"' in visitor
    assert visitor.count('href="/accounts/signup/"') >= 2  # the nav and the welcome
    player = page_as(alice).get("/").content.decode()
    assert '<a href="/settings/" title="Your settings">alice</a>' in player
    assert 'href="/accounts/signup/"' not in player


def test_the_login_page_links_to_sign_up_and_the_reset(page_as):
    html = page_as(None).get("/accounts/login/").content.decode()
    assert 'href="/accounts/password_reset/"' in html and 'href="/accounts/signup/"' in html


# --- passwords ------------------------------------------------------------------


def test_changing_the_password(page_as, alice):
    client = page_as(alice)
    form = client.get("/accounts/password_change/").content.decode()
    for name in ("old_password", "new_password1", "new_password2"):
        assert f'<label for="id_{name}"' in form
    wrong = client.post("/accounts/password_change/", {
        "old_password": "not it", "new_password1": "fresh words 42",
        "new_password2": "fresh words 42",
    })  # fmt: skip
    assert wrong.status_code == 200 and "old_password" in wrong.context["form"].errors
    response = client.post("/accounts/password_change/", {
        "old_password": "correct horse 42", "new_password1": "fresh words 42",
        "new_password2": "fresh words 42",
    }, follow=True)  # fmt: skip
    assert response.redirect_chain[-1][0] == "/accounts/password_change/done/"
    assert "Password changed" in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password("fresh words 42")


def test_password_pages_need_a_login(page_as):
    response = page_as(None).get("/accounts/password_change/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.fixture
def eager_celery():
    """Delivery runs in-process, as the outbox queues it after the commit."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def mail_settings(settings):
    settings.CORREO_BASE_URL = "https://correo.test"
    settings.REPLY_DOMAIN = "play.correo.test"


def ask_reset(client: Client, email: str, capture) -> object:
    """Post the reset form; the outbox's delivery runs when the request commits."""
    with capture(execute=True):
        return client.post("/accounts/password_reset/", {"email": email})


def test_the_whole_reset_goes_through_the_outbox(
    page_as, alice, eager_celery, mail_settings, django_capture_on_commit_callbacks
):
    client = page_as(None)
    response = ask_reset(client, "ALICE@example.org", django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password_reset/done/"

    row = Notification.objects.get(kind=Notification.Kind.PASSWORD_RESET)
    assert (row.user, row.to_email, row.status) == (alice, "alice@example.org", "sent")
    assert row.context == {}  # the link is made as the mail is built, never stored
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert message.subject == "[Correo] choose a new password"
    assert message.extra_headers["Message-ID"] == row.message_id
    assert "List-Unsubscribe" not in message.extra_headers  # not a game mail
    link = re.search(r"https://correo\.test(/accounts/reset/\S+/)", message.body).group(1)
    assert link in message.alternatives[0][0]

    # Django's confirm view moves the token from the URL into the session.
    form = client.get(link, follow=True)
    assert "new_password1" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {
        "new_password1": "a brand new phrase 3", "new_password2": "a brand new phrase 3",
    }, follow=True)  # fmt: skip
    assert done.redirect_chain[-1][0] == "/accounts/reset/done/"
    assert "Password set" in done.content.decode()

    login = page_as(None).post(
        "/accounts/login/", {"username": "alice", "password": "a brand new phrase 3"}
    )
    assert login.status_code == 302 and login["Location"] == "/"
    # The link is spent: the password it was made for has changed.
    assert "does not work any more" in page_as(None).get(link, follow=True).content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_mail(
    page_as, alice, eager_celery, mail_settings, django_capture_on_commit_callbacks
):
    known = ask_reset(page_as(None), "alice@example.org", django_capture_on_commit_callbacks)
    unknown = ask_reset(page_as(None), "nobody@example.org", django_capture_on_commit_callbacks)
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert not Notification.objects.filter(to_email="nobody@example.org").exists()


def test_asking_again_soon_sends_no_second_mail(
    page_as, alice, eager_celery, mail_settings, django_capture_on_commit_callbacks
):
    for _ in range(3):
        ask_reset(page_as(None), "alice@example.org", django_capture_on_commit_callbacks)
    assert Notification.objects.filter(kind=Notification.Kind.PASSWORD_RESET).count() == 1
    assert len(mail.outbox) == 1


def test_the_reset_mail_goes_even_with_game_mail_off(
    page_as, alice, eager_celery, mail_settings, django_capture_on_commit_callbacks
):
    User.objects.filter(pk=alice.pk).update(notify_mode=User.NotifyMode.OFF)
    ask_reset(page_as(None), "alice@example.org", django_capture_on_commit_callbacks)
    assert [m.subject for m in mail.outbox] == ["[Correo] choose a new password"]


def test_a_made_up_reset_link_says_so(page_as, alice):
    html = page_as(None).get("/accounts/reset/MQ/set-password/", follow=True).content.decode()
    assert "does not work any more" in html


# --- settings -------------------------------------------------------------------


def test_settings_need_a_login(page_as):
    response = page_as(None).get("/settings/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_settings_page_shows_my_choices_and_budget(page_as, alice, settings):
    html = page_as(alice).get("/settings/").content.decode()
    for label, _ in User.NotifyMode.choices:
        assert f'value="{label}"' in html
    assert '<label for="id_webhook_url"' in html and '<label for="id_days"' in html
    assert f"<dt>Left</dt><dd>{settings.CORREO_VACATION_DAYS_PER_YEAR}" in html
    assert 'href="/accounts/password_change/"' in html


def test_saving_mail_settings(page_as, alice):
    response = page_as(alice).post("/settings/", {
        "notify_mode": "daily_digest", "webhook_url": "https://chat.example.org/hook",
        "language": "en",
    }, follow=True)  # fmt: skip
    assert "Settings saved." in response.content.decode()
    alice.refresh_from_db()
    assert (alice.notify_mode, alice.webhook_url) == (
        "daily_digest",
        "https://chat.example.org/hook",
    )
    page_as(alice).post("/settings/", {"notify_mode": "off", "webhook_url": "", "language": "en"})
    alice.refresh_from_db()
    assert (alice.notify_mode, alice.webhook_url) == ("off", "")


def test_the_settings_page_saves_the_language_of_the_mail(page_as, alice):
    page = page_as(alice)
    assert 'name="language"' in page.get("/settings/").content.decode()
    form = {"notify_mode": "every_turn", "webhook_url": "", "language": "de"}
    assert "Settings saved." in page.post("/settings/", form, follow=True).content.decode()
    alice.refresh_from_db()
    assert alice.language == "de"
    assert '<option value="de" selected>' in page.get("/settings/").content.decode()
    response = page.post("/settings/", {**form, "language": "xx"})
    assert "Nothing was changed" in response.content.decode()
    alice.refresh_from_db()
    assert alice.language == "de"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"notify_mode": "every_turn", "webhook_url": "ftp://example.org/x"}, "webhook_url"),
        ({"notify_mode": "every_turn", "webhook_url": "javascript:alert(1)"}, "webhook_url"),
        ({"notify_mode": "every_turn", "webhook_url": "example.org/hook"}, "webhook_url"),
        (
            {"notify_mode": "every_turn", "webhook_url": "https://x.org/" + "a" * 500},
            "webhook_url",
        ),
        ({"notify_mode": "sometimes", "webhook_url": ""}, "notify_mode"),
        ({"webhook_url": ""}, "notify_mode"),
    ],
)
def test_bad_settings_change_nothing(page_as, alice, data, field):
    User.objects.filter(pk=alice.pk).update(notify_mode="off", webhook_url="https://a.org/h")
    response = page_as(alice).post("/settings/", data)
    assert response.status_code == 200
    assert field in response.context["settings_form"].errors
    assert "Nothing was changed" in response.content.decode()
    alice.refresh_from_db()
    assert (alice.notify_mode, alice.webhook_url) == ("off", "https://a.org/h")


def test_the_api_and_the_page_refuse_the_same_webhooks(page_as, alice):
    from accounts.api import MeIn

    for url in ["ftp://example.org/x", "javascript:alert(1)", "example.org/hook"]:
        assert not MeIn(data={"webhook_url": url}).is_valid()
        response = page_as(alice).post("/settings/", {"notify_mode": "off", "webhook_url": url})
        assert "webhook_url" in response.context["settings_form"].errors


def test_starting_a_vacation(page_as, alice):
    response = page_as(alice).post("/settings/vacation/", {"days": "3"}, follow=True)
    html = response.content.decode()
    assert "Your vacation has begun" in html
    vacation = Vacation.objects.get(user=alice)
    assert (vacation.ends_at - vacation.starts_at).days == 3
    assert "not on vacation" not in html and "Start my vacation" not in html


@pytest.mark.parametrize("days", ["0", "-2", "999999999999999999999", "three", "", "1.5"])
def test_bad_vacation_days_start_nothing(page_as, alice, days):
    response = page_as(alice).post("/settings/vacation/", {"days": days})
    assert response.status_code == 200
    assert "days" in response.context["vacation_form"].errors
    assert "No vacation was started" in response.content.decode()
    assert not Vacation.objects.filter(user=alice).exists()


def test_the_service_refusals_are_form_errors(page_as, alice, settings):
    client = page_as(alice)
    client.post("/settings/vacation/", {"days": "2"})
    again = client.post("/settings/vacation/", {"days": "2"})
    assert "you are already on vacation" in again.content.decode()
    assert Vacation.objects.filter(user=alice).count() == 1

    Vacation.objects.all().delete()
    settings.CORREO_VACATION_DAYS_PER_YEAR = 5
    client.post("/settings/vacation/", {"days": "4"})
    over = client.post("/settings/vacation/", {"days": "2"})
    assert "not enough vacation left this year (1.0 days)" in over.content.decode()
    assert Vacation.objects.filter(user=alice).count() == 1


def test_an_empty_signup_names_every_missing_field(page_as):
    before = User.objects.count()
    response = page_as(None).post("/accounts/signup/", {})
    assert set(response.context["form"].errors) == {"username", "email", "password1", "password2"}
    assert User.objects.count() == before


def test_log_in_sign_up_and_reset_share_the_api_auth_rate(client, throttle_rates, alice):
    throttle_rates(anon="10000/min", user="100000/min", auth="3/min")
    wrong = {"username": "alice", "password": "not it"}
    for _ in range(2):
        assert client.post("/accounts/login/", wrong).status_code == 200
    client.post("/api/auth/token/", wrong, content_type="application/json")
    refused = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse 42"}
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert client.post("/accounts/signup/", {"username": "zed"}).status_code == 429
    assert client.post("/accounts/password_reset/", {"email": "a@b.c"}).status_code == 429
    assert client.get("/accounts/login/").status_code == 200  # reading the form is free


def test_the_admin_login_shares_the_auth_rate(client, throttle_rates, alice):
    """The admin's log-in is a door like the others (the per-account count:
    tests/accounts/test_lockout.py)."""
    throttle_rates(auth="3/min")
    wrong = {"username": "alice", "password": "not it", "next": "/admin/"}
    assert [client.post("/admin/login/", wrong).status_code for _ in range(2)] == [200, 200]
    client.post("/accounts/login/", wrong)
    refused = client.post("/admin/login/", wrong)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert client.get("/admin/login/").status_code == 200  # reading the form is free


def test_the_password_change_is_throttled_per_user_on_post(page_as, throttle_rates, alice, bob):
    """A stolen session must not become a way to try passwords: the count is
    the user's, whatever address each try comes from."""
    throttle_rates(password="3/hour")
    client = page_as(alice)
    wrong = {"old_password": "not it", "new_password1": "fresh words 42",
             "new_password2": "fresh words 42"}  # fmt: skip
    statuses = [client.post("/accounts/password_change/", wrong, REMOTE_ADDR=f"10.0.0.{i}")
                .status_code for i in range(3)]  # fmt: skip
    assert statuses == [200, 200, 200]
    refused = client.post(
        "/accounts/password_change/", {**wrong, "old_password": "correct horse 42"}
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    alice.refresh_from_db()
    assert alice.check_password("correct horse 42")
    assert client.get("/accounts/password_change/").status_code == 200  # reading is free
    assert page_as(bob).post("/accounts/password_change/", wrong).status_code == 200


def test_a_password_set_from_a_reset_mail_ends_the_wait(
    page_as, alice, eager_celery, mail_settings, django_capture_on_commit_callbacks, settings
):
    """The way out for a player whose name an attacker keeps failing on."""
    settings.CORREO_LOGIN_FAILURES_ALLOWED = 2
    wrong = {"username": "alice", "password": "not it"}
    for _ in range(2):
        page_as(None).post("/accounts/login/", wrong)
    right = {"username": "alice", "password": "correct horse 42"}
    assert page_as(None).post("/accounts/login/", right).status_code == 429

    client = page_as(None)
    ask_reset(client, "alice@example.org", django_capture_on_commit_callbacks)
    link = re.search(r"https://correo\.test(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": "a brand new phrase 3",
                                             "new_password2": "a brand new phrase 3"})  # fmt: skip
    login = page_as(None).post(
        "/accounts/login/", {"username": "alice", "password": "a brand new phrase 3"}
    )
    assert login.status_code == 302 and login["Location"] == "/"
