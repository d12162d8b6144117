"""Re-attaching on resume, against the real SDK servers of the demo fleet, at the one point a kill cannot be
timed from outside: the message reached the agent, but the journal never learned the task's id."""

from __future__ import annotations

import os
import textwrap

import httpx
from workflow_support import tasks_for

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.redact import Redactor
from switchboard.agents import load_agents
from switchboard.workflow.engine import resume_run
from switchboard.workflow.journal import Journal
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.runs import read_records
from switchboard.workflow.state import StepStarted


async def test_a_task_whose_id_was_never_journaled_is_found_by_its_message_and_followed(home, agents_file, fleet):
    path = home / "wf.yaml"
    path.write_text(
        textwrap.dedent(
            """
            name: found
            agents: [researcher]
            steps:
              - {name: research, agent: researcher, task: "the history of radio"}
            """
        )
    )
    workflow = load_workflow(path, load_agents(agents_file))
    run_id = "20260101T000000-found1"
    correlation_id = f"{run_id}:delegate:research"
    journal = Journal.create(home / "data" / "runs", run_id, Redactor())
    journal.write(
        "RunStarted",
        runId=run_id,
        workflow="found",
        file=str(path),
        digest=workflow.digest,
        inputs={},
        pid=os.getpid(),
        steps=[{"name": "research", "type": "a2a", "agent": "researcher", "dependsOn": []}],
    )
    message = new_message("the history of radio")
    journal.write(
        "StepRequested",
        step="research",
        attempt=1,
        agent="researcher",
        correlationId=correlation_id,
        messageId=message.message_id,
        input="the history of radio",
    )
    journal.close()
    # The "crashed" process had sent the message: the agent made a task, and nobody heard its id.
    async with await connect(fleet.agent("researcher").url, correlation_id=correlation_id) as client:
        stream = client.stream(message)
        first = await anext(stream)
        await stream.aclose()
    assert first.id and len(await tasks_for(fleet.agent("researcher").url, correlation_id)) == 1

    async with httpx.AsyncClient() as http:
        run = resume_run(run_id, http=http, workflow=workflow)
        events = [event async for event in run.events()]
    assert run.status == "completed" and run.steps["research"].task_id == first.id
    assert run.steps["research"].attempt == 1  # found, not sent again
    assert [e.reattached for e in events if isinstance(e, StepStarted)] == [True]
    assert len(await tasks_for(fleet.agent("researcher").url, correlation_id)) == 1  # never sent again
    kinds = [r["type"] for r in read_records(home / "data" / "runs" / f"{run_id}.jsonl")[0]]
    assert kinds.count("StepRequested") == 1 and kinds[-1] == "RunCompleted"
