"""The titles' own words in German: every string a title marks for
translation has a German translation in its compiled catalogue, with the
same placeholders, and the German is what a mail then says.

The marked strings are found in the source itself (calls to ``_``, ``N_``,
``refuse``, ``ngettext`` and ``pgettext`` with literal arguments), so a string added
without running ``make messages`` and translating it fails here, and so does
a ``.po`` translated but not compiled.
"""

from __future__ import annotations

import ast
import gettext
import string
from pathlib import Path

import pytest

from games.engines import i18n

FOLDERS = sorted(i18n.FOLDERS)
LANGUAGES = ["de"]


def marked(folder: str) -> set[str | tuple[str, str]]:
    """The msgids (and (context, msgid) pairs) a title's modules mark."""
    found: set[str | tuple[str, str]] = set()
    for path in sorted((i18n.ENGINES / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            texts = [a for a in args[:2] if isinstance(a, str)]
            if name in ("_", "N_", "gettext", "ngettext", "refuse") and texts:
                found.add(texts[0])  # a plural is kept under its singular
            elif name == "pgettext" and len(texts) == 2:
                found.add((texts[0], texts[1]))
    return found


def compiled(folder: str, language: str) -> gettext.GNUTranslations:
    path = i18n.ENGINES / folder / "locale" / language / "LC_MESSAGES" / f"{folder}.mo"
    assert path.exists(), f"{path} is missing: run make messages"
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def translations(catalogue: gettext.GNUTranslations) -> list[tuple[str, str]]:
    """(msgid or "context\x04msgid", translation) for every entry and
    plural form; the stdlib keeps no public list of a catalogue."""
    entries = []
    for key, value in catalogue._catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid:
            entries.append((msgid, value))
    return entries


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("folder", FOLDERS)
def test_every_marked_string_of_a_title_is_translated(folder, language):
    wanted = marked(folder)
    assert wanted, f"{folder} marks nothing for translation"
    table = dict(translations(compiled(folder, language)))
    keys = {m if isinstance(m, str) else f"{m[0]}\x04{m[1]}" for m in wanted}
    missing = sorted(k for k in keys if not table.get(k))
    assert not missing, f"{folder}: no {language} translation for {missing[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("folder", FOLDERS)
def test_a_translation_keeps_the_placeholders_of_its_english(folder, language):
    """A plural's English singular names every placeholder too ("{count}
    share"), so each form of each entry has exactly its msgid's."""
    wrong = [
        (msgid, text)
        for msgid, text in translations(compiled(folder, language))
        if placeholders(text) != placeholders(msgid.split("\x04")[-1])
    ]
    assert not wrong, f"{folder}: placeholders differ in {wrong[:5]}"


def test_a_language_without_a_catalogue_reads_in_english():
    words = i18n.Words("havana")
    with i18n.speaking("xx"):
        assert words.gettext("a message nobody translated") == "a message nobody translated"
    assert i18n.language() == "en"


def test_django_language_codes_become_gettext_locales():
    assert i18n.normalise("de-at") == "de_AT"
    assert i18n.normalise("de") == "de"
    assert i18n.normalise(None) == "en"


def test_the_language_is_spoken_only_inside_the_call():
    with i18n.speaking("de"):
        assert i18n.language() == "de"
        with i18n.speaking("en"):
            assert i18n.language() == "en"
        assert i18n.language() == "de"
    assert i18n.language() == "en"


def test_the_catalogues_are_committed_beside_their_titles():
    for folder in FOLDERS:
        po = Path(i18n.ENGINES / folder / "locale" / "de" / "LC_MESSAGES" / f"{folder}.po")
        assert po.exists(), f"{po} is missing"


def test_a_refusal_keeps_its_words_to_be_said_again_in_german():
    refusal = i18n.Words("estates").refuse("a test refusal {n}", n=3)
    assert refusal.message == "a test refusal 3"
    assert refusal.kept() == {"template": "a test refusal {n}", "params": {"n": 3},
                              "domain": "estates"}  # fmt: skip
    # Not in the catalogue: English, whatever the language.
    assert refusal.said("de") == "a test refusal 3"


def test_i18n_says_a_refusal_in_the_readers_language_and_a_plain_one_in_english():
    """Translation is i18n's: the error keeps only its msgid, values and
    catalogue (games.engines.errors imports nothing of i18n)."""
    from games.engines.errors import IllegalAction

    refusal = i18n.Words("havana").refuse("empty command")
    assert i18n.said(refusal, "de") == refusal.said("de") != "empty command"
    assert i18n.said(refusal, "en") == "empty command"
    plain = IllegalAction("a plain sentence")
    assert i18n.said(plain, "de") == plain.said("de") == "a plain sentence"


def test_a_refusal_from_an_unknown_catalogue_is_its_english_message():
    assert i18n.translated("../../etc", "x {n}", {"n": 1}, "de") == "x 1"
    assert i18n.translated(None, "x", {}, "de") is None


def test_every_title_speaks_through_a_catalogue_this_test_checks():
    from games.engines import base

    titles = {name: engine for name, engine in base.available().items() if engine.SAYS}
    assert {"havana", "estates", "pointcity", "18cuba"} <= set(titles)
    for name, engine in titles.items():
        assert engine.WORDS is not None and engine.WORDS.folder in i18n.FOLDERS, name
