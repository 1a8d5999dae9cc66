"""VII.3.9, VII.3.14: a phase change that lowers the majors' train limit
leaves some of them holding too many trains or wagons. "Trains that are
surplus as the result of a phase change go into the bank pool"; which ones
is the director's choice, as at the table, one card at a time.

    {"type": "discard", "company": "MS", "card": "3"}    discard MS 3

(`discard 3`: the card of the company asked now.)

The step is active while a major is over its limit (`rolling_stock.over_limit`,
computed from the charters, so nothing is stored) and blocks everything else:
the phase change happens in the middle of a purchase or at the export that
ends a set of ORs, and the game goes on only once every surplus card is in
the pool. The companies are asked in the printed order of the charters; the
one asked is the first over its limit, and its director acts
(`turn.acting_account`). A card a company holds several of is listed once;
when every card it could give up is the same, the round gives it up for
the director (a move without a choice). A director who lets the clock run
out gives up the cheapest card, the oldest of equals (`timeout`), which was
the engine's own pick before the choice was theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...base import same_json
from ...verbs import ABSENT, Slot, Verb, line
from ..data.companies import symbol
from ..refusals import WORDS, refusal, refuse
from ..rules import rolling_stock, shares
from ..rules.cash import player
from ..words.names import card_name, company, fit, money

_ = WORDS.gettext

NAME = "discard surplus trains"

State = dict[str, Any]
Action = dict[str, Any]


def asked(state: State) -> tuple[str, list[str]] | None:
    """The company whose director chooses now and the cards it may give up
    (each once, in the order it holds them), or None."""
    over = rolling_stock.over_limit(state)
    if not over:
        return None
    sym = over[0][0]
    charter = state["companies"][sym]
    cards = [card for s, key in over if s == sym for card in charter[key]]
    return sym, list(dict.fromkeys(cards))


def active(state: State) -> bool:
    return state["round"]["kind"] == "operating" and asked(state) is not None


def blocking(state: State) -> bool:
    return active(state)


def director(state: State) -> str | None:
    """The account of the director who chooses now, or None."""
    now = asked(state) if state["round"]["kind"] == "operating" else None
    return None if now is None else shares.director(state["certificates"], now[0])


def legal(state: State, seat: int) -> list[Action]:
    now = asked(state) if active(state) else None
    if now is None or director(state) != player(seat):
        return []
    sym, cards = now
    return [{"type": "discard", "company": sym, "card": card} for card in cards]


def timeout(state: State, seat: int) -> Action | None:
    """The clock's choice: the cheapest card, the oldest of equals."""
    now = asked(state) if active(state) else None
    if now is None or director(state) != player(seat):
        return None
    sym, _cards = now
    charter = state["companies"][sym]
    over = [key for s, key in rolling_stock.over_limit(state) if s == sym]
    held = [card for key in over for card in charter[key]]
    return {"type": "discard", "company": sym, "card": rolling_stock.surplus(held)}


def apply(state: State, seat: int, action: Action) -> None:
    if any(same_json(a, action) for a in legal(state, seat)):
        rolling_stock.discard(state, action["company"], action["card"])
        return
    if set(action) != {"type", "company", "card"}:
        raise refuse("write: {usage}", usage="discard <company> <card>, e.g. discard MS 3")
    if director(state) != player(seat):
        raise refuse("only the director of a company over its train limit discards its cards")
    now = asked(state)
    assert now is not None
    if action["company"] != now[0]:
        raise refuse("{sym} gives up its surplus cards first", sym=now[0])
    fault = rolling_stock.discard_fault(state, action["company"], action["card"])
    raise refusal(fault) if fault else refuse("that discard is not a legal move now")


# --- the words of a discard -------------------------------------------------------


def _company_word(word: str, state: State) -> Any:
    return symbol(state["companies"], word) if word else ABSENT


def _asked_company(action: Action, state: State, seat: int) -> Action:
    """`discard 3` names the card alone: the company is the one asked now."""
    if "company" in action:
        return action
    now = asked(state)
    if now is None:
        raise refuse("no company is over its train limit now")
    return {"type": action["type"], "company": now[0], "card": action["card"]}


def _says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} gives up {card} of {company} to the bank pool").format(
        who=who, card=card_name(action["card"]), company=company(action["company"])
    )


def _gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    card = action.get("card")
    if not isinstance(card, str):
        return None
    return fit(
        _("{card} to the pool, face value {price}").format(
            card=card, price=money(rolling_stock.value(card))
        )
    )


def _group(state: State, seat: int, action: Action) -> str:
    return _("{company} is over its train limit").format(company=action["company"])


DISCARD = Verb(
    type="discard",
    fields={
        "company": Slot(read=_company_word, optional=True),
        "card": Slot(read=lambda word, state: rolling_stock.card_named(word)),
    },
    lines=line("discard {company} {card}"),
    complete=_asked_company,
    says=_says,
    gloss=_gloss,
    group=_group,
)

VERBS = (DISCARD,)
ACTIONS = frozenset(verb.type for verb in VERBS)
