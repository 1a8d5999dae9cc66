"""The Estates' moves: each action type declared once, with all its words.

    auction cube row2-left        stash, auction roof       auction permit2
    auction cancel                auction mayor             bid 3      pass
    give        keep              place lot b3              cancel permit 2
    mayor row a                   discard

A verb's declaration (``games.engines.verbs``) holds its fields, the line a
player types (the engine's ``text`` writes it and ``parse`` reads it back,
so the two agree by construction), the looser spellings the parser also
accepts (``auction row 2 left``, ``permit II``, ``mayor row 1``, ``place
b3``), its narration and its gloss, and how the board recalls the use of
a piece on the last turn.  Pieces and cubes are named as on the board
(``names.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..i18n import N_, Words
from ..verbs import ABSENT, Line, Moves, Slot, Verb, line
from .board import requirement
from .data import CUBE_COMPANY, CUBE_VALUE, ROWS, parse_lot
from .errors import IllegalAction, refuse
from .names import COLOURS, ROMAN, SPECIAL_NAMES, cube_name, piece_name, seat_name
from .pieces import display_slot

State = dict[str, Any]
Action = dict[str, Any]

_words = Words("estates")
_ = _words.gettext
ngettext = _words.ngettext

ROMAN_NUMBER = r"1|2|3|iii|ii|i"
_ROMAN = {"1": 1, "2": 2, "3": 3, "i": 1, "ii": 2, "iii": 3}
# A special as the object of "auctions" in a narration.
THE_SPECIAL = {
    "permit1": N_("the permit I"),
    "permit2": N_("the permit II"),
    "permit3": N_("the permit III"),
    "cancel": N_("the cancel cube"),
    "mayor": N_("the mayor"),
}


# -- the fields: how each is typed and read back -------------------------------


def _at(words: str, state: State) -> str:
    match = re.fullmatch(r"row\s*([1-3])\s*-?\s*(left|right)", words)
    assert match is not None  # the slot's pattern matched
    return f"row{match[1]}-{match[2]}"


def _piece(words: str, state: State) -> str:
    if words in ("roof", "rooftop"):
        return "roof"
    if words.startswith("cancel"):
        return "cancel"
    permit = re.fullmatch(rf"permit\s*-?\s*({ROMAN_NUMBER})", words)
    if permit:
        return f"permit{_ROMAN[permit[1]]}"
    return words  # the mayor


def _stash(words: str, state: State) -> Any:
    return True if words else ABSENT


def _row(words: str, state: State) -> str:
    return ROWS[int(words) - 1] if words.isdigit() else words


# Each pattern as the parser has always read it, over the line with one
# space between words.
AT = Slot(pattern=r"row\s*[1-3]\s*-?\s*(?:left|right)", read=_at)
PIECE = Slot(
    pattern=rf"roof|rooftop|mayor|cancel(?: cube)?|permit\s*-?\s*(?:{ROMAN_NUMBER})", read=_piece
)
# Others never learn of a stash: it is part of the choice, said first.
STASH = Slot(
    pattern="stash, ", write=lambda stash: "stash, " if stash is True else "", read=_stash,
    optional=True,
)  # fmt: skip
AMOUNT = Slot(pattern=r"\d{1,3}", read=lambda words, state: int(words))
LOT = Slot(
    pattern=r"[abc]\s*-?\s*(?:10|[1-9])", read=lambda words, state: re.sub(r"[\s-]", "", words)
)
PERMIT = Slot(pattern=ROMAN_NUMBER, read=lambda words, state: _ROMAN[words])
ROW = Slot(pattern=r"[abc1-3]", read=_row)


def _auctioned(state: State) -> tuple[dict[str, Any], str] | None:
    """The auction a move answers, and its piece by name; None outside one."""
    auction = state.get("auction")
    return None if auction is None else (auction, piece_name(auction["piece"]))


# -- choosing a piece to auction ------------------------------------------------------


def _choice(action: Action) -> str:
    piece = action.get("piece")
    if piece == "cube":
        slot = display_slot(action.get("at"))
        if slot is None:
            return _("a cube")
        if slot[1] == 0:
            return _("the display row {row} left-end cube").format(row=slot[0] + 1)
        return _("the display row {row} right-end cube").format(row=slot[0] + 1)
    if piece == "roof":
        return _("a roof")
    if str(piece) in THE_SPECIAL:
        return _(THE_SPECIAL[str(piece)])
    return _("the piece")


def _auction_says(action: Action, who: str, names: Sequence[str]) -> str:
    # Only the seat's own form holds the stash; the public form never does.
    if action.get("stash"):
        text = _("{who} stashes a cheque, auctions {piece}")
    else:
        text = _("{who} auctions {piece}")
    return text.format(who=who, piece=_choice(action))


def _auction_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    piece = action.get("piece")
    if piece == "cube":
        slot = display_slot(action.get("at"))
        if slot is None or not state["display"][slot[0]]:
            return None
        cube = state["display"][slot[0]][slot[1]]
        return _("{cube} cube ({colour})").format(
            cube=cube_name(cube), colour=_(COLOURS[CUBE_COMPANY[cube]])
        )
    if piece == "roof":
        left = len(state["roofs"])
        numbered = sum(1 for v in state["roofs"] if v)
        if left == numbered:
            return _("a face-down roof ({left} left)").format(left=left)
        return _("a face-down roof ({left} left, {blank} blank)").format(
            left=left, blank=left - numbered
        )
    if piece == "cancel":
        return _("cancel cube: removes a placed permit")
    if piece == "mayor":
        return _("mayor: doubles one row's score")
    if isinstance(piece, str) and piece in SPECIAL_NAMES:
        value = int(piece[-1])
        longer = ngettext(
            "{permit}: a row {count} lot longer or shorter",
            "{permit}: a row {count} lots longer or shorter",
            value,
        )
        return longer.format(permit=_(SPECIAL_NAMES[piece]), count=value)
    return None


AUCTION = Verb(
    type="auction",
    fields={"piece": PIECE, "at": AT, "stash": STASH},
    lines=(
        Line(
            "{stash}auction cube {at}",
            also=(r"{stash}(?:auction )?(?:cube )?{at}",),
            fixed={"piece": "cube"},
        ),
        Line("{stash}auction {piece}", also=(r"{stash}(?:auction )?{piece}",)),
    ),
    usage=(
        (
            r"stash\b.*",
            N_('stash on the same line as the piece you choose, e.g. "stash, auction roof"'),
        ),
    ),
    says=_auction_says,
    gloss=_auction_gloss,
    group=None,
)


# -- the auction -------------------------------------------------------------------------


def _bid_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if (auctioned := _auctioned(state)) is None:
        return None
    auction, piece = auctioned
    if auction["high_bidder"] is None:
        return _("first bid for {piece}").format(piece=piece)
    return _("for {piece}, over {high}").format(piece=piece, high=auction["high"])


BID = Verb(
    type="bid",
    fields={"amount": AMOUNT},
    lines=line("bid {amount}"),
    says=N_("{who} bids {amount}"),
    gloss=_bid_gloss,
    group=None,
)


def _pass_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if (auctioned := _auctioned(state)) is None:
        return None
    return _("no bid for {piece}").format(piece=auctioned[1])


PASS = Verb(
    type="pass",
    fields={},
    lines=line("pass"),
    says=N_("{who} passes"),
    gloss=_pass_gloss,
    group=None,
)


def _give_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if (auctioned := _auctioned(state)) is None:
        return None
    auction, piece = auctioned
    return _("sell {piece} for {price}").format(piece=piece, price=auction["high"])


GIVE = Verb(
    type="give",
    fields={},
    lines=line("give"),
    says=N_("{who} gives the piece to the high bidder"),
    gloss=_give_gloss,
    group=None,
)


def _keep_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if (auctioned := _auctioned(state)) is None:
        return None
    auction, piece = auctioned
    return _("pay {price}, keep {piece}").format(piece=piece, price=auction["high"])


KEEP = Verb(
    type="keep",
    fields={},
    lines=line("keep"),
    says=N_("{who} keeps the piece and pays the high bidder"),
    gloss=_keep_gloss,
    group=None,
)


# -- using the piece -------------------------------------------------------------------


def _lots(row: str, before: int, after: int) -> str:
    """ "row b: 4 -> 6 lots": a row's requirement changed by a permit."""
    text = ngettext(
        "row {row}: {before} -> {after} lots", "row {row}: {before} -> {after} lots", after
    )
    return text.format(row=row, before=before, after=after)


def _place_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if state.get("auction") is None:
        return None
    where = parse_lot(action.get("lot"))
    if where is None:
        return None
    r, n = where
    row = state["board"][r]
    piece = state["auction"]["piece"]
    kind = piece.get("kind")
    if kind == "cube":
        below = row["floors"][n]
        cube = cube_name(piece["cube"])
        if below:
            return _("{cube} on {below}").format(cube=cube, below=cube_name(below[-1]))
        return _("{cube}: new building").format(cube=cube)
    if kind == "roof":
        floors, roof = row["floors"][n], piece.get("value") or 0
        worth = sum(CUBE_VALUE[c] for c in floors) + roof
        top = cube_name(floors[-1])
        if len(floors) > 1:
            return _("roof {roof} on {top} ({floors} floors): worth {worth}").format(
                roof=roof, top=top, floors=len(floors), worth=worth
            )
        return _("roof {roof} on {top}: worth {worth}").format(roof=roof, top=top, worth=worth)
    if kind == "permit":
        return _lots(ROWS[r], requirement(row), n)
    return None


PLACE = Verb(
    type="place",
    fields={"lot": LOT},
    lines=line("place lot {lot}", r"place (?:lot )?{lot}"),
    says=N_("{who} places it on lot {lot}"),
    recalled=N_("{who} placed it on {lot}"),
    gloss=_place_gloss,
    group=None,
)


def _cancel_says(action: Action, who: str, names: Sequence[str]) -> str:
    roman = ROMAN.get(action.get("permit", 0), "?")
    return _("{who} cancels permit {roman}").format(who=who, roman=roman)


def _cancel_recalled(action: Action, who: str, names: Sequence[str]) -> str:
    roman = ROMAN.get(action.get("permit", 0), "?")
    return _("{who} cancelled permit {roman}").format(who=who, roman=roman)


def _cancel_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if state.get("auction") is None:
        return None
    for r, row in enumerate(state["board"]):
        for change in row["permits"]:
            if abs(change) == action.get("permit"):
                return _lots(ROWS[r], requirement(row), requirement(row) - change)
    return None


CANCEL = Verb(
    type="cancel",
    fields={"permit": PERMIT},
    lines=line("cancel permit {permit}", r"cancel (?:permit\s*)?{permit}"),
    says=_cancel_says,
    recalled=_cancel_recalled,
    gloss=_cancel_gloss,
    group=None,
)


def _mayor_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if state.get("auction") is None:
        return None
    row = action.get("row")
    mayor = state.get("mayor")
    if mayor is not None:
        return _("mayor from row {old} to row {new}: x2").format(old=ROWS[mayor], new=row)
    return _("row {row} scores double").format(row=row)


MAYOR = Verb(
    type="mayor",
    fields={"row": ROW},
    lines=line("mayor row {row}", r"mayor (?:row\s*)?{row}"),
    says=N_("{who} puts the mayor at row {row}"),
    recalled=N_("{who} put the mayor at row {row}"),
    gloss=_mayor_gloss,
    group=None,
)


def _discard_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if (auctioned := _auctioned(state)) is None:
        return None
    auction, piece = auctioned
    if auction["piece"].get("kind") == "cube":
        return None
    return _("{piece} leaves the game").format(piece=piece)


DISCARD = Verb(
    type="discard",
    fields={},
    lines=line("discard"),
    says=N_("{who} discards the piece"),
    recalled=N_("{who} discarded it"),
    gloss=_discard_gloss,
    group=None,
)


# -- the title's moves -------------------------------------------------------------------

# A stash said with the choice, however it is joined to it ("stash and
# auction roof", "STASH; auction mayor"), reads as the line writes it.
_STASH = re.compile(r"^stash\b\s*(?:[,;+]|\band\b|\bthen\b)?\s*(?=\S)")


def _normalise(text: str) -> str:
    clean = re.sub(r"\s+", " ", text.strip().lower().rstrip(".!"))
    return _STASH.sub("stash, ", clean)


def _unread(text: Any) -> IllegalAction:
    if not isinstance(text, str):
        # A guard, not a refusal: a mail's line is always text.
        return IllegalAction("a command is a line of text")
    return refuse("not understood: {line}", line=repr(text.strip()[:80]))


def recalled(used: Action, who: str) -> str:
    """The last turn's use of the piece as the board recalls it: its move
    in the past tense, or the house's use of a piece won by a seat that had
    left (``leaving.py``), which is no seat's move."""
    if used.get("type") == "house":
        return _("{who} had left; the house used it").format(who=who)
    return MOVES.recall(used, who)


MOVES = Moves(
    _words,
    [AUCTION, BID, PASS, GIVE, KEEP, PLACE, CANCEL, MAYOR, DISCARD],
    normalise=_normalise,
    unread=_unread,
    name=seat_name,
)
