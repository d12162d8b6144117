"""A turn canceled because the run was canceled cancels its task at the agent; a turn canceled for any other
reason does not: its worker shuts down, or the server took the turn away (the worker was paused or starved
past its heartbeat timeout, then came back), and another worker has re-attached to the task by then.

The real activity (its StepRequested signal goes to a real run on the session's dev server, whose queue no
worker serves) against the demo researcher, in temporalio's ActivityEnvironment, which cancels with the
reason the server would give."""

from __future__ import annotations

import asyncio
import dataclasses

import httpx
import pytest
from temporalio.activity import ActivityCancellationDetails
from temporalio.testing import ActivityEnvironment
from workflow_support import tasks_for

from switchboard.a2a.model import TaskState
from switchboard.agents import load_agents
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.temporal import client as runs
from switchboard.workflow.temporal.activities import Activities
from switchboard.workflow.temporal.plan import to_plan

RESEARCH = """\
version: 1
name: one-research
agents: [researcher]
steps:
  - name: research
    agent: researcher
    task: tides
"""


async def task_of(url: str, correlation_id: str, state: TaskState):
    async with asyncio.timeout(60):
        while True:
            found = await tasks_for(url, correlation_id)
            if found and found[0].status.state == state:
                return found[0]
            await asyncio.sleep(0.1)


@pytest.mark.parametrize(
    ("why", "canceled_at_the_agent"),
    [
        (ActivityCancellationDetails(cancel_requested=True), True),
        (ActivityCancellationDetails(timed_out=True), False),
        (ActivityCancellationDetails(not_found=True), False),
        (ActivityCancellationDetails(worker_shutdown=True), False),
    ],
    ids=["run-canceled", "timed-out", "not-found", "worker-shutdown"],
)
async def test_only_the_runs_cancel_cancels_the_agents_task(
    home, agents_file, fleet, temporal, why, canceled_at_the_agent
):
    path = home / "research.yaml"
    path.write_text(RESEARCH)
    workflow = load_workflow(path, load_agents(agents_file))
    client = await runs.connect(temporal.address, "default")
    run_id = await runs.start(client, workflow, {}, task_queue=f"nobody-{home.name}")
    environment = ActivityEnvironment(client)
    environment.info = dataclasses.replace(environment.info, workflow_id=run_id, workflow_run_id=None)
    request = {"runId": run_id, "plan": to_plan(workflow, {}), "step": "research", "attempt": 0, "values": {}}
    researcher = fleet.agent("researcher").url
    async with httpx.AsyncClient() as http:
        turn = asyncio.create_task(environment.run(Activities(http).delegate_turn, request))
        working = await task_of(researcher, f"{run_id}:delegate:research", TaskState.WORKING)
        environment.cancel(why)
        with pytest.raises(asyncio.CancelledError):
            await turn
    [after] = await tasks_for(researcher, f"{run_id}:delegate:research")
    assert after.id == working.id
    assert (after.status.state == TaskState.CANCELED) is canceled_at_the_agent, after.status.state
    await client.get_workflow_handle(run_id).terminate()
