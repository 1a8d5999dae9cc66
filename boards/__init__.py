"""Each title's board drawn in SVG from the engine's view, as one seat sees it:
for the game pages (web) and the mails (notifications.board_image) alike.

A title's module here (`havana`, `estates`, `pointcity`, `cuba`) exposes
`context(view, seat, names) -> dict` and draws with the template
`boards/<title>.html`, which receives that dict as `board`.  The board
only ever sees the engine's `view` for the viewing seat, never the state, so
it cannot show what the view hides.  A title without a board module yet is
drawn by the generic template: the view as nested lists.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

MODULES = {
    "havana": "boards.havana",
    "estates": "boards.estates",
    "pointcity": "boards.pointcity",
    "18cuba": "boards.cuba",
}


def render(
    title: str,
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    actions: Sequence[dict[str, Any]] = (),
) -> SafeString:
    """The board of `title` as HTML (an SVG figure and its captions);
    `actions` are the seat's legal moves, for a board that marks where they
    go (18Cuba's map: the hexes one may lay on lead to their tiles)."""
    module = _module(title)
    if module is None:
        return format_html('<div class="board board-generic">{}</div>', nested(view))
    if getattr(module, "TAKES_ACTIONS", False):
        board = module.context(view, seat, names, actions=actions)
    else:
        board = module.context(view, seat, names)
    template = f"boards/{getattr(module, 'TEMPLATE', title)}.html"
    return render_to_string(template, {"board": board, "view": view, "seat": seat, "names": names})


def has_own_moves(title: str) -> bool:
    """Whether the title's board offers every legal move itself (18Cuba's
    map and auction), in place of the page's list."""
    module = _module(title)
    return module is not None and hasattr(module, "own_moves")


def own_moves(
    title: str,
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    actions: Sequence[dict[str, Any]],
    **words: Any,
) -> dict[str, Any] | None:
    """The title's own controls for `actions` (a dict with the `template`
    the game page includes, rendered with the request so its forms carry
    the CSRF token), or None when the title has none."""
    module = _module(title)
    if module is None or not hasattr(module, "own_moves"):
        return None
    return module.own_moves(view, seat, names, list(actions), **words)


def clickable(
    title: str,
    view: dict[str, Any],
    seat: int | None,
    names: dict[int, str],
    moves: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """What the board of `title` offers `seat` to click (`boards.controls`),
    above the page's list of the same moves, from the view and the seat's
    legal moves in words; empty for a title whose board has no controls."""
    module = _module(title)
    if module is None or not hasattr(module, "controls") or seat is None or not moves:
        return []
    return module.controls(view, seat, names, moves)


def _module(title: str):
    name = MODULES.get(title)
    if name is None:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def nested(value: Any) -> SafeString:
    """Any view as nested definition lists, escaped: the fallback board."""
    if isinstance(value, dict):
        rows = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((k, nested(v)) for k, v in value.items())
        )
        return format_html("<dl>{}</dl>", rows)
    if isinstance(value, list):
        if not value:
            return mark_safe("&ndash;")
        return format_html(
            "<ol>{}</ol>", format_html_join("", "<li>{}</li>", ((nested(v),) for v in value))
        )
    if value is None:
        return mark_safe("&ndash;")
    return format_html("{}", value)
