"""`switchboard worker --temporal HOST:PORT`: a process that runs the runs' workflow code and their steps.

A worker polls the task queue for workflow tasks and A2A turns; with --allow-shell it also polls the shell
queue, so shell steps run only where someone said they may. One HTTP client is shared by every turn.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

from temporalio.worker import Worker

from . import shell_queue
from .activities import Activities
from .client import connect
from .workflow import SwitchboardRun

# After a worker dies, its cached runs' next workflow tasks wait this long on its own (sticky) queue before
# any worker takes them (the default is 10 s). At 1 s a loaded machine moved runs between live workers so
# often that an answer was now and then judged against a state behind the one queries showed (the client
# retries those, see client.answer); 3 s keeps a dead worker's runs waiting briefly without that churn.
STICKY_TIMEOUT = timedelta(seconds=3)
HEARTBEAT_THROTTLE = timedelta(seconds=1)


async def run_worker(
    address: str,
    *,
    namespace: str,
    task_queue: str,
    allow_shell: bool = False,
    max_concurrent: int = 100,
    ready: asyncio.Event | None = None,
) -> None:
    """Serve until cancelled (Ctrl+C)."""
    from ...a2a.http import new_http_client

    client = await connect(address, namespace)
    async with new_http_client() as http:
        activities = Activities(http)
        workers = [
            Worker(
                client,
                task_queue=task_queue,
                workflows=[SwitchboardRun],
                activities=[activities.delegate_turn, activities.cancel_task],
                max_concurrent_activities=max_concurrent,
                sticky_queue_schedule_to_start_timeout=STICKY_TIMEOUT,
                # A turn's task id reaches the server within a second of being known (what a retry re-attaches by).
                default_heartbeat_throttle_interval=HEARTBEAT_THROTTLE,
                max_heartbeat_throttle_interval=HEARTBEAT_THROTTLE,
                graceful_shutdown_timeout=timedelta(seconds=5),
            )
        ]
        if allow_shell:
            workers.append(
                Worker(
                    client,
                    task_queue=shell_queue(task_queue),
                    activities=[activities.run_shell],
                    max_concurrent_activities=max_concurrent,
                    graceful_shutdown_timeout=timedelta(seconds=5),
                )
            )
        async with contextlib.AsyncExitStack() as stack:
            for worker in workers:
                await stack.enter_async_context(worker)
            if ready is not None:
                ready.set()
            await asyncio.Event().wait()
