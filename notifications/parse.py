"""Reading a reply: the text of a message and its command lines.

Pure functions on the standard library's email package (no Django), so the
corpus tests in tests/notifications/corpus/ run fast.  The commands are the
first block of lines that are neither quoted nor a signature; everything from
a reply header ("On ... wrote:", Outlook's "From:/Sent:" block, "-----Original
Message-----"), a quote or a signature on is ignored.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage
from html.parser import HTMLParser

MAX_COMMANDS = 10
MAX_LINE = 300

_ATTRIBUTION = re.compile(
    r"^(on\s.+\swrote:|on\s.+|am\s.+\sschrieb.*:|le\s.+\sa\s+écrit\s*:|el\s.+\sescribió:)$",
    re.IGNORECASE,
)
_WROTE_END = re.compile(r"(wrote|schrieb|écrit|escribió)\s*:\s*$", re.IGNORECASE)
_SEPARATORS = re.compile(
    r"^(-{2,}\s*original message\s*-{2,}|_{10,}|-{5,}|begin forwarded message:"
    r"|sent from my \w+|get outlook for \w+|sent from (mail|outlook) for \w+)",
    re.IGNORECASE,
)
_HEADER_LINE = re.compile(r"^\*?(from|von|de)\s*:\*?\s", re.IGNORECASE)
_NEXT_HEADER = re.compile(r"^\*?(sent|date|to|subject|gesendet|envoyé)\s*:", re.IGNORECASE)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\ufeff\u2060"), None)


def parse_bytes(raw: bytes) -> EmailMessage:
    """Parse a raw RFC 822 message; the default policy gives decoded headers."""
    return email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[return-value]


def message_text(message: EmailMessage) -> str:
    """The reply's own text: text/plain if there is one, else text/html made plain."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    content = _decoded(part)
    if part.get_content_type() == "text/html":
        return html_to_text(content)
    return content


def _decoded(part) -> str:
    try:
        content = part.get_content()
    except (LookupError, UnicodeError, AssertionError, ValueError):
        payload = part.get_payload(decode=True) or b""
        content = payload.decode("utf-8", errors="replace")
    return content if isinstance(content, str) else content.decode("utf-8", errors="replace")


class _TextFromHtml(HTMLParser):
    BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "pre", "table", "hr"}
    SKIPPED = {"blockquote", "style", "script", "head", "title"}
    QUOTE_MARKS = ("gmail_quote", "gmail_signature", "moz-cite-prefix", "divrplyfwdmsg",
                   "applemailsignature", "moz-signature", "yahoo_quoted")  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip_tag: str | None = None
        self.skip_depth = 0
        self.stopped = False

    def handle_starttag(self, tag, attrs):
        if self.stopped:
            return
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_depth += 1
            return
        marks = " ".join(str(value).lower() for name, value in attrs if name in ("class", "id"))
        if "appendonsend" in marks:  # Outlook: everything after this is the quoted mail
            self.stopped = True
            return
        if tag in self.SKIPPED or any(mark in marks for mark in self.QUOTE_MARKS):
            self.skip_tag, self.skip_depth = tag, 1
            return
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_startendtag(self, tag, attrs):
        if not self.stopped and self.skip_tag is None and tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_depth -= 1
                if self.skip_depth == 0:
                    self.skip_tag = None
            return
        if not self.stopped and tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.stopped and self.skip_tag is None:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    parser = _TextFromHtml()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # html.parser is lenient; anything left over is garbage anyway
        pass
    text = "".join(parser.parts)
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def command_lines(text: str) -> list[str]:
    """The first block of own lines: not quoted, not a signature, not a reply header."""
    lines = text.translate(_INVISIBLE).replace("\xa0", " ").replace("\r\n", "\n").split("\n")
    commands: list[str] = []
    skip_to = -1
    for index, raw in enumerate(lines):
        line = raw.strip()
        if index <= skip_to:
            continue
        if raw.rstrip("\n") in ("-- ", "--") or line == "--":
            break
        if line.startswith((">", "|")):
            if commands:
                break
            continue
        following = lines[index + 1 : index + 4]
        if _attribution(line, following):
            if commands:
                break
            wrapped = [i for i, nxt in enumerate(following[:2]) if _WROTE_END.search(nxt)]
            if not _WROTE_END.search(line) and wrapped:
                skip_to = index + 1 + wrapped[0]
            continue  # bottom-posting: the own text may follow the quote
        if _SEPARATORS.match(line) or _outlook_header(line, following):
            break  # what follows is the original mail, unquoted
        if not line:
            continue
        commands.append(line[:MAX_LINE])
        if len(commands) > MAX_COMMANDS:
            break
    return commands


def _attribution(line: str, following: list[str]) -> bool:
    """ "On <date>, <someone> wrote:", perhaps wrapped over two lines; or any
    line ending in a colon right above a quote ("* Someone <a@b> [date]:")."""
    if line.endswith(":") and following and following[0].strip().startswith(">"):
        return True
    return bool(_ATTRIBUTION.match(line)) and bool(
        _WROTE_END.search(line)
        or any(_WROTE_END.search(nxt) for nxt in following[:2])
        or any(nxt.strip().startswith(">") for nxt in following[:2])
    )


def _outlook_header(line: str, following: list[str]) -> bool:
    """Outlook's "From: ... / Sent: ... / To: ..." block above the unquoted original."""
    return bool(_HEADER_LINE.match(line)) and any(
        _NEXT_HEADER.match(nxt.strip()) for nxt in following
    )
