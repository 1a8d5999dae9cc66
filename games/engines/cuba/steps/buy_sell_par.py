"""The stock round's verbs (VI.4-VI.8): sell, buy, par a major, inaugurate a
minor, pass; the commissioner auction and the concession draft (IV.1, IV.2,
VI.6).

The step contract is in `steps/__init__.py`; this module is filled by the
round that needs it.
"""
