"""The board in a mail: the same SVG the game page draws for the seat,
rendered to PNG (resvg, a maintained renderer with no system libraries to
install) and attached inline with a Content-ID.

Mail clients run no CSS variables and no stylesheet of ours, so the page's
stylesheet is resolved once for the light scheme (its custom properties put
in place) and handed to the renderer; the PNG carries every colour itself.
The text part stays complete without it: the picture is for the eye only.
"""

from __future__ import annotations

import functools
import logging
import re
from email.mime.image import MIMEImage
from pathlib import Path
from typing import Any

import boards

log = logging.getLogger(__name__)

CONTENT_ID = "board@correo"
WIDTH = 900  # pixels: sharp on a phone, small enough for a mail (tens of kB)
BACKGROUND = "#fdfcf8"
STYLESHEET = Path(__file__).resolve().parent.parent / "web" / "static" / "web" / "correo.css"
_DARK = re.compile(r"@media[^{]*prefers-color-scheme:\s*dark[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}")
_DEFINITION = re.compile(r"(--[\w-]+)\s*:\s*([^;}]+)")
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)")
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
_WRAPPER = re.compile(r"\.board(?:-[\w-]+)?\s+(?=[.\w#])")


@functools.cache
def _values() -> dict[str, str]:
    """The light scheme's custom properties, by name."""
    css = _DARK.sub("", STYLESHEET.read_text())
    return {name: value.strip() for name, value in _DEFINITION.findall(css)}


@functools.cache
def stylesheet() -> str:
    """correo.css for the light scheme with every var() put in place, and
    the boards' rules freed of the page's wrapper (`.board-cuba .track`
    becomes `.track`): the picture is the SVG alone."""
    css = _DARK.sub("", STYLESHEET.read_text())
    return _WRAPPER.sub("", resolved(css, _values()))


def resolved(text: str, values: dict[str, str]) -> str:
    def one(match: re.Match) -> str:
        return values.get(match.group(1), (match.group(2) or "currentColor").strip())

    for _ in range(5):  # a value may itself name another variable
        text, count = _VAR.subn(one, text)
        if not count:
            break
    return text


def png(title: str, view: dict[str, Any], seat: int | None, names: dict[int, str]) -> bytes | None:
    """The seat's board as PNG bytes, or None (a title without an SVG board,
    or a drawing the renderer refuses: the mail goes without a picture)."""
    import resvg_py

    found = _SVG.search(str(boards.render(title, view, seat, names)))
    if found is None:
        return None
    svg = found.group(0)
    if "xmlns=" not in svg.split(">", 1)[0]:
        svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    try:
        image = resvg_py.svg_to_bytes(
            svg_string=resolved(svg, _values()), style_sheet=stylesheet(),
            background=BACKGROUND, width=WIDTH,
        )  # fmt: skip
    except ValueError:
        log.exception("the %s board could not be drawn for a mail", title)
        return None
    return bytes(image)


def attachment(image: bytes) -> MIMEImage:
    part = MIMEImage(image, "png")
    part.add_header("Content-ID", f"<{CONTENT_ID}>")
    part.add_header("Content-Disposition", "inline", filename="board.png")
    return part
