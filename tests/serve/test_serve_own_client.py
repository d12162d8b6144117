"""A workflow served as an A2A agent, driven with switchboard's own client (the library and `switchboard send`):
the card, a fan-out/fan-in run streamed end to end, get, cancel mid-run, a failure with its code, missing and
unknown inputs, the caller's context and trace ids."""

from __future__ import annotations

import asyncio
import json

from serve_support import EXAMPLES, WORKFLOWS, cli, fields, records

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import ArtifactUpdate, DataPart, StatusUpdate, Task, TaskState, TextPart
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView
from switchboard.workflow.runs import read_run

FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)


async def turn(client: Transport, message=None, **kwargs) -> tuple[TaskView, list]:
    view, events = TaskView(), []
    async for event in follow_turn(client, message, policy=FAST, **kwargs):
        events.append(event)
        if not isinstance(event, Notice):
            view.apply(event)
    return view, events


def statuses(events: list) -> list[dict]:
    """Each status update's metadata (what it says about steps), in order."""
    return [dict(e.status.message.metadata or {}) for e in events if isinstance(e, StatusUpdate) and e.status.message]


async def test_the_card_says_what_the_workflow_is_and_how_to_call_it(serve):
    served = serve(str(EXAMPLES / "briefing.yaml"))
    async with await connect(served.url("briefing")) as client:
        card = client.card
    assert card.name == "briefing"
    assert card.description.startswith("Research a topic")
    assert card.version.startswith("1.0.0+")
    assert card.capabilities.streaming is True
    assert not card.security_schemes  # no --api-key-env: no scheme
    [skill] = card.skills
    assert "topic (required): What to research" in skill.description
    assert "distance (default '10 km')" in skill.description
    assert skill.examples == ["<topic>", '{"inputs": {"topic": "<topic>"}}']
    [extension] = card.capabilities.extensions
    schema = extension.params["inputSchema"]
    assert schema["required"] == ["topic"]
    assert schema["properties"]["distance"] == {
        "type": "string",
        "description": "A distance to convert to miles",
        "default": "10 km",
    }
    bindings = {(i.binding, i.protocol_version) for i in card.interfaces}
    assert bindings == {("JSONRPC", "1.0"), ("JSONRPC", "0.3"), ("HTTP+JSON", "1.0")}


async def test_a_fan_out_fan_in_run_streams_as_the_task_to_completed(serve, home):
    served = serve(str(EXAMPLES / "briefing.yaml"))
    async with await connect(served.url("briefing")) as client:
        view, events = await turn(client, new_message("solar sails", context_id="ctx-of-the-caller"))
    assert view.state is TaskState.COMPLETED
    assert view.context_id == "ctx-of-the-caller"  # the caller's context is kept
    # The task is the run: the same id in the journal, which `runs show` reads.
    run = read_run(view.task_id, served.journal_dir)
    assert run.status == "completed" and run.inputs == {"topic": "solar sails", "distance": "10 km"}
    said = statuses(events)
    # Compared as the JSON text the caller got: `"attempt": 1`, not the Struct's 1.0 (which equals 1 in Python).
    said_text = [json.dumps(m, sort_keys=True) for m in said]
    for step in ("research", "convert", "draft", "combine"):
        assert json.dumps({"step": step, "event": "started", "attempt": 1}, sort_keys=True) in said_text
        assert {"step": step, "event": "completed"} in said
    # The writer's chunks pass through under the step's own id, append and lastChunk as it sent them.
    chunks = [e for e in events if isinstance(e, ArtifactUpdate) and e.artifact.artifact_id.startswith("draft/")]
    assert len(chunks) > 10
    assert chunks[0].append in (None, False) and all(c.append for c in chunks[1:])
    assert [bool(c.last_chunk) for c in chunks] == [False] * (len(chunks) - 1) + [True]
    draft = view.artifacts[chunks[0].artifact.artifact_id].text
    assert draft.startswith("# Solar sails") and draft == run.steps["draft"].view.output_text
    research = [aid for aid in view.artifacts if aid.startswith("research/")]
    assert research, list(view.artifacts)
    # The outputs end it: text and a data part with the outputs object.
    outputs = view.artifacts["outputs"]
    [text, data] = outputs.parts
    assert isinstance(text, TextPart) and text.text == run.outputs["brief"]
    assert isinstance(data, DataPart) and data.data == run.outputs
    assert "Distance: 10 km = 6.21371 mi" in text.text
    assert view.status.message.text == "the workflow completed"


async def test_the_command_line_streams_a_served_run_and_gets_it_back(serve, home):
    served = serve(str(EXAMPLES / "briefing.yaml"))
    url = served.url("briefing")
    done = cli(home, "send", url, "tides", "--stream", "-o", "json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert lines, done.stdout
    task_id = next(v["id"] for line in lines for k, v in line.items() if k == "task")
    kinds = [next(iter(line)) for line in lines]
    assert kinds[0] == "task" and "artifactUpdate" in kinds
    assert lines[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    got = cli(home, "task", "get", url, task_id)
    assert got.returncode == 0, got.stderr
    assert fields(got.stdout)["State"] == "completed"
    shown = cli(home, "runs", "show", task_id)
    assert fields(shown.stdout)["State"] == "completed"


async def test_cancel_mid_run_cancels_the_run_and_the_delegate_at_its_agent(serve, agents_file, fleet):
    served = serve(str(WORKFLOWS / "long.yaml"))
    async with await connect(served.url("long")) as client:
        events: list = []
        view = TaskView()

        async def follow() -> None:
            async for event in follow_turn(client, new_message("tides"), policy=FAST):
                events.append(event)
                if not isinstance(event, Notice):
                    view.apply(event)

        following = asyncio.create_task(follow())
        # Wait until the researcher has its task (the long step runs), then cancel the served task.
        for _ in range(300):
            if any(m.get("step") == "research" and m.get("event") == "progress" for m in statuses(events)):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(statuses(events))
        canceled = await client.cancel_task(view.task_id)
        await asyncio.wait_for(following, 30)
        final = await client.get_task(view.task_id)
    assert final.status.state is TaskState.CANCELED
    assert canceled.status.state in (TaskState.CANCELED, TaskState.WORKING)
    run = read_run(view.task_id, served.journal_dir)
    assert run.status == "canceled"
    research = run.steps["research"]
    assert research.status == "canceled"
    async with await connect(fleet.agent("researcher").url) as researcher:
        at_agent = await researcher.get_task(research.task_id)
    assert at_agent.status.state is TaskState.CANCELED


async def test_a_failure_ends_the_task_failed_with_the_engine_code_and_message(serve):
    served = serve(str(WORKFLOWS / "fail.yaml"))
    async with await connect(served.url("fail")) as client:
        view, _ = await turn(client, new_message("go"))
    assert view.state is TaskState.FAILED
    message = view.status.message
    assert message.text.startswith("step break failed: A2A_TASK_FAILED: failed on purpose")
    [data] = [p for p in message.parts if isinstance(p, DataPart)]
    assert data.data["code"] == "A2A_TASK_FAILED" and data.data["step"] == "break"
    assert "Traceback" not in message.text and 'File "' not in message.text


async def test_missing_and_unknown_inputs_reject_the_task_naming_them(serve, home):
    served = serve(str(EXAMPLES / "briefing.yaml"))
    async with await connect(served.url("briefing")) as client:
        missing = await client.send(new_message([DataPart(data={"inputs": {"distance": "3 km"}})]))
        unknown = await client.send(new_message([DataPart(data={"topic": "tides", "colour": "blue", "n": 3})]))
    assert isinstance(missing, Task) and missing.status.state is TaskState.REJECTED
    assert "missing required input: topic (What to research)" in missing.status.message.text
    assert isinstance(unknown, Task) and unknown.status.state is TaskState.REJECTED
    assert "unknown inputs: colour, n" in unknown.status.message.text
    [data] = [p for p in unknown.status.message.parts if isinstance(p, DataPart)]
    assert data.data["unknown"] == ["colour", "n"] and data.data["inputSchema"]["required"] == ["topic"]
    # Nothing ran: no journal for either.
    assert not served.journal_dir.exists() or not list(served.journal_dir.glob("*.jsonl"))


async def test_data_inputs_take_json_values_as_json_text(serve):
    served = serve(str(WORKFLOWS / "one-echo.yaml"))
    async with await connect(served.url("one-echo")) as client:
        view, _ = await turn(client, new_message([DataPart(data={"inputs": {"text": {"n": 3, "ok": True}}})]))
        plain, _ = await turn(client, new_message([DataPart(data={"text": 42})]))
    assert view.state is TaskState.COMPLETED
    assert read_run(view.task_id, served.journal_dir).inputs == {"text": '{"n":3,"ok":true}'}
    assert read_run(plain.task_id, served.journal_dir).inputs == {"text": "42"}
    assert view.artifacts["outputs"].parts[1].data == {"echoed": 'echo: {"n":3,"ok":true}'}


async def test_the_callers_correlation_id_is_the_runs_and_every_delegates_parent_id(serve, fleet):
    served = serve(str(EXAMPLES / "briefing.yaml"))
    async with await connect(served.url("briefing"), correlation_id="trace-42") as client:
        view, _ = await turn(client, new_message("tides"))
    assert view.state is TaskState.COMPLETED
    run = read_run(view.task_id, served.journal_dir)
    assert run.correlation_id == "trace-42"
    requested = [r for r in records(served.journal_dir, view.task_id) if r["type"] == "StepRequested"]
    assert {r["correlationId"] for r in requested} == {f"{view.task_id}:delegate:{s}" for s in run.steps}
    # The writer keeps the message it got: its metadata carries both ids.
    async with await connect(fleet.agent("writer").url) as writer:
        task = await writer.get_task(run.steps["draft"].task_id, history_length=10)
    first = task.history[0]
    assert first.metadata["parentId"] == "trace-42"
    assert first.metadata["correlationId"] == f"{view.task_id}:delegate:draft"
