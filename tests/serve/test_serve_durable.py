"""A served run survives its server: kill -9 mid-run, start again, and the run goes on from its journal (no
completed delegate invoked again, the task in flight re-attached), while a caller's GetTask and resubscribe see
the same task go on to its end. A question open at the kill is asked again and answered as before."""

from __future__ import annotations

import asyncio

from serve_support import EXAMPLES, WORKFLOWS, records, restart, wait_for

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import TaskState
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView
from switchboard.workflow.runs import read_run

FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)


async def turn(client: Transport, message=None, view: TaskView | None = None, **kwargs) -> TaskView:
    view = view or TaskView()
    async for event in follow_turn(client, message, policy=FAST, **kwargs):
        if not isinstance(event, Notice):
            view.apply(event)
    return view


def kinds(served, run_id: str) -> list[str]:
    return [r["type"] for r in records(served.journal_dir, run_id)]


async def test_kill_9_mid_run_then_start_again_the_same_task_goes_on_to_its_end(serve, fleet):
    served = serve(str(WORKFLOWS / "long.yaml"))
    url = served.url("long")
    async with await connect(url) as client:
        started = await client.send(new_message("tides"), blocking=False)
    run_id, context_id = started.id, started.context_id
    # The first step done, the long one running at the researcher: kill the server, no clean-up of any kind.
    wait_for(lambda: "StepEvent" in kinds(served, run_id) and kinds(served, run_id).count("StepRequested") == 2)
    research_task = wait_for(lambda: read_run(run_id, served.journal_dir).steps["research"].task_id)
    served.kill()

    again = await asyncio.to_thread(restart, served)
    assert run_id in again.text  # "Resumed from their journals: ..."
    async with await connect(url) as client:
        task = await client.get_task(run_id)
        assert task.context_id == context_id
        assert task.status.state in (TaskState.WORKING, TaskState.COMPLETED)
        task = await client.get_task(run_id, history_length=5)
        assert task.history and task.history[0].text == "tides"  # the caller's message, from the journal
        if task.status.state is not TaskState.COMPLETED:
            view = await turn(client, task_id=run_id)  # resubscribe, to the end
            assert view.state is TaskState.COMPLETED
        final = await client.get_task(run_id)
    assert final.status.state is TaskState.COMPLETED
    [outputs] = [a for a in final.artifacts if a.artifact_id == "outputs"]
    assert outputs.parts[0].text.startswith("Research on tides")
    journal = kinds(again, run_id)
    assert "RunResumed" in journal and journal[-1] == "RunCompleted"
    # Nothing sent twice: one request per step; the research task is the one in flight at the kill.
    requested = [r["step"] for r in records(again.journal_dir, run_id) if r["type"] == "StepRequested"]
    assert requested == ["hello", "research"]
    run = read_run(run_id, again.journal_dir)
    assert run.steps["research"].task_id == research_task
    async with await connect(fleet.agent("researcher").url) as researcher:
        at_agent = await researcher.get_task(research_task)
    assert at_agent.status.state is TaskState.COMPLETED


async def test_kill_9_while_a_question_waits_then_the_answer_goes_on_after_the_restart(serve):
    served = serve(str(EXAMPLES / "interview.yaml"))
    url = served.url("interview")
    async with await connect(url) as client:
        view = await turn(client, new_message("hello"))
    assert view.state is TaskState.INPUT_REQUIRED
    served.kill()
    again = await asyncio.to_thread(restart, served)
    async with await connect(url) as client:
        task = await client.get_task(view.task_id)
        assert task.status.state is TaskState.INPUT_REQUIRED  # rebuilt from the journal: the question still open
        assert task.status.message.text == "step interview (interviewer) asks:\nWhat is your name?"
        answer = new_message("Ada", task_id=view.task_id, context_id=view.context_id)
        view = await turn(client, answer, view)
        assert view.state is TaskState.INPUT_REQUIRED and "\nNice to meet you, Ada" in view.status.message.text
        view = await turn(client, new_message("3", task_id=view.task_id, context_id=view.context_id), view)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["outputs"].parts[1].data == {
        "summary": "Interview summary: Ada came by to just looking around."
    }
    assert kinds(again, view.task_id).count("RunResumed") == 1


async def test_finished_tasks_are_still_there_after_a_restart_and_listed(serve):
    served = serve(str(WORKFLOWS / "one-echo.yaml"))
    url = served.url("one-echo")
    async with await connect(url) as client:
        done = await turn(client, new_message("hi there", context_id="ctx-kept"))
    assert done.state is TaskState.COMPLETED
    served.interrupt()
    again = await asyncio.to_thread(restart, served)
    assert "Resumed" not in again.text  # nothing was in flight
    async with await connect(url) as client:
        task = await client.get_task(done.task_id)
        page = await client.list_tasks()
    assert task.status.state is TaskState.COMPLETED and task.context_id == "ctx-kept"
    [outputs] = [a for a in task.artifacts if a.artifact_id == "outputs"]
    assert outputs.parts[1].data == {"echoed": "echo: hi there"}
    assert [t.id for t in page.tasks] == [done.task_id]
