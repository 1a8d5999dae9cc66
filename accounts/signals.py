"""What happens to an account that other parts answer: they connect a
receiver when they are ready, so that accounts, below them, imports none of
them.  Each is sent inside the transaction that made the change, so what a
receiver writes (the outbox's mail) commits or rolls back with it."""

from django.dispatch import Signal

# A new password was stored (whatever door set it); sent with `user`.
password_changed = Signal()
# The account's address changed; sent with `user` and `old_address`.
email_changed = Signal()
# The account's address is to be confirmed (a sign-up, a new address): sent
# with `user`; the mail carries the signed link (accounts.verification).
email_to_verify = Signal()
