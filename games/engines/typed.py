"""Typed JSON state: a copy derived from a TypedDict, and a check of a value
against one.

A title declares its state once, as TypedDicts (``<title>/state.py``).
``copier`` turns that declaration into the copy ``apply`` plays on: every
declared list and dict is copied as deep as its type goes, scalars and parts
marked ``Annotated[T, SHARED]`` (never changed in place, only replaced) are shared.  A key
cannot be forgotten in the copy, because nothing is listed by hand; a key
missing from the declaration is found by ``problems``, which the tests run
over real states of every title.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)
from typing import is_typeddict as _is_typeddict

from .base import clone

Copy = Callable[[Any], Any]


class _SharedMark:
    """Marks a part ``apply`` never changes in place: the copy shares it."""

    def __repr__(self) -> str:
        return "SHARED"


SHARED = _SharedMark()

_SCALARS = (int, float, str, bool, type(None))


def _identity(value: Any) -> Any:
    return value


def copy_any(value: Any) -> Any:
    """A copy of a value whose type is not declared: a scalar is itself (a
    JSON round trip of one costs about what one of a small dict does), the
    rest goes through JSON."""
    return value if type(value) in _SCALARS else clone(value)


@functools.cache
def _parts(tp: Any) -> tuple[Any, Any, tuple[Any, ...], bool]:
    """(type, origin, args, shared) with Annotated and NotRequired unwrapped."""
    shared = False
    while get_origin(tp) in (Annotated, NotRequired, Required):
        if get_origin(tp) is Annotated:
            tp, *marks = get_args(tp)
            shared = shared or SHARED in marks
        else:
            (tp,) = get_args(tp)
    return tp, get_origin(tp), get_args(tp), shared


def copier(tp: Any) -> Copy:
    """A function that copies a value of type ``tp`` for changing in place.

    It is generated as Python source, so it runs as fast as a copy written
    out by hand (the move path is benchmarked): ``dict(v)`` and then each
    mutable key copied as deep as its type goes.
    """
    gen = _CopyWriter()
    body = gen.expr(tp, "value")
    if body is None:
        return _identity
    gen.lines += ["def copy(value):", f"    return {body}"]
    namespace: dict[str, Any] = {"copy_any": copy_any}
    exec("\n".join(gen.lines), namespace)  # the source is built from types only
    copy: Copy = namespace["copy"]
    return copy


class _CopyWriter:
    """Writes the source of a copy: one function per TypedDict, expressions
    for lists, dicts and optional parts."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[Any, str] = {}

    def expr(self, tp: Any, value: str) -> str | None:
        """Source copying ``value`` (an expression) of type ``tp``; None when
        it is shared as it is."""
        tp, origin, args, shared = _parts(tp)
        if shared or tp in _SCALARS or origin is Literal:
            return None
        if tp is Any:
            return f"copy_any({value})"
        if _is_typeddict(tp):
            return f"{self.function(tp)}({value})"
        if origin is list:
            item = self.fresh()
            inner = self.expr(args[0], item)
            return f"list({value})" if inner is None else f"[{inner} for {item} in {value}]"
        if origin is dict:
            item = self.fresh()
            inner = self.expr(args[1], item)
            if inner is None:
                return f"dict({value})"
            return f"{{k: {inner} for k, {item} in {value}.items()}}"
        if origin in (Union, types.UnionType):
            return self.union(args, value)
        raise TypeError(f"no copy for type {tp!r}: declare JSON types only")

    def union(self, args: tuple[Any, ...], value: str) -> str | None:
        members = [a for a in args if a is not type(None)]
        mutable = [a for a in members if self.expr(a, "_") is not None]
        if not mutable:
            return None
        if len(mutable) > 1:
            return f"copy_any({value})"  # which member a value is would have to be guessed
        return f"(None if {value} is None else {self.expr(mutable[0], value)})"

    def function(self, tp: Any) -> str:
        if tp in self.names:
            return self.names[tp]
        name = self.names[tp] = f"copy_{tp.__name__}_{len(self.names)}"
        hints, required = _declared(tp)
        lines = [f"def {name}(v):", "    out = dict(v)"]
        for key, hint in hints.items():
            inner = self.expr(hint, f"v[{key!r}]")
            if inner is None:
                continue
            if key in required:
                lines.append(f"    out[{key!r}] = {inner}")
            else:
                lines.append(f"    if {key!r} in v:")
                lines.append(f"        out[{key!r}] = {inner}")
        self.lines += [*lines, "    return out", ""]
        return name

    def fresh(self) -> str:
        self.count = getattr(self, "count", 0) + 1
        return f"x{self.count}"


@functools.cache
def _declared(tp: Any) -> tuple[dict[str, Any], frozenset[str]]:
    hints = get_type_hints(tp, include_extras=True)
    return hints, frozenset(_required_keys(tp, hints))


def _required_keys(tp: Any, hints: dict[str, Any]) -> set[str]:
    """The keys a value must have.  Read from the evaluated hints, not from
    ``__required_keys__``: with postponed annotations Python 3.11 does not
    see ``NotRequired`` there."""
    required = set()
    for key, hint in hints.items():
        origin = get_origin(hint)
        while origin is Annotated:
            hint = get_args(hint)[0]
            origin = get_origin(hint)
        if origin is Required or (origin is not NotRequired and tp.__total__):
            required.add(key)
    return required


# -- checking a value against its declared type --------------------------------


def problems(value: Any, tp: Any, path: str = "state") -> list[str]:
    """Every way ``value`` departs from ``tp``: an undeclared or missing key,
    a value of another type.  Empty when it conforms."""
    tp, origin, args, _ = _parts(tp)
    if tp is Any:
        return []
    if tp in _SCALARS:
        return [] if _is_scalar(value, tp) else [f"{path} is {value!r}, not {tp.__name__}"]
    if origin is Literal:
        return [] if value in args else [f"{path} is {value!r}, not one of {args}"]
    if origin in (Union, types.UnionType):
        found = [problems(value, a, path) for a in args]
        if any(not p for p in found):
            return []
        return min(found, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{path} is not a list"]
        return [p for i, v in enumerate(value) for p in problems(v, args[0], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path} is not an object"]
        return [p for k, v in value.items() for p in problems(v, args[1], f"{path}.{k}")]
    if _is_typeddict(tp):
        return _typeddict_problems(value, tp, path)
    return [f"{path}: cannot check type {tp!r}"]


def _is_scalar(value: Any, tp: type) -> bool:
    if tp is float:
        return type(value) in (int, float)
    return type(value) is tp


def _typeddict_problems(value: Any, tp: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path} is not an object ({tp.__name__})"]
    hints, required = _declared(tp)
    found = [f"{path}.{key} is not declared in {tp.__name__}" for key in value if key not in hints]
    found += [f"{path}.{key} is missing" for key in required if key not in value]
    for key, hint in hints.items():
        if key in value:
            found += problems(value[key], hint, f"{path}.{key}")
    return found
