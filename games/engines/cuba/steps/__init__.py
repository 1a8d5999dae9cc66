"""18Cuba's steps: one module per verb group, functions not subclasses.

Each module provides what `rounds.base.Step` names:

    NAME: str                 what the player is asked to do ("lay track")
    ACTIONS: frozenset[str]   the action types it processes
    active(state) -> bool     does this step have anything to do now?
    blocking(state) -> bool   must it be settled before later steps?
    legal(state, seat) -> [action]      complete and postable, as the protocol asks
    apply(state, seat, action) -> None  validate and change the private copy;
                                        IllegalAction with a sentence for the player
    text(action) -> str       the one email line (`notation` for map moves)
    parse(words, state, seat) -> action | None

A step reads and writes the state only through the rules libraries (`cash`,
`shares`, `market`, `laying`, `tokens`, `optimiser`), never another step, so
a rule lives in one place and a step stays a page long.
"""
