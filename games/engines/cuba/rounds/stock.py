"""The stock round (draft VI) and the opening auction and draft (IV.1, IV.2,
VI.6): each lists its steps in the order `base.Round` tries them.

To be filled by the stock-round part, with the steps of `steps/`:

    AUCTION = Round("commissioner auction", (steps.auction,))
    CONCESSIONS = Round("concession draft", (steps.concession,))
    STOCK = Round("stock round", (steps.buy_sell_par,))

The first stock round adds the minors' inauguration (VI.7) to `buy_sell_par`;
unconverted concessions and unstarted minors leave at its end (IV.2).
"""
