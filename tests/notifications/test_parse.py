"""Reading replies: a corpus of real-world-shaped mails (corpus/*.eml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notifications import parse

CORPUS = Path(__file__).parent / "corpus"

EXPECTED = {
    "gmail.eml": ["commit 5"],
    "gmail_wrapped.eml": ["draw"],
    "outlook.eml": ["pass", "Alice Example", "Head of Games"],
    "outlook_original_message.eml": ["commit 9"],
    "apple_mail.eml": ["state", "moves"],
    "mutt.eml": ["commit 5"],
    "html_only.eml": ["Commit 5"],
    "thunderbird.eml": ["help"],
    "empty_reply.eml": [],
}


def commands_of(name: str) -> list[str]:
    message = parse.parse_bytes((CORPUS / name).read_bytes())
    return parse.command_lines(parse.message_text(message))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_it_reads_the_commands_of_real_world_replies(name):
    assert commands_of(name) == EXPECTED[name]


def test_the_corpus_is_all_covered():
    assert sorted(p.name for p in CORPUS.glob("*.eml")) == sorted(EXPECTED)


def test_it_prefers_the_plain_part_and_falls_back_to_html():
    gmail = parse.parse_bytes((CORPUS / "gmail.eml").read_bytes())
    assert parse.message_text(gmail).startswith("commit 5")
    html = parse.parse_bytes((CORPUS / "html_only.eml").read_bytes())
    assert "commit 11" not in parse.message_text(html)  # the blockquote is dropped


def test_the_html_of_an_outlook_reply_stops_at_the_quoted_mail():
    message = parse.parse_bytes((CORPUS / "outlook.eml").read_bytes())
    html = message.get_body(preferencelist=("html",)).get_content()
    assert parse.command_lines(parse.html_to_text(html)) == [
        "pass",
        "Alice Example",
        "Head of Games",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("commit 5\n-- \nAlice\ncommit 9", ["commit 5"]),
        ("commit 5\n--\nAlice", ["commit 5"]),
        ("\n\n  commit 5  \n\n", ["commit 5"]),
        ("> commit 9\n\ncommit 5\n> commit 9", ["commit 5"]),
        ("commit\u00a05\u200b", ["commit 5"]),
        ("draw\n\nOn Mon, 1 Jan 2026, Correo <c@x> wrote:\n> pass", ["draw"]),
        ("draw\nAm 1. Januar 2026 um 10:00 schrieb Correo <c@x>:\n> pass", ["draw"]),
        ("draw\nFrom: Correo\nSent: today\n\npass", ["draw"]),
        ("draw\nSent from my iPhone\npass", ["draw"]),
        ("", []),
    ],
)
def test_it_stops_at_quotes_signatures_and_reply_headers(text, expected):
    assert parse.command_lines(text) == expected


def test_it_keeps_at_most_a_few_lines_and_cuts_long_ones():
    lines = parse.command_lines("\n".join(f"line {i} " + "x" * 1000 for i in range(50)))
    assert len(lines) == parse.MAX_COMMANDS + 1
    assert all(len(line) <= parse.MAX_LINE for line in lines)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe garbage \x80\x81",
        b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nbroken",
        b"Content-Type: text/plain; charset=no-such-charset\r\n\r\ncommit 5",
        b"Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!notbase64",
        b"Content-Type: text/html\r\n\r\n<div><p><blockquote><b>unclosed",
    ],
)
def test_garbage_gives_commands_or_unreadable_and_nothing_else(raw):
    try:
        text = parse.message_text(parse.parse_bytes(raw))
    except parse.Unreadable:
        return
    assert isinstance(parse.command_lines(text), list)


def test_an_orders_section_gathers_the_lines_after_it_behind_the_commands():
    text = "pass\nOrders: default  # every turn\n\nbid 3\nsay hi\n\n> quoted\n"
    assert parse.reply_lines(text) == [
        "pass", parse.Said("hi"), parse.Orders(("default", "bid 3")),
    ]  # fmt: skip
    assert parse.reply_lines("orders:\n\n") == []  # an empty section leaves nothing
    many = "orders:\n" + "\n".join(f"bid {n}" for n in range(30))
    [orders] = parse.reply_lines(many)
    assert len(orders.lines) == parse.MAX_ORDER_LINES
    assert parse.command_lines("move\norders: default") == ["move"]
