"""VII.3.10: emergency financing and bankruptcy.

A company that must own a train and cannot pay the cheapest one the bank or
the pool sells (`emergency.financing`) raises the money in the draft's
order: the director pays in from their own cash and/or the company issues
shares; only then the director sells shares; when even that is not enough
the director is bankrupt and the game ends (`BANKRUPTCY`). The train itself
is bought in `steps.buy_train`, the cheapest one.

The second of the train purchase's three steps (see `steps.buy_train`): it
never blocks on its own.

| action | line |
|---|---|
| `{"type": "contribute", "amount": 60}` | `contribute 60` |
| `{"type": "emergency_issue"}` | `emergency issue` |
| `{"type": "emergency_sell", "company": "HG", "count": 1}` | `emergency sell HG 1` |
| `{"type": "bankrupt"}` | `bankrupt` |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...base import IllegalAction, same_json
from ...i18n import N_
from ...verbs import Slot, Verb, line
from ..data.companies import symbol
from ..refusals import WORDS, Refused, refusal, refuse
from ..rules import emergency, log, shares, turn
from ..words.names import company, money, share_gloss

_ = WORDS.gettext
ngettext = WORDS.ngettext

NAME = "buy trains"
# The result's `ended_by` when a director cannot finance a forced train.
BANKRUPTCY = "bankruptcy"

State = dict[str, Any]
Action = dict[str, Any]


def active(state: State) -> bool:
    return turn.buying_trains(state)


def blocking(state: State) -> bool:
    """Never on its own: `offer`, the purchase's last step, blocks for all three."""
    return False


def _sym(state: State) -> str:
    sym = turn.company(state)
    assert sym is not None
    return sym


def _director(state: State, sym: str) -> str:
    director = shares.director(state["certificates"], sym)
    assert director is not None
    return director


# --- legal moves -------------------------------------------------------------------


def legal(state: State, seat: int) -> list[Action]:
    if not active(state):
        return []
    record = turn.current(state)
    assert record is not None
    if record["offer"] is not None or not turn.is_director(state, seat):
        return []
    sym = _sym(state)
    if emergency.financing(state, sym) and emergency.deficit(state, sym) > 0:
        return _financing_moves(state, sym)
    return []


def _financing_moves(state: State, sym: str) -> list[Action]:
    """VII.3.10's order: the director's cash and the company's shares in any
    combination; then the director's sales; then bankruptcy."""
    director = _director(state, sym)
    out: list[Action] = []
    amount = emergency.contribution(state, sym, director)
    if amount > 0:
        out.append({"type": "contribute", "amount": amount})
    can_issue = emergency.issue_fault(state, sym) is None
    if can_issue:
        out.append({"type": "emergency_issue"})
    if amount == 0 and not can_issue:
        needed = emergency.deficit(state, sym)
        out += [
            {"type": "emergency_sell", "company": s, "count": n}
            for s, n in emergency.sales(state, director, needed)
        ]
    return out or [{"type": "bankrupt"}]


# --- apply ---------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> None:
    if not any(same_json(a, action) for a in legal(state, seat)):
        raise _why_not(state, seat, action)
    record = turn.current(state)
    assert record is not None
    sym = _sym(state)
    turn.reach(state, "buy_train")
    kind = action["type"]
    if kind == "bankrupt":
        # The game ends at once (the 18xx convention; the draft's passage is
        # missing) and the bankrupt player ranks last (`scoring`).
        state["end"] = {"reason": BANKRUPTCY, "bankrupt": seat}
        log.note(state, "end", **state["end"])
        return
    director = _director(state, sym)
    if kind == "contribute":
        emergency.contribute(state, sym, director, action["amount"])
    elif kind == "emergency_issue":
        emergency.issue(state, sym)
    else:
        emergency.sell(state, director, action["company"], action["count"])
    record["emergency"] = True


# --- why a move is refused ---------------------------------------------------------------


def _why_not(state: State, seat: int, action: Action) -> IllegalAction:
    before = turn.purchase_refusal(state, seat)
    if before is not None:
        return before
    why = _why_not_finance(state, _sym(state), action)
    if why:
        return refusal(why)
    return refuse("that {kind} is not a legal move now", kind=str(action.get("type")))


def _why_not_finance(state: State, sym: str, action: Action) -> Refused | None:
    kind = action.get("type")
    if not emergency.financing(state, sym) or emergency.deficit(state, sym) == 0:
        return refuse("{sym} needs no emergency financing now", sym=sym)
    director = _director(state, sym)
    if kind == "contribute":
        return refuse(
            "the director pays in ${amount}",
            amount=emergency.contribution(state, sym, director),
        )
    if kind == "emergency_issue":
        return emergency.issue_fault(state, sym)
    if kind == "emergency_sell":
        if state["cash"][director] > 0 or emergency.issue_fault(state, sym) is None:
            return refuse(
                "the director sells shares only after paying in all their cash and issuing"
            )
        sym_sold, count = action.get("company"), action.get("count")
        if not isinstance(sym_sold, str) or not isinstance(count, int):
            return refuse("name a company and a number of shares")
        return emergency.sale_fault(
            state, director, sym_sold, count, emergency.deficit(state, sym)
        )
    if kind == "bankrupt":
        return refuse("the director can still raise the money")
    return None


# --- the words of emergency financing ------------------------------------------------------


def _number(word: str, state: State) -> int:
    if not word.isdigit():
        raise refuse("{word} is not a whole number", word=repr(word))
    return int(word)


def _contribute_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} contributes {amount} to the train").format(
        who=who, amount=money(action["amount"])
    )


CONTRIBUTE = Verb(
    type="contribute",
    fields={"amount": Slot(read=_number)},
    lines=line("contribute {amount}"),
    says=_contribute_says,
    gloss=None,
    group=N_("Emergency"),
)
EMERGENCY_ISSUE = Verb(
    type="emergency_issue",
    fields={},
    lines=line("emergency issue"),
    says=N_("{who} issues shares in an emergency"),
    gloss=None,
    group=N_("Emergency"),
)


def _sell_says(action: Action, who: str, names: Sequence[str]) -> str:
    count = action["count"]
    return ngettext(
        "{who} sells {count} share of {company} in an emergency",
        "{who} sells {count} shares of {company} in an emergency",
        count,
    ).format(who=who, count=count, company=company(action["company"]))


EMERGENCY_SELL = Verb(
    type="emergency_sell",
    fields={
        "company": Slot(read=lambda word, state: symbol(state["companies"], word)),
        "count": Slot(read=_number),
    },
    lines=line("emergency sell {company} {count}"),
    says=_sell_says,
    gloss=lambda state, seat, action, names: share_gloss(state, action),
    group=N_("Emergency"),
)
BANKRUPT = Verb(
    type="bankrupt",
    fields={},
    lines=line("bankrupt"),
    says=N_("{who} goes bankrupt"),
    gloss=None,
    group=N_("Emergency"),
)

VERBS = (CONTRIBUTE, EMERGENCY_ISSUE, EMERGENCY_SELL, BANKRUPT)
ACTIONS = frozenset(verb.type for verb in VERBS)
