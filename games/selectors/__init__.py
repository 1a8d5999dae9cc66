"""Reads: what a viewer may see of games, their logs and their people.
Each module is one concern; writes are games.services' (check_*/do_*)."""
