"""The 18Cuba engine object: the protocol of `games.engines.base`, wired to
the modules that hold the rules, and nothing else (the other titles' engine
modules are the model).

Filled when the game is playable, as:

    setup           -> setup.new_game (variants, shuffled playing order, depot)
    to_act / legal  -> the current round (`rounds.stock`, `rounds.operating`)
    apply           -> EngineBase's template: copy_state (`state.py`), then
                       Round.process
    view            -> view.py (the map through `mapview`, charters, market)
    text / parse    -> Round.text / Round.parse (steps own their lines)
    result          -> scoring.py (cash + shares at market value, IX.2)

Until then the package defines no ENGINE and the registry does not list it.
"""
