"""Place the home station (VII.3.2: a major's home, a minor's mill city, the
FEC's free slot) and one station per OR (VII.3.6), on top of `tokens`.

The step contract is in `steps/__init__.py`; this module is filled by the
round that needs it.
"""
