"""The titles by API name: imported when first asked for, so a broken or
missing title never stops the others from loading."""

from __future__ import annotations

import importlib
import logging

from .protocol import Engine

# API name -> module path.
KNOWN_TITLES: dict[str, str] = {
    "havana": "games.engines.havana",
    "18cuba": "games.engines.cuba",
    "pointcity": "games.engines.pointcity",
    "estates": "games.engines.estates",
}

_registry: dict[str, Engine] = {}

log = logging.getLogger(__name__)


def register(engine: Engine) -> Engine:
    """Add a title (tests register their own small engines this way)."""
    _registry[engine.NAME] = engine
    return engine


def unregister(name: str) -> None:
    _registry.pop(name, None)


def get(name: str) -> Engine:
    """The engine for an API name; raises KeyError for an unknown title."""
    if name not in _registry and name in KNOWN_TITLES:
        module = importlib.import_module(KNOWN_TITLES[name])
        # A title package still under construction has no ENGINE yet.
        if hasattr(module, "ENGINE"):
            register(module.ENGINE)
    return _registry[name]


def _load(name: str) -> None:
    """Import a known title.  A title whose package is absent, or still
    under construction (no ENGINE yet), is skipped; a title that fails
    inside raises: it must not disappear silently."""
    try:
        get(name)
    except KeyError:
        return
    except ModuleNotFoundError as exc:
        if exc.name != KNOWN_TITLES[name]:
            raise


def available() -> dict[str, Engine]:
    """Every title that imports cleanly, by API name."""
    for name in KNOWN_TITLES:
        _load(name)
    return dict(_registry)


def warm() -> dict[str, str]:
    """Import every title now (a web worker, as it starts): the first move
    or page of a title in a fresh worker then does not wait for its import,
    some 100 ms for 18Cuba, after every start and recycle.  A title that
    fails to import is logged and returned (name: error), and the others
    are still imported: a worker serves them, as the lazy import would."""
    failed = {}
    for name in KNOWN_TITLES:
        try:
            _load(name)
        except Exception as error:  # one broken title must not stop a worker
            failed[name] = f"{type(error).__name__}: {error}"
            log.exception("the title %s could not be imported; the others serve", name)
    return failed
