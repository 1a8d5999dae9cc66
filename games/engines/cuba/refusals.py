"""18Cuba's refusals, kept so a mail can say them in its reader's language.

``raise refuse("{coord} has no tile to upgrade", coord=coord)`` where a rule
refuses a move outright (`Words.refuse`: the English message, and the msgid
and values besides).

Many rules only *say* why a move is refused and let the caller decide (a
``*_fault`` returns the sentence, None when the move is legal; a list of
legal moves asks the same function). Such a sentence is a `Fault`: still
the English ``str`` every caller compares, joins and raises, but it keeps
its msgid and values, so ``raise refusal(fault)`` refuses with the
translatable `IllegalAction`. The msgid is marked ``N_`` where it is
written: ``return reason(N_("{sym} has no share price"), sym=sym)``.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction
from ..i18n import Words

WORDS = Words("cuba")
refuse = WORDS.refuse

# Why a move is refused, as a step or a rules library says it: a refusal (its
# sentence kept to be said again in the player's language) or the English
# sentence a rules library's `*_fault` returns.
Refused = IllegalAction | str


class Fault(str):
    """The English sentence refusing a move, with its msgid and values."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Fault:
        said = super().__new__(cls, template.format(**params))
        said.template = template
        said.params = params
        return said


def reason(template: str, **params: Any) -> Fault:
    """The sentence refusing a move (`template` marked ``N_`` by the caller;
    values str or int: a mail keeps them as JSON)."""
    return Fault(template, **params)


def refusal(reason: str | IllegalAction) -> IllegalAction:
    """The refusal saying `reason`: a refusal as it is, translatable where it
    is a `Fault`, the plain English otherwise."""
    if isinstance(reason, IllegalAction):
        return reason
    if isinstance(reason, Fault):
        return refuse(reason.template, **reason.params)
    return IllegalAction(reason)
