"""Cancel a task, and confirm it by the state the agent reports.

An agent may answer CancelTask with the task as it stood before the cancel took effect (`working`, or
`input-required`): the spec lets a cancel be cooperative, and the JavaScript SDK's answer can come before the
executor has stopped. So a cancel is confirmed only when the agent reports the task ended; until then the task
is read again with a short backoff, for a bounded time. The CLI, the TUI and the workflow engine all cancel
through here, and each says so when the agent has not confirmed in that time.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .model import Task
from .transports.base import Transport

CONFIRM_WITHIN = 10.0  # seconds of reading the task again after an answer that is not the end yet
FIRST_LOOK, LONGEST_WAIT = 0.1, 2.0  # the backoff between those reads


@dataclass(frozen=True)
class CancelOutcome:
    """The task after a cancel, as the agent last reported it."""

    task: Task
    confirmed: bool  # the agent reports the task ended (canceled, or another end that came first)

    @property
    def pending(self) -> str:
        """What to say when the cancel is not confirmed."""
        return f"the agent has not confirmed the cancel: task {self.task.id} is still {self.task.status.state.value}"


async def cancel_and_confirm(
    client: Transport, task_id: str, *, timeout: float | None = None, confirm_within: float | None = None
) -> CancelOutcome:
    """Cancel `task_id`, then read it until it has ended or `confirm_within` seconds have passed.

    Args:
        client: the agent's transport.
        task_id: the task to cancel.
        timeout: replaces the cancel request's own long wait (see Transport.cancel_task).
        confirm_within: how long to read the task again when the answer is not an end (CONFIRM_WITHIN).

    Returns:
        The task as last reported, and whether the cancel is confirmed.

    Raises:
        SwitchboardError: the cancel was refused (e.g. TaskNotCancelableError) or the agent unreachable.
    """
    task = await client.cancel_task(task_id, timeout=timeout)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (CONFIRM_WITHIN if confirm_within is None else confirm_within)
    wait = FIRST_LOOK
    while not task.status.state.is_terminal and (left := deadline - loop.time()) > 0:
        await asyncio.sleep(min(wait, left))
        wait = min(LONGEST_WAIT, wait * 2)
        task = await client.task_status(task_id)
    return CancelOutcome(task, task.status.state.is_terminal)
