"""The operating round (draft VII): the companies in order (minors ascending
by share price, majors descending, ties by marker stacking, the FC last), each
through its steps in the order of VII.3.1.

Not built yet: a game that reaches its first operating round ends there,
with the result `ended_by` "operating_rounds_not_yet_available" and the
final totals of IX.2 as they stand, instead of a crash. The operating round
replaces `_not_yet` with its steps:

    OPERATING = Round("operating round", (
        steps.home,         # VII.3.2 home station (blocking in a first OR)
        steps.issue,        # VII.3.3 issue or redeem one share
        steps.track,        # VII.3.4-5, commissioners' extra lays
        steps.token,        # VII.3.6 one station per OR
        steps.route,        # VII.3.7 run trains (blocking)
        steps.dividend,     # VII.3.8 pay out or retain (blocking)
        steps.buy_train,    # VII.3.9-10 trains, wagons, trade-ins, emergency money
        steps.machines,     # VII.3.11 minors only
    ))
"""

from __future__ import annotations

from . import flow
from .base import Round, State

# The result's `ended_by` (a stable slug, as every title's is).
NOT_YET = "operating_rounds_not_yet_available"


def _not_yet(state: State) -> None:
    state["end"] = {"reason": NOT_YET}


OPERATING = Round("operating round", (), begin=_not_yet)
flow.register("operating", OPERATING)
