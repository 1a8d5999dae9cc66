"""Request body parsers that refuse what no field of this API can hold.

A body is refused with a 400 `parse_error` before any view sees it when it
is not valid text in its charset, when its JSON nests deeper than
CORREO_JSON_MAX_DEPTH (Python's decoder recurses once per level and would
run out of stack), when a number does not fit in 64 bits or is not finite,
when an object repeats a key (parsers disagree on which one wins), or when
any string in it, key or value, holds a NUL (PostgreSQL text refuses it) or
a lone surrogate (it cannot be encoded to UTF-8, so storing, hashing or
rendering it fails later).
"""

from __future__ import annotations

import itertools
import json
import math
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import DataAndFiles, get_encoding

# A JSON string, possibly unterminated: possessive, so that no input makes the
# scan backtrack, and always matching at a quote, so that it never retries.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")
_INT64 = 2**63


def nesting_depth(text: str) -> int:
    """How deep the brackets outside strings go, in time linear in the text.

    It never counts less than a JSON decoder would recurse on the same text:
    in the part a decoder accepts, strings are found exactly as it finds them.
    """
    structure = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, structure)), default=0)


def refuse_bad_characters(strings) -> None:
    for value in strings:
        found = _BAD_CHARACTER.search(value)
        if found is None:
            continue
        if found.group() == "\x00":
            raise ParseError("the body holds a NUL character (\\u0000), which no field accepts")
        raise ParseError(
            f"the body holds a lone surrogate (\\u{ord(found.group()):04x}), "
            "which is not a character"
        )


def strings_in(data):
    """Every key and string value of parsed JSON, found without recursion."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def _integer(digits: str) -> int:
    # The length is checked first: Python refuses to convert more than 4300
    # digits, with a message about its own internals.
    value = int(digits) if len(digits) <= 20 else None
    if value is None or not -_INT64 <= value < _INT64:
        raise ValueError("an integer does not fit in 64 bits")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(
            f"the number {text if len(text) <= 20 else text[:20] + '...'} is out of range"
        )
    return value


def _constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _object(pairs: list[tuple[str, object]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key[:40]!r} is given twice")
            seen.add(key)
    return result


def decode(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except ValueError as error:  # not only UnicodeDecodeError: punycode raises UnicodeError
        reason = getattr(error, "reason", error)
        raise ParseError(f"the body is not valid {encoding}: {reason}") from None


def load_json(text: str):
    """The parsed JSON of a body, or a ParseError saying what is wrong with it."""
    limit = settings.CORREO_JSON_MAX_DEPTH
    if nesting_depth(text) > limit:
        raise ParseError(f"JSON parse error - nested deeper than {limit} levels")
    try:
        data = json.loads(
            text,
            parse_int=_integer,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_object,
        )
    except ValueError as error:
        raise ParseError(f"JSON parse error - {error}") from None
    refuse_bad_characters(strings_in(data))
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})
        return load_json(decode(stream.read(), encoding))


class ImportParser(parsers.BaseParser):
    """JSON up to CORREO_IMPORT_MAX_BYTES: a game export outgrows the usual
    body limit (DATA_UPLOAD_MAX_MEMORY_SIZE).  Not a JSONParser: DRF reads
    the whole body under that limit for those before they parse."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.CORREO_IMPORT_MAX_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestDataTooBig(f"an import takes at most {limit} bytes")
        encoding = get_encoding(parser_context or {})
        return load_json(decode(raw, encoding))


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        refuse_bad_characters(itertools.chain(data.keys(), _values(data)))
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        result: DataAndFiles = super().parse(stream, media_type, parser_context)
        refuse_bad_characters(itertools.chain(result.data.keys(), _values(result.data)))
        return result


def _values(query_dict):
    for _, values in query_dict.lists():
        yield from values
