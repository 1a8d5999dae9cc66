"""Point City's moves: each action type declared once, with all its words.

    flip b3                       turn b3 to its building side
    draw                          take the top two pile cards
    take a1 b1                    take two adjacent market cards (nothing to pay)
    take a2 a3 pay energy2 ingenuity
                                  ... discarding a double energy and an Ingenuity card
    civic 8                       take civic token 8 from the display
    pass                          only when no draft is possible on the final turn

A verb's declaration (``games.engines.verbs``) holds its fields, the line a
player types (the engine's ``text`` writes it and ``parse`` reads it back,
so the two agree by construction), its narration, its gloss and its
heading in a mail.  ``take`` without ``pay`` picks the payment when there
is only one way to pay.  The gloss gets the state but only ever names what
the market and the display show face up; resources are named as
``describe`` names them on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import Action, IllegalAction, State
from ..i18n import N_, Words
from ..verbs import ABSENT, Moves, Slot, Verb, line
from .data import CARDS, STOCK_KINDS, TOKENS
from .describe import WIDTH, counted, joined, kind_name, seat_name, token_rule
from .market import BUILDING, INDEX, NAMES, SIZE
from .payment import canonical, permanent
from .scoring import ingenuity_cards, token_points
from .turn import take_actions

_words = Words("pointcity")
_ = _words.gettext
ngettext = _words.ngettext
refuse = _words.refuse

# The list of commands; a refusal that ends with it says it whole in its own
# msgid (one sentence for the translator), so those copies must match it.
HELP = N_("commands: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | civic 8 | pass")


# -- the fields: how each is typed and read back -----------------------------------


def _space(word: str, state: State | None = None) -> str:
    if word not in INDEX:
        raise refuse("'{word}' is not a market space (a1 to d4)", word=word)
    return word


def _spaces(words: str, state: State) -> list[str]:
    return sorted((_space(w) for w in words.split()), key=INDEX.__getitem__)


def _pay(words: str, state: State) -> Any:
    """``pay`` and the card kinds discarded; nothing said: ``ABSENT``, for
    ``take`` to pick the only way to pay."""
    kinds = words.split()[1:]
    if not words:
        return ABSENT
    unknown = [w for w in kinds if w not in STOCK_KINDS]
    if unknown:
        raise refuse(
            "cannot pay with '{kind}'; card kinds are: {kinds}",
            kind=unknown[0],
            kinds=", ".join(STOCK_KINDS),
        )
    return canonical(kinds)


def _write_pay(pay: list[str]) -> str:
    return f"pay {' '.join(pay)}" if pay else ""


SPACE = Slot(read=_space)
SPACES = Slot(pattern=r"\S+ \S+", write=" ".join, read=_spaces)
PAY = Slot(pattern=r"pay(?: \S+)*", write=_write_pay, read=_pay, optional=True)
TOKEN = Slot(pattern=r"\d+", read=lambda words, state: int(words))


# -- flip ------------------------------------------------------------------------------


def _flip_says(action: Action, who: str, names: Sequence[str]) -> str:
    if "space" not in action:
        return _("{who} flips a card to its building side").format(who=who)
    return _("{who} flips {space} to its building side").format(who=who, space=action["space"])


def _space_gloss(slot: dict[str, Any] | None) -> str:
    if slot is None:
        return _("nothing")
    card = CARDS[slot["card"]]
    if slot["side"] == BUILDING:
        if card.building == "civic":
            return _("{name} (civic)").format(name=card.name)
        return _("{name} {points} VP").format(name=card.name, points=card.points)
    return kind_name(card.stock_kind)


def _flip_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    slot = state["market"][INDEX[action["space"]]]
    return _("{card} card; its building is unseen").format(card=_space_gloss(slot))


FLIP = Verb(
    type="flip",
    fields={"space": SPACE},
    lines=line("flip {space}"),
    says=_flip_says,
    gloss=_flip_gloss,
    group=lambda state, seat, action: _("Flip a card"),
)


# -- draw ------------------------------------------------------------------------------


def _draw_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    if not state["pile"]:
        return None
    top = kind_name(CARDS[state["pile"][0]].stock_kind)
    return _("top card: {card}, then one unseen").format(card=top)


DRAW = Verb(
    type="draw",
    fields={},
    lines=line("draw"),
    says=N_("{who} draws the top two cards of the pile"),
    gloss=_draw_gloss,
    group=None,
)


# -- take -------------------------------------------------------------------------------


def _take_says(action: Action, who: str, names: Sequence[str]) -> str:
    spaces = [str(s) for s in action.get("spaces") or []]
    pay = action.get("pay") or []
    where = joined(spaces) if spaces else _("two market cards")
    if not pay:
        return _("{who} takes {spaces}").format(who=who, spaces=where)
    paying = _("{who} takes {spaces}, paying {paid}")
    said = paying.format(who=who, spaces=where, paid=counted([kind_name(str(k)) for k in pay]))
    if len(said) <= WIDTH:
        return said
    # A long payment keeps within a phone's width: in the pay command's
    # words, else as a count (stocks are open, so nothing is lost for good).
    said = paying.format(who=who, spaces=" ".join(spaces), paid=counted([str(k) for k in pay]))
    if len(said) <= WIDTH:
        return said
    return ngettext(
        "{who} takes {spaces}, paying {count} card",
        "{who} takes {spaces}, paying {count} cards",
        len(pay),
    ).format(who=who, spaces=where, count=len(pay))


def _take_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    got = " + ".join(_space_gloss(state["market"][INDEX[s]]) for s in action["spaces"])
    return got if len(got) <= 50 else got[:47] + "..."


def _take_group(state: State, seat: int, action: Action) -> str:
    """Takes by row (a vertical pair by both its rows)."""
    rows = sorted({NAMES.index(s) // SIZE + 1 for s in action["spaces"]})
    if len(rows) == 1:
        return _("Take from row {row}").format(row=rows[0])
    return _("Take from rows {first}-{last}").format(first=rows[0], last=rows[1])


def _only_payment(action: Action, state: State, seat: int) -> Action:
    """``take a1 b1`` without ``pay``: the one way to pay, asked for when
    there are several."""
    if "pay" in action:
        return action
    spaces = action["spaces"]
    options = [a for a in take_actions(state, seat) if a["spaces"] == spaces]
    if len(options) > 1:
        choices = " | ".join(MOVES.text(a) for a in options)
        raise refuse("say how to pay, one of: {choices}", choices=choices)
    return options[0] if options else {"type": "take", "spaces": spaces, "pay": []}


TAKE = Verb(
    type="take",
    fields={"spaces": SPACES, "pay": PAY},
    lines=line("take {spaces} {pay}"),
    usage=((r"take(?: .*)?", N_("take two market spaces, e.g.: take a1 b1 pay energy")),),
    complete=_only_payment,
    says=_take_says,
    gloss=_take_gloss,
    group=_take_group,
)


# -- civic --------------------------------------------------------------------------------


def _civic_says(action: Action, who: str, names: Sequence[str]) -> str:
    token_id = action.get("token")
    token = TOKENS.get(token_id) if isinstance(token_id, int) else None
    if token is None:
        return _("{who} takes a civic token").format(who=who)
    return _("{who} takes civic token {id} ({rule})").format(
        who=who, id=token.id, rule=token_rule(token)
    )


def _civic_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    token = TOKENS[action["token"]]
    player = state["seats"][seat]
    now = token_points(token, permanent(player["city"]), ingenuity_cards(player["stock"]))
    if token.kind == "flat":
        return token_rule(token)
    return _("{rule}: {points} now").format(rule=token_rule(token), points=now)


CIVIC = Verb(
    type="civic",
    fields={"token": TOKEN},
    lines=line("civic {token}"),
    says=_civic_says,
    gloss=_civic_gloss,
    group=None,
)


# -- pass ----------------------------------------------------------------------------------

PASS = Verb(
    type="pass",
    fields={},
    lines=line("pass"),
    says=N_("{who} passes: no draft is possible"),
    gloss=None,
    group=None,
)


# -- the title's moves ----------------------------------------------------------------------


def _normalise(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def _unread(text: Any) -> IllegalAction:
    if not isinstance(text, str) or not _normalise(text):
        return refuse(HELP)
    return refuse(
        "cannot read '{line}'; "
        "commands: flip b3 | draw | take a1 b1 [pay energy energy2 ingenuity] | "
        "civic 8 | pass",
        line=text.strip(),
    )


MOVES = Moves(
    _words,
    [DRAW, PASS, FLIP, TAKE, CIVIC],
    normalise=_normalise,
    unread=_unread,
    name=seat_name,
)
