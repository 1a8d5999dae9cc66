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
from collections.abc import Iterator
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from html.parser import HTMLParser

MAX_COMMANDS = 10
MAX_LINE = 300

# What a mail may be before it is parsed at all.  The standard library's
# parser is recursive (a few thousand nested multiparts exhaust the stack) and
# its structured parse of an address header costs seconds for a long one, so
# a mail beyond these bounds is refused from its raw bytes.
MAX_HEADER_SECTION = 65_536  # all the headers (a long relay chain is ~20 kB)
MAX_HEADER = 16_384  # one header, folded lines included (RFC 5322 lines are 998)
MAX_PARTS = 100  # Content-Type headers: every level of nesting needs one
MAX_DEPTH = 20  # MIME levels within those parts

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


class Unreadable(ValueError):
    """The mail cannot be read as mail (whoever sent it): a permanent refusal."""


_LOGICAL_HEADER = re.compile(rb"\r?\n(?![ \t])")
_CONTENT_TYPE = re.compile(rb"^content-type[ \t]*:", re.IGNORECASE | re.MULTILINE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def header_section(raw: bytes) -> bytes:
    """The raw headers: up to the first empty line (the whole mail if it has no
    body), looking no further than one byte past MAX_HEADER_SECTION."""
    window = raw[: MAX_HEADER_SECTION + 4]
    ends = [i for i in (window.find(b"\r\n\r\n"), window.find(b"\n\n")) if i >= 0]
    return window[: min(ends)] if ends else window[: MAX_HEADER_SECTION + 1]


def check_raw(raw: bytes) -> None:
    """Raise Unreadable for a mail that is not fit to parse."""
    if b"\x00" in raw:
        raise Unreadable("the mail contains NUL bytes, which mail may not carry")
    head = header_section(raw)
    if len(head) > MAX_HEADER_SECTION:
        raise Unreadable(f"the headers of the mail are longer than {MAX_HEADER_SECTION} bytes")
    if any(len(line) > MAX_HEADER for line in _LOGICAL_HEADER.split(head)):
        raise Unreadable(f"a header of the mail is longer than {MAX_HEADER} bytes")
    if len(_CONTENT_TYPE.findall(raw)) > MAX_PARTS:
        raise Unreadable(f"the mail has more than {MAX_PARTS} MIME parts")


def check_parsed(message: Message) -> None:
    """Raise Unreadable for MIME nested deeper than MAX_DEPTH (walked without
    recursion, so that no depth can exhaust the stack here)."""
    stack = [(message, 1)]
    while stack:
        part, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Unreadable(f"the mail nests MIME parts more than {MAX_DEPTH} levels deep")
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend((child, depth + 1) for child in payload if isinstance(child, Message))


# The headers Correo reads; one that cannot be decoded exactly makes the mail
# unreadable (others, such as a relay's Received line, are never looked at).
READ_HEADERS = {
    "from", "to", "cc", "subject", "message-id", "in-reply-to", "references",
    "delivered-to", "x-original-to", "envelope-to", "auto-submitted", "precedence",
}  # fmt: skip


def check_headers(message: Message) -> None:
    """Raise Unreadable when a header Correo reads is not valid UTF-8 (raw, as
    RFC 6532 allows) or holds an encoded word that does not decode exactly."""
    for name, value in message.raw_items():
        if name.lower() in READ_HEADERS:
            _check_header(name.lower(), str(value))


def _check_header(name: str, value: str) -> None:
    try:
        value.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        raise Unreadable(f"the {name} header of the mail is not valid UTF-8") from None
    if "=?" not in value:
        return
    try:
        chunks = decode_header(value)
        text = "".join(
            chunk.decode(charset) if charset else chunk.decode("utf-8", "replace")
            for chunk, charset in chunks
            if isinstance(chunk, bytes)
        )
        text.encode("utf-8")
    except (LookupError, UnicodeError, ValueError):
        raise Unreadable(f"the {name} header of the mail has an encoded word that does "
                         "not decode") from None  # fmt: skip
    if _CONTROL.search(text.replace("\t", " ").replace("\r\n", " ")):
        raise Unreadable(f"the {name} header of the mail encodes control characters")


def parse_bytes(raw: bytes) -> EmailMessage:
    """Parse a raw RFC 822 message; the default policy gives decoded headers.
    Call check_raw first: the parser itself has no bounds."""
    return email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[return-value]


def parse_headers(raw: bytes) -> EmailMessage:
    """Only the headers (at most MAX_HEADER_SECTION bytes of them) of any raw
    bytes, however broken the rest; header() reads them without the cost of
    the structured parse."""
    head = header_section(raw)[:MAX_HEADER_SECTION].replace(b"\x00", b"")
    return BytesHeaderParser(policy=email.policy.default).parsebytes(head)  # type: ignore[return-value]


def clean(text: str) -> str:
    """Text fit to store and show: raw 8-bit UTF-8 (which the parser keeps as
    escapes) recovered, anything else undecodable replaced, control
    characters (NUL among them) dropped, whitespace runs made one space."""
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return " ".join(_CONTROL.sub(" ", text).split())


def headers(message: Message, name: str) -> list[str]:
    """Every `name` header as raw text (unfolded, cleaned, encoded words left
    as they are): addresses are read from this, never through the structured
    parse."""
    wanted = name.lower()
    return [clean(str(value)) for key, value in message.raw_items() if key.lower() == wanted]


def header(message: Message, name: str) -> str:
    found = headers(message, name)
    return found[0] if found else ""


def subject(message: Message) -> str:
    """The Subject with its encoded words decoded (never raises)."""
    value = header(message, "Subject")
    try:
        return clean(str(make_header(decode_header(value))))
    except Exception:  # an unknown charset or a broken encoded word: show it raw
        return value


def message_text(message: EmailMessage) -> str:
    """The reply's own text: text/plain if there is one, else text/html made
    plain.  Raises Unreadable when that text cannot be decoded exactly."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    content = _decoded(part)
    if part.get_content_type() == "text/html":
        return html_to_text(content)
    return content


def _decoded(part) -> str:
    """The part's text in its declared charset (UTF-8 when none is declared or
    the declared one is unknown), strictly: a command read from text with
    undecodable bytes, lone surrogates or NULs could be anything."""
    payload = part.get_payload(decode=True) or b""
    charset = str(part.get_content_charset() or "utf-8")
    try:
        text = payload.decode(charset)
    except LookupError:
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            # The charset's name is the sender's words: the reason may be
            # mailed to whoever the From names, so it does not repeat them.
            raise Unreadable("the text of the mail is in an unknown charset") from None
    except (UnicodeDecodeError, ValueError):
        raise Unreadable("the text of the mail does not decode in its declared charset") from None
    if "\x00" in text:
        raise Unreadable("the text of the mail contains NUL characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Unreadable("the text of the mail contains lone surrogates") from None
    return text


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
    return [item for item in reply_lines(text) if isinstance(item, str)]


@dataclass(frozen=True)
class Said:
    """Words for the table, from a reply's `say` lines (games.services.talk)."""

    text: str


@dataclass(frozen=True)
class Orders:
    """Standing orders to leave, from a reply's `orders:` section
    (games.services.orders): one per line, a move line as in the mail's
    list, a kind of order the title offers with its values, or `cancel`."""

    lines: tuple[str, ...]


# "say: ..." takes the rest of the reply's own lines; "say ..." its own line.
_SAY_BLOCK = re.compile(r"^say\s*:(.*)$", re.IGNORECASE)
_SAY_LINE = re.compile(r"^say\s+(\S.*)$", re.IGNORECASE)
MAX_SAID_LINES = 100
# "orders:" makes the following own lines orders (a seat keeps at most 20).
_ORDERS_BLOCK = re.compile(r"^orders\s*:(.*)$", re.IGNORECASE)
MAX_ORDER_LINES = 20


def reply_lines(text: str) -> list[str | Said | Orders]:
    """The reply's commands in order, what it says to the table, and the
    orders it leaves: a line `say <words>` is one message; a line `say:`
    makes the rest of the own lines one message, kept as written (a "#" in
    it is not a comment); a line `orders:` makes the lines after it (up to
    a `say`) standing orders, after the commands."""
    items: list[str | Said | Orders] = []
    block: list[str] | None = None
    orders: list[str] | None = None
    commands = 0
    for line in _own_lines(text):
        if block is not None:
            if len(block) < MAX_SAID_LINES:
                block.append(line)
            continue
        if opened := _SAY_BLOCK.match(line):
            block = [opened.group(1).strip()]
            continue
        if said := _SAY_LINE.match(line):
            items.append(Said(said.group(1).strip()))
            continue
        if opened := _ORDERS_BLOCK.match(line):
            orders = [] if orders is None else orders
            line = opened.group(1)
        # A move line copied from our mail may carry its gloss after "#".
        command = line.split("#", 1)[0].strip()
        if not command:
            continue
        if orders is not None:
            if len(orders) < MAX_ORDER_LINES:
                orders.append(command[:MAX_LINE])
            continue
        items.append(command[:MAX_LINE])
        commands += 1
        if commands > MAX_COMMANDS:
            break
    if orders:
        items.append(Orders(tuple(orders)))
    if block is not None and "\n".join(block).strip():
        items.append(Said("\n".join(block).strip()))
    return items


def _own_lines(text: str) -> Iterator[str]:
    """The first block of own lines, each stripped (empty ones too): not
    quoted, not a signature, not a reply header."""
    lines = text.translate(_INVISIBLE).replace("\xa0", " ").replace("\r\n", "\n").split("\n")
    found = False  # an own line that is more than a comment came before
    skip_to = -1
    for index, raw in enumerate(lines):
        line = raw.strip()
        if index <= skip_to:
            continue
        if raw.rstrip("\n") in ("-- ", "--") or line == "--":
            break
        if line.startswith((">", "|")):
            if found:
                break
            continue
        following = lines[index + 1 : index + 4]
        if _attribution(line, following):
            if found:
                break
            wrapped = [i for i, nxt in enumerate(following[:2]) if _WROTE_END.search(nxt)]
            if not _WROTE_END.search(line) and wrapped:
                skip_to = index + 1 + wrapped[0]
            continue  # bottom-posting: the own text may follow the quote
        if _SEPARATORS.match(line) or _outlook_header(line, following):
            break  # what follows is the original mail, unquoted
        found = found or bool(line.split("#", 1)[0].strip())
        yield line


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


REPORT_WORD = "report"


def report_reason(line: str) -> str | None:
    """The reason of a `report <reason>` line ("" when none is given), or
    None when the line is not a report."""
    word, _, rest = line.strip().partition(" ")
    if word.lower() != REPORT_WORD:
        return None
    return rest.strip()
