"""What a username is made of and which names are the same, for the rules
(accounts.rules), the user model's key column and the log-in's look-up.

Three forms of a name:

- `normal(name)`: NFKC, the form stored and shown.  A full-width "alice"
  (U+FF41 ...) is "alice" and "ﷺ" is the 18 characters it stands for, so lengths and
  characters are judged on what is kept, not on what was typed.
- `folded(name)`: the normal form without letter case (Unicode case folding,
  which knows that "STRASSE" is "straße"): what a log-in matches.
- `skeleton(name)`: the folded name with each character replaced by the one
  Unicode's confusables table (UTS #39) says it looks like, so that "alice"
  with a Cyrillic a (U+0430), "a1ice", "ALICE" and "alice" share a skeleton.  Two names
  with one skeleton would pass for each other in a list of players; `key(name)`
  is its digest, which the user model keeps in a unique column so that two
  sign-ups racing with look-alike names cannot both get in.  A second key,
  `look_key(name)`, keeps the letter case (a capital I looks like a small L,
  which folding would hide), in a unique column of its own.

The table comes from confusable_homoglyphs (the data django-registration
checks new names against): it keeps Unicode's pairs "source -> prototype"
both ways, and each class of look-alikes is a star around its prototype,
which is how the prototypes are found again here (`_prototypes`).
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from collections import defaultdict

MAX_LENGTH = 150
HELP = (
    f"Up to {MAX_LENGTH} letters and digits of one script, and . _ - ; "
    "it starts with a letter or a digit."
)
# Longer runs of combining marks only stack glyphs over their neighbours
# ("Zalgo" text); no script needs more than a few on one letter.
MAX_MARKS_IN_A_ROW = 4
PUNCTUATION = "._-"
# TR39's "highly restrictive" level: one script, or one of these sets, as
# Japanese mixes Han and the kana, Chinese Han and Bopomofo, Korean Han and
# Hangul (each with Latin).  Common (digits, . _ -) and Inherited (marks that
# take their letter's script) belong to any script.
SCRIPT_SETS = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
    {"LATIN", "HAN", "BOPOMOFO"},
    {"LATIN", "HAN", "HANGUL"},
)
ANY_SCRIPT = {"COMMON", "INHERITED"}
# Unicode's Default_Ignorable_Code_Point: drawn as nothing.  Most are format
# characters (refused as such); these ranges also hold letters and marks,
# such as the Hangul fillers (U+3164) and the variation selectors.
INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip


def normal(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def folded(name: str) -> str:
    """NFKC_Casefold as the Unicode standard defines it (R5 of UAX #31's
    caseless matching): folding can undo the normal form, so normalise again."""
    return normal(normal(name).casefold())


def skeleton(name: str, *, fold: bool = True) -> str:
    """The folded name with every character replaced by its prototype, in
    NFD as UTS #39 computes it, folded again after the replacement (a
    prototype may be a capital: "0" looks like "O") until nothing changes.

    With fold=False, the letter case kept: UTS #39's skeleton of the name as
    it is drawn.  Folding first loses a look-alike that lives in one case
    only: a capital I is drawn as a small L ("BiII" passes for "Bill"), but
    folded it is an i."""
    text = unicodedata.normalize("NFD", folded(name) if fold else normal(name))
    prototypes = _prototypes()
    for _ in range(4):  # two rounds suffice for every character; bounded all the same
        mapped = "".join(prototypes.get(char, char) for char in text)
        mapped = unicodedata.normalize("NFD", mapped.casefold() if fold else mapped)
        if mapped == text:
            break
        text = mapped
    return text


def _digest(text: str) -> str:
    """Fixed in size whatever the name (a skeleton can be seven times the
    name, and an index row has a limit)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def key(name: str) -> str:
    """The digest of the folded skeleton: one for every name that differs
    only in letter case, width or look-alike letters."""
    return _digest(skeleton(name))


def look_key(name: str) -> str:
    """The digest of the folded skeleton of the name's skeleton as drawn:
    "BiII" is drawn as "Bill", which is "bill" in any case."""
    return _digest(skeleton(skeleton(name, fold=False)))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character's prototype.  The library's table lists every pair
    both ways; in each class of look-alikes the prototype is the one linked to
    all the others (or the one of several characters, such as "rn" for "m":
    only prototypes are longer than one).  Of a class of two single
    characters either may be the prototype: the classes, which is all the
    comparison needs, come out the same."""
    # Imported here: its tables load with it (a megabyte of JSON), which only
    # a log-in or a sign-up needs, not every process that imports the models.
    from confusable_homoglyphs import confusables

    links: dict[str, set[str]] = defaultdict(set)
    for source, pairs in confusables.confusables_data.items():
        # The table wraps right-to-left characters in LEFT-TO-RIGHT MARKs.
        one = source.replace("\u200e", "")
        for pair in pairs:
            other = pair["c"].replace("\u200e", "")
            if one and other and one != other:
                links[one].add(other)
                links[other].add(one)
    prototypes: dict[str, str] = {}
    for start in links:
        if len(start) != 1 or start in prototypes:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in links[todo.pop()] - group:
                group.add(other)
                todo.append(other)
        longer = [member for member in group if len(member) > 1]
        hubs = [member for member in group if len(links[member]) == len(group) - 1]
        prototype = longer[0] if longer else min(hubs)
        for member in group:
            if len(member) == 1:
                prototypes[member] = prototype
    return prototypes


def is_invisible(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in INVISIBLE)


def is_allowed_character(char: str) -> bool:
    """A letter, a combining mark or a decimal digit of any script, or . _ -"""
    kind = unicodedata.category(char)
    return (kind[0] in "LM" or kind == "Nd" or char in PUNCTUATION) and not is_invisible(char)


def is_letter_or_digit(char: str) -> bool:
    """What a name starts with: not a mark (it would sit on what comes
    before the name) nor . _ -"""
    kind = unicodedata.category(char)
    return (kind[0] == "L" or kind == "Nd") and not is_invisible(char)


def longest_run_of_marks(name: str) -> int:
    longest = run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        longest = max(longest, run)
    return longest


def scripts(name: str) -> set[str]:
    """The scripts a name's characters belong to, Common and Inherited aside."""
    from confusable_homoglyphs import categories

    return categories.unique_aliases(name) - ANY_SCRIPT


def mixes_scripts(name: str) -> bool:
    found = scripts(name)
    return len(found) > 1 and not any(found <= allowed for allowed in SCRIPT_SETS)
