"""Run trains (VII.3.7): accept the optimiser's plan or submit routes, which
`optimiser.check_claim` refuses when worth less than the optimum.

The step contract is in `steps/__init__.py`; this module is filled by the
round that needs it.
"""
