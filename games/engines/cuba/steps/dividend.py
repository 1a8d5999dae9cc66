"""Pay out or retain (VII.3.8, IX.2): income to the shareholders or the
treasury, the share price move, a minor's sugar cubes.

The step contract is in `steps/__init__.py`; this module is filled by the
round that needs it.
"""
