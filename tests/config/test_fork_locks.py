"""A Celery worker forks its pool's processes while threads of its own run
(the mail's hand-off drain, notifications.handoff), so a lock one of them
holds at the fork would be held forever in the child.  The runtime's locks
are made anew in a forked child."""

from __future__ import annotations

import os

import pytest

from ops import outage, redis_clients


def child_can_take(lock_of) -> bool:
    """Fork while this process holds the lock `lock_of()` names; whether
    the child can take its own within a second."""
    held = lock_of()
    held.acquire()
    try:
        pid = os.fork()
        if pid == 0:  # the child: report by exit status, run nothing else
            os._exit(0 if lock_of().acquire(timeout=1) else 1)
    finally:
        held.release()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize(
    "lock_of",
    [
        lambda: outage._registry_lock,
        lambda: outage.of("handoff", "redis://fork-test/0")._lock,
        lambda: redis_clients._lock,
    ],
    ids=["outage registry", "one outage", "redis clients"],
)
def test_a_forked_child_does_not_inherit_a_held_lock(lock_of):
    assert child_can_take(lock_of)
