"""18Cuba's steps: one module per verb group, functions not subclasses.

Each module provides what `rounds.base.Step` names:

    NAME: str                 what the player is asked to do ("lay track")
    VERBS: tuple[Verb, ...]   the words of each action it processes, declared
                              once (`games.engines.verbs`): its fields, its
                              mail line (`text` and `parse` both), its
                              narration, its gloss and its heading in a mail
    ACTIONS: frozenset[str]   the action types it processes: its verbs'
    active(state) -> bool     does this step have anything to do now?
    blocking(state) -> bool   must it be settled before later steps?
    legal(state, seat) -> [action]      complete and postable, as the protocol asks
    apply(state, seat, action) -> None  validate and change the private copy;
                                        IllegalAction with a sentence for the player

A step declares the words of its moves as 18xx's steps write their own log
lines: a move's line, narration, gloss and heading are beside the rules that
process it, and nothing else in the title dispatches on an action's type
for its words (`words/` holds only the board and the names of things).

A step reads and writes the state only through the rules libraries (`cash`,
`shares`, `market`, `laying`, `tokens`, `optimiser`), never another step, so
a rule lives in one place and a step stays a page long. The one verb several
steps share, the pass, is declared here, for each of them to list.
"""

from __future__ import annotations

from ...i18n import N_
from ...verbs import Verb, line

# A player passes in the auction (out of this card's bidding), the draft (no
# concession this turn) and the stock round (the turn ends), and a director
# ends the company's turn: one move, the same words everywhere.
PASS = Verb(
    type="pass",
    fields={},
    lines=line("pass", "done"),
    usage=((r"pass .+", N_("write: {usage}"), {"usage": "pass"}),),
    says=N_("{who} passes"),
    gloss=None,
    group=N_("Pass"),
)
