"""Buy trains and wagons (VII.3.9), trade in n-trains, emergency financing
(VII.3.10), machines for minors (VII.3.11).

The step contract is in `steps/__init__.py`; this module is filled by the
round that needs it.
"""
