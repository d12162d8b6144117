"""Work that goes on at an agent when its tab goes away (a task, a workflow run): what the views report, and what
closing a tab or quitting asks about (screens/leave.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass


@dataclass
class OpenWork:
    """A task (or a workflow run) that goes on when its tab goes away."""

    label: str  # "task 7f3c… at researcher"
    state: str  # "working"
    find: str  # the command that finds it again
    cancel: Callable[[], Awaitable[object]]
    leave: Callable[[], Awaitable[object]] | None = None  # what letting go takes (a run stops watching its steps)
    # At an agent of the demo fleet this app started (`switchboard --demo`): the fleet stops when the app quits,
    # so the task goes on only while the app runs.
    ends_with_app: bool = False
