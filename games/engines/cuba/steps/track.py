"""Lay or upgrade track (VII.3.4-5), the commissioners' extra lays (IV.1) and
the FC pass for laying ($20), on top of `laying`.

The step contract is in `steps/__init__.py`; this module is filled by the
round that needs it.
"""
