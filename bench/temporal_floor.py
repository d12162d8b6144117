"""The floor of the Temporal runner: a bare temporalio workflow that runs one no-op activity, nothing else (no plan,
no codec, no search attributes, no journal records). Nothing of switchboard is imported.

    python bench/temporal_floor.py worker ADDRESS TASK_QUEUE    # a worker for it; prints "worker serving"

temporal_scale.py starts two of these workers on the same dev server as ours, and runs the workflow from its own
client: one at a time (start to result: one workflow task, one activity, the next workflow task, the round trips
Temporal makes for any step) and 1,000 at once.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta

from temporalio import activity, workflow

WORKFLOW = "BareOne"


@activity.defn(name="noop")
async def noop(n: int) -> int:
    return n


@workflow.defn(name=WORKFLOW)
class BareOne:
    @workflow.run
    async def run(self, n: int) -> int:
        return await workflow.execute_activity(noop, n, start_to_close_timeout=timedelta(seconds=60))


async def serve(address: str, task_queue: str) -> None:
    from temporalio.client import Client
    from temporalio.worker import Worker

    client = await Client.connect(address)
    worker = Worker(client, task_queue=task_queue, workflows=[BareOne], activities=[noop])
    async with worker:
        print("worker serving", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        asyncio.run(serve(sys.argv[2], sys.argv[3]))
