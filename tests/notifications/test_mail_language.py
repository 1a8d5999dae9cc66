"""Mail in the recipient's language: the preference, the German catalog, and
the mails it makes, refusals included (the titles' own words have their own
catalogues: tests/engines/test_words_catalogues.py)."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from notifications import inbound, render
from notifications.addresses import reply_address
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.notifications.conftest import new_duel, reply_mail
from tests.support.play import hand

CATALOG = Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def turn_mail(user):
    return render.build_message(Notification.objects.get(user=user, kind="your_turn"))


def speaks(user, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


@pytest.mark.django_db
def test_a_german_player_gets_a_german_turn_mail_with_the_titles_own_words(alice, bob):
    game = new_duel(alice, bob)
    english = turn_mail(alice)
    speaks(alice, "de")
    german = turn_mail(alice)
    assert german.subject == f"[Correo] Duel (test engine) #{game.pk}: du bist am Zug"
    body = german.body
    for heading in (
        "Hallo alice,\n\ndu bist am Zug in Duel (test engine)",
        ", du spielst als alice.",
        "Spieler: alice, bob",
        "\nDas Spiel, wie du es siehst:\n",
        "\nDeine möglichen Züge (antworte mit einer dieser Zeilen):\n",
        f"Spiel #{game.pk} bei seq 1",
        "Antworte auf diese Mail, um zu spielen",
        "Abbestellen: https://",
    ):
        assert heading in body
    assert "your turn" not in body and "The game as you see it" not in body
    # The board and the moves are the title's words: the same in both mails.
    for card in hand(game, 0):
        assert f"\n    commit {card}\n" in english.body
        assert f"\n    commit {card}\n" in body
    board = english.body.split("The game as you see it:\n")[1].split("\n\n")[0]
    assert board in body
    html = german.alternatives[0][0]
    assert "<b>Das Spiel, wie du es siehst</b>" in html
    assert "<b>Deine möglichen Züge</b>: tipp einen an" in html


@pytest.mark.django_db
def test_an_english_player_gets_english_whatever_language_is_active(alice, bob):
    game = new_duel(alice, bob)
    english = turn_mail(alice)
    with translation.override("de"):
        again = turn_mail(alice)
    assert again.subject == english.subject == f"[Correo] Duel (test engine) #{game.pk}: your turn"
    assert again.body == english.body
    assert again.alternatives == english.alternatives
    assert "Hello alice,\n\nit is your turn in " in english.body


@pytest.mark.django_db
def test_the_answer_to_a_reply_is_in_the_players_language_the_ledger_in_english(alice, bob):
    game = new_duel(alice, bob)
    speaks(alice, "de")
    inbound.receive(reply_mail(alice, game, 0, "moves"), door="test")
    answer = Notification.objects.get(user=alice, kind="reply")
    assert answer.context["results"][0]["message"] == "your legal moves are listed below"
    body = render.build_message(answer).body
    assert "> moves\n  OK: deine möglichen Züge stehen unten\n" in body
    assert render.build_message(answer).subject.endswith(": nichts ausgeführt")


@pytest.mark.django_db
def test_the_services_refusal_of_a_reply_is_in_the_players_language(alice, bob):
    game = new_duel(alice, bob)
    speaks(alice, "de")
    first, second = hand(game, 0)[:2]
    inbound.receive(reply_mail(alice, game, 0, f"commit {first}\ncommit {second}"), door="test")
    answer = Notification.objects.filter(user=alice, kind="reply").latest("id")
    refused = answer.context["results"][-1]
    assert refused["message"] == "it is not your turn"  # the ledger keeps English
    assert (
        f"> commit {second}\n  NICHT AUSGEFÜHRT: du bist nicht am Zug"
        in render.build_message(answer).body
    )


@pytest.mark.django_db
def test_a_titles_refusal_of_a_reply_is_in_the_players_language(alice, bob):
    from games.services.creation import do_create_game

    speaks(alice, "de")
    game = do_create_game(title="havana", players=[alice, bob], seed=1)
    inbound.receive(reply_mail(alice, game, 0, "flurble"), door="test")
    answer = Notification.objects.filter(user=alice, kind="reply").latest("id")
    refused = answer.context["results"][-1]
    assert refused["ok"] is False and refused["message_engine"]["domain"] == "havana"
    english, body = refused["message"], render.build_message(answer).body
    assert english not in body  # the ledger keeps English; the player reads German
    assert "nicht lesbar" in body


@pytest.mark.django_db
def test_a_refusal_to_an_accounts_address_is_in_that_accounts_language(alice, bob):
    game = new_duel(alice, bob)
    speaks(alice, "de")
    forged = reply_address(game.pk, 0, alice.pk).replace(f"+{game.pk}-0-", f"+{game.pk}-1-")
    outcome = inbound.receive(reply_mail(alice, game, 0, "commit 1", to=forged), door="test")
    assert outcome.reason == "bad_signature" and "not valid" in outcome.detail
    refusal = render.build_message(Notification.objects.get(kind="rejection"))
    assert refusal.subject == "[Correo] deine Mail wurde nicht angenommen"
    assert "die Antwortadresse ist ungültig" in refusal.body


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file (msgctxt, msgid, msgid_plural, msgstr,
    msgstr[n], flags), read with the standard library alone."""
    entries, entry, field = [], {}, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if "msgid" in entry:
                entries.append(entry)
            entry, field = {}, None
        elif line.startswith("#,"):
            entry["flags"] = line[2:].strip()
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field] += ast.literal_eval(line)
        else:
            field, value = line.split(" ", 1)
            entry[field] = ast.literal_eval(value)
    return entries


def po_catalog(entries: list[dict]) -> dict:
    """The entries as Python's gettext keeps a compiled catalog."""
    catalog: dict = {}
    for entry in entries:
        key = entry["msgid"]
        if "msgctxt" in entry:
            key = f"{entry['msgctxt']}\x04{key}"
        if "msgid_plural" in entry:
            for name, value in entry.items():
                if name.startswith("msgstr["):
                    catalog[(key, int(name[7:-1]))] = value
        else:
            catalog[key] = entry["msgstr"]
    return catalog


def mo_catalog(path: Path) -> dict:
    with path.open("rb") as mo:
        return dict(gettext.GNUTranslations(mo)._catalog)  # type: ignore[attr-defined]


def test_every_message_has_a_german_translation_with_the_same_placeholders():
    entries = po_entries(CATALOG / "django.po")
    assert len(entries) > 100
    for entry in entries:
        assert "fuzzy" not in entry.get("flags", ""), entry["msgid"]
        if not entry["msgid"]:
            continue  # the header
        translations = [v for k, v in entry.items() if k.startswith("msgstr")]
        for translation_ in translations:
            assert translation_.strip(), entry["msgid"]
            assert sorted(PLACEHOLDER.findall(translation_)) == sorted(
                PLACEHOLDER.findall(entry["msgid"])
            ), entry["msgid"]


def test_the_committed_mo_is_compiled_from_the_po(tmp_path):
    committed = mo_catalog(CATALOG / "django.mo")
    expected = po_catalog(po_entries(CATALOG / "django.po"))
    if shutil.which("msgfmt"):
        fresh = tmp_path / "django.mo"
        subprocess.run(["msgfmt", "--check", "-o", fresh, CATALOG / "django.po"], check=True)
        expected = mo_catalog(fresh)
    assert committed == expected, "run: manage.py compilemessages -l de"


@pytest.mark.django_db
def test_a_player_chooses_the_language_of_their_mail(alice):
    client = client_for(alice)
    response = client.patch("/api/auth/me/", {"language": "de"}, format="json")
    assert response.status_code == 200
    assert response.json()["language"] == "de"
    assert client.get("/api/auth/me/").json()["language"] == "de"
    alice.refresh_from_db()
    assert alice.language == "de"


@pytest.mark.django_db
def test_an_unknown_language_is_refused_and_changes_nothing(alice):
    client = client_for(alice)
    response = client.patch(
        "/api/auth/me/", {"language": "xx", "notify_mode": "off"}, format="json"
    )
    assert response.status_code == 400
    message = str(response.json())
    assert "xx" in message and "en, de" in message
    alice.refresh_from_db()
    assert (alice.language, alice.notify_mode) == ("en", "every_turn")
