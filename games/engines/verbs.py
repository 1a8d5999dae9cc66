"""A move's words, declared once per verb.

A title declares each action type it can produce (a verb) once, in its
``moves.py``: the action's fields and how each is written and read (a
`Slot`), the line a player types (a `Line`), what it says in a mail (its
narration), the few words after its line in a list of legal moves (its
gloss) and the heading it is listed under (its group).  `Moves` holds one
title's verbs, and ``EngineBase`` implements ``text``, ``parse``,
``narrate``, ``gloss`` and ``move_group`` from it, so no title dispatches on
``action["type"]`` for its words anywhere else.

``text`` and ``parse`` come from the same line: ``text`` fills the line's
slots with what each slot writes, ``parse`` matches the line (each slot by
its pattern) and has each slot read its words back.  So ``parse(text(a))
== a`` holds by construction wherever each slot reads back what it writes
and its pattern matches what it writes (tests/engines/test_moves.py plays
random games to hold every title to it).  A line may also accept looser
spellings (``also``); a player's line that is none of them is refused with
a verb's ``usage`` where one fits, else the title's own words.

A title whose lines depend on where the game is (18Cuba: ``buy MS`` in a
stock round, ``buy 3`` while a company buys trains) reads a line with the
verbs of one part of the game at a time (`Lines`), and still says every
move through one `Moves`.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction
from .i18n import Words

State = dict[str, Any]
Action = dict[str, Any]


class _Absent:
    """A field an action leaves out (an optional slot with nothing said)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


def _word(words: str, state: State) -> Any:
    return words


@dataclass(frozen=True)
class Slot:
    """How one field of an action is typed.

    ``pattern`` is a regular expression for its words in a line as the
    title normalises it (lower case, one space between words); ``write``
    gives the words for a value, ``read`` the value for words the pattern
    matched (refusing, with the title's words, what it cannot read).  An
    ``optional`` slot may be left out of a line: ``read`` then gets "" and
    may answer ``ABSENT`` to leave the field out of the action, and
    ``write`` gets ``ABSENT`` for a field the action does not have."""

    pattern: str = r"\S+"
    write: Callable[[Any], str] = str
    read: Callable[[str, State], Any] = _word
    optional: bool = False


@dataclass(frozen=True)
class Line:
    """A line a player types for a verb: words, and ``{field}`` where a
    slot's words go (``"play {card} on {cover}"``).

    ``fixed`` are the fields the line stands for without a slot
    (``"auction cube {at}"`` is ``piece="cube"``); ``text`` writes the first
    of a verb's lines whose fixed fields the action has.  ``also`` are
    looser spellings read as this line: regular expressions over the
    normalised line, where ``{field}`` stands for the slot's pattern."""

    template: str
    also: tuple[str, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def slots(self) -> list[str]:
        return [name for _, name, _, _ in string.Formatter().parse(self.template) if name]


Narration = Callable[[Action, str, Sequence[str]], str]
Gloss = Callable[[State, int, Action, Sequence[str]], "str | None"]
Group = Callable[[State, int, Action], "str | None"]
# A regular expression over a line and the msgid refusing it, with the
# msgid's values where it has some.
Usage = tuple[str, str] | tuple[str, str, Mapping[str, Any]]


@dataclass(frozen=True, kw_only=True)
class Verb:
    """One action type's words.  Narration, gloss and group have no
    default: a new verb says each, if only that it has none (None).

    ``says`` narrates a move (the action, the actor's name, every seat's
    name) and must say only what the action holds, which may be the public
    form other seats see; a str is a msgid formatted with the actor (the
    title's ``actor`` placeholder) and the action's fields.  ``gloss`` takes
    (state, seat, action, names), ``group`` (state, seat, action), both for
    a legal move; a str group is a msgid, the same heading for every move
    of the verb.  ``complete`` fills in what a line may leave out, from
    the position (Point City's payment when only one fits).  ``usage`` pairs
    a regular expression with the msgid refusing a line it matches that is
    none of the title's lines ("write steal pesos <seat> or ..."), and the
    msgid's values where it has some.  ``recalled`` is the move in the past
    tense, as ``says``, where a title's board recalls the last move (The
    Estates' "Last turn"); None: never."""

    type: str
    fields: Mapping[str, Slot]
    lines: tuple[Line, ...]
    says: Narration | str
    gloss: Gloss | None
    group: Group | str | None
    usage: tuple[Usage, ...] = ()
    complete: Callable[[Action, State, int], Action] | None = None
    recalled: Narration | str | None = None

    def __post_init__(self) -> None:
        for line in self.lines:
            unknown = set(line.slots()) | set(line.fixed)
            if not unknown <= set(self.fields):
                raise ValueError(f"{self.type}: {line.template!r} names no field of the verb")

    def text(self, action: Action) -> str:
        """The first of the verb's lines whose fixed fields ``action`` has,
        each slot filled with what it writes for the action's field
        (KeyError for a field the line needs and the action lacks)."""
        for ln in self.lines:
            if all(action.get(k, ABSENT) == v for k, v in ln.fixed.items()):
                said = {
                    name: self.fields[name].write(
                        action.get(name, ABSENT) if self.fields[name].optional else action[name]
                    )
                    for name in ln.slots()
                }
                return " ".join(ln.template.format(**said).split())
        raise ValueError(f"{self.type}: no line for {action!r}")


def line(template: str, *also: str, **fixed: Any) -> tuple[Line, ...]:
    """A verb with one line: ``lines=line("skip {card}")``."""
    return (Line(template, also=also, fixed=fixed),)


def _compiled(spelling: str, fields: Mapping[str, Slot], *, literal: bool) -> re.Pattern[str]:
    """A line's regular expression: a canonical line's words are literal,
    an ``also`` spelling's are a regex (braces doubled); each ``{slot}`` is
    its pattern, and an optional slot takes the space before it along."""
    out = []
    for text, name, _, _ in string.Formatter().parse(spelling):
        optional = name is not None and fields[name].optional
        lead = " " if optional and text.endswith(" ") else ""
        text = text[: len(text) - len(lead)]
        out.append(re.escape(text) if literal else text)
        if name is not None:
            group = f"(?P<{name}>{fields[name].pattern})"
            out.append(f"(?:{lead}{group})?" if optional else group)
    return re.compile("".join(out))


@dataclass(frozen=True)
class _Reading:
    verb: Verb
    line: Line
    pattern: re.Pattern[str]


class Lines:
    """The lines of some verbs, read: a title's whole set (`Moves`), or
    the verbs one part of the game takes (a step of 18Cuba's rounds)."""

    def __init__(self, words: Words, verbs: Sequence[Verb]) -> None:
        self.words = words
        # Every line as ``text`` writes it first, the looser spellings after:
        # a spelling never reads a written line as another move.
        lines = [(verb, ln) for verb in verbs for ln in verb.lines]
        self._readings = [
            _Reading(verb, ln, _compiled(ln.template, verb.fields, literal=True))
            for verb, ln in lines
        ] + [
            _Reading(verb, ln, _compiled(spelling, verb.fields, literal=False))
            for verb, ln in lines
            for spelling in ln.also
        ]
        self._usage = [
            (re.compile(usage[0]), usage[1], dict(usage[2]) if len(usage) > 2 else {})
            for verb in verbs
            for usage in verb.usage
        ]

    def read(self, said: str, state: State, seat: int) -> Action | None:
        """The action a normalised line says; None when it is none of these
        verbs' lines; a verb's ``usage`` refusal for a line it matches, a
        slot's when a word in it cannot be read."""
        for reading in self._readings:
            match = reading.pattern.fullmatch(said)
            if match is not None:
                return self._read(reading, match, state, seat)
        for usage, msgid, params in self._usage:
            if usage.fullmatch(said):
                raise self.words.refuse(msgid, **params)
        return None

    def _read(self, reading: _Reading, match: re.Match[str], state: State, seat: int) -> Action:
        verb, fixed = reading.verb, reading.line.fixed
        action: Action = {"type": verb.type}
        for name, slot in verb.fields.items():
            if name in fixed:
                action[name] = fixed[name]
            elif name in match.groupdict():
                value = slot.read(match.group(name) or "", state)
                if value is not ABSENT:
                    action[name] = value
        return verb.complete(action, state, seat) if verb.complete else action


class Moves:
    """One title's verbs, and the words of its moves made from them.

    ``normalise`` makes a player's line into what lines are matched
    against; ``unread`` is the title's refusal of a line that is none of
    its moves (also of one that is no text, or empty); ``name`` names a
    seat as the title's narrations do, and ``actor`` is the placeholder
    a str narration names the acting seat with."""

    def __init__(
        self,
        words: Words,
        verbs: Sequence[Verb],
        *,
        normalise: Callable[[str], str],
        unread: Callable[[Any], IllegalAction],
        name: Callable[[Sequence[str], Any], str],
        actor: str = "who",
    ) -> None:
        self.words = words
        self.verbs: dict[str, Verb] = {}
        for verb in verbs:
            if verb.type in self.verbs:
                raise ValueError(f"{words.folder}: verb {verb.type!r} is declared twice")
            self.verbs[verb.type] = verb
        self.normalise = normalise
        self.unread = unread
        self.name = name
        self.actor = actor
        self.lines = Lines(words, verbs)

    def verb(self, action: Action) -> Verb:
        """The declaration of ``action``'s type; ValueError when it has none
        (a move the title cannot say is a bug, never a vague line)."""
        kind = action.get("type") if isinstance(action, dict) else None
        verb = self.verbs.get(kind) if isinstance(kind, str) else None
        if verb is None:
            raise ValueError(f"{self.words.folder} declares no verb {kind!r}")
        return verb

    # -- the line a player types -------------------------------------------

    def text(self, action: Action) -> str:
        """The line of one of the engine's own actions; a guard (not a
        refusal) for anything else: the server only writes legal moves."""
        try:
            return self.verb(action).text(action)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise IllegalAction(f"not an action of {self.words.folder}: {action!r}") from exc

    def parse(self, text: Any, state: State, seat: int) -> Action:
        """The action a player's line says; the title's refusal when it is
        none of its moves, a slot's when a word in it cannot be read."""
        if not isinstance(text, str):
            raise self.unread(text)
        said = self.normalise(text)
        action = self.lines.read(said, state, seat) if said else None
        if action is None:
            raise self.unread(text)
        return action

    # -- the words around it -------------------------------------------------

    def narrate(self, action: Action, seat: int, names: Sequence[str]) -> str:
        return self._said(self.verb(action).says, action, self.name(names, seat), names)

    def recall(self, action: Action, who: str, names: Sequence[str] = ()) -> str:
        """A move made earlier, in the past tense, by ``who``."""
        verb = self.verb(action)
        if verb.recalled is None:
            raise ValueError(f"{self.words.folder}: {verb.type!r} is never recalled")
        return self._said(verb.recalled, action, who, names)

    def _said(self, words: Narration | str, action: Action, who: str, names: Sequence[str]) -> str:
        if isinstance(words, str):
            return self.words.gettext(words).format(**{**action, self.actor: who})
        return words(action, who, names)

    def gloss(self, state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
        verb = self.verb(action)
        return None if verb.gloss is None else verb.gloss(state, seat, action, names)

    def group(self, state: State, seat: int, action: Action) -> str | None:
        verb = self.verb(action)
        if isinstance(verb.group, str):
            return self.words.gettext(verb.group)
        return None if verb.group is None else verb.group(state, seat, action)
