"""The titles by name: imported when first asked for, or all at once by a
web worker as it starts (`warm`), a broken title never stopping the others."""

from __future__ import annotations

import importlib
import logging
import runpy
from pathlib import Path

import pytest

from games.engines import registry


@pytest.fixture
def cold(monkeypatch):
    """A registry that has imported nothing yet (restored after)."""
    monkeypatch.setattr(registry, "_registry", {})
    return registry


def test_warm_imports_every_title(cold):
    assert cold.warm() == {}
    assert set(cold._registry) == set(registry.KNOWN_TITLES)


def test_a_title_that_fails_to_import_is_logged_and_the_others_still_serve(
    cold, monkeypatch, caplog
):
    real = importlib.import_module

    def importing(name, *args):
        if name == registry.KNOWN_TITLES["pointcity"]:
            raise RuntimeError("a half-written rule")
        return real(name, *args)

    monkeypatch.setattr(registry.importlib, "import_module", importing)
    with caplog.at_level(logging.ERROR, logger="games.engines.registry"):
        failed = cold.warm()
    assert failed == {"pointcity": "RuntimeError: a half-written rule"}
    assert set(cold._registry) == set(registry.KNOWN_TITLES) - {"pointcity"}
    assert "pointcity could not be imported" in caplog.text


def test_an_absent_title_is_skipped_without_a_word_as_the_lazy_import_skips_it(
    cold, monkeypatch, caplog
):
    titles = {**registry.KNOWN_TITLES, "ghost": "games.engines.no_such_title"}
    monkeypatch.setattr(registry, "KNOWN_TITLES", titles)
    with caplog.at_level(logging.ERROR, logger="games.engines.registry"):
        assert cold.warm() == {}
    assert "ghost" not in cold._registry and caplog.text == ""


def test_a_gunicorn_worker_warms_the_titles_once_it_has_loaded_the_app(cold):
    conf = runpy.run_path(str(Path(__file__).parents[2] / "deploy" / "gunicorn.conf.py"))
    conf["post_worker_init"](worker=None)
    assert set(cold._registry) == set(registry.KNOWN_TITLES)
