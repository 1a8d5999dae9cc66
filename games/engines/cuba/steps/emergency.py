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

from typing import Any

from ...base import IllegalAction
from ..data.companies import symbol
from ..refusals import Refused, refusal, refuse
from ..rules import emergency, shares, turn

NAME = "buy trains"
ACTIONS = frozenset({"contribute", "emergency_issue", "emergency_sell", "bankrupt"})
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
    if action not in legal(state, seat):
        raise _why_not(state, seat, action)
    record = turn.current(state)
    assert record is not None
    sym = _sym(state)
    turn.reach(state, "buy_train")
    kind = action["type"]
    if kind == "bankrupt":
        state["end"] = {"reason": BANKRUPTCY}
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


# --- mail lines ---------------------------------------------------------------------------


def text(action: Action) -> str:
    kind = action.get("type")
    if kind == "contribute":
        return f"contribute {action['amount']}"
    if kind == "emergency_issue":
        return "emergency issue"
    if kind == "emergency_sell":
        return f"emergency sell {action['company']} {action['count']}"
    if kind == "bankrupt":
        return "bankrupt"
    raise refuse("{kind} is not a train purchase", kind=repr(kind))


def parse(words: list[str], state: State, seat: int) -> Action | None:
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head == "bankrupt" and not rest:
        return {"type": head}
    if turn.company(state) is None:
        return None
    if head == "contribute" and len(rest) == 1:
        return {"type": "contribute", "amount": _number(rest[0])}
    if head == "emergency" and rest == ["issue"]:
        return {"type": "emergency_issue"}
    if head == "emergency" and len(rest) == 3 and rest[0] == "sell":
        sold = symbol(state["companies"], rest[1])
        return {"type": "emergency_sell", "company": sold, "count": _number(rest[2])}
    return None


def _number(word: str) -> int:
    if not word.isdigit():
        raise refuse("{word} is not a whole number", word=repr(word))
    return int(word)
