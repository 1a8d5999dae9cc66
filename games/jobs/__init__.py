"""What happens with nobody asking: the deadline sweep, the timeouts it
finds, and the bots' turns.  Each job calls the same services a person's
move does; Celery only runs them (games.tasks)."""
