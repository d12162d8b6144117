"""A served workflow as other stacks' callers see it: the official Python SDK's client (a2a-sdk 1.x, JSON-RPC and
HTTP+JSON), the official JavaScript SDK's client (@a2a-js/sdk, tests/interop/agents/js/serve_client.mjs), and our
own client over the v0.3 wire (the SDK's compat mode). Each plays the same scenarios: a fan-out/fan-in run
streamed end to end, an interactive step answered through the served task, a cancel mid-run, a failure with its
code, a missing input, a 401 without the key, and a kill -9 of the server with the run resumed."""

from __future__ import annotations

import asyncio
import json
import subprocess
import uuid

import httpx
import pytest
from a2a.client import ClientConfig, create_client
from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import MessageToDict
from serve_support import EXAMPLES, REPO, WORKFLOWS, records, restart, serve_env, wait_for

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import TaskState
from switchboard.a2a.turn import TaskView
from switchboard.workflow.runs import read_run

JS = REPO / "tests" / "interop" / "agents" / "js"
FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)
SERVE_KEY = "other-key"


# --- the official Python SDK's client -----------------------------------------------------------------------


def sdk_message(text: str | None = None, *, data: dict | None = None, task_id: str = "", context_id: str = "", **meta):
    message = pb.Message(message_id=str(uuid.uuid4()), role=pb.Role.ROLE_USER, task_id=task_id, context_id=context_id)
    if data is not None:
        part = pb.Part()
        part.data.struct_value.update(data)
        message.parts.append(part)
    else:
        message.parts.append(pb.Part(text=text or ""))
    if meta:
        message.metadata.update(meta)
    return pb.SendMessageRequest(message=message)


async def sdk_client(url: str, *, binding: str | None = None, http: httpx.AsyncClient | None = None):
    config = ClientConfig(streaming=True, httpx_client=http or httpx.AsyncClient(timeout=60))
    if binding:
        config.supported_protocol_bindings = [binding]
    return await create_client(url, client_config=config)


async def sdk_stream(client, request) -> list[dict]:
    """Each StreamResponse as its v1.0 JSON (camelCase), in order."""
    return [MessageToDict(event) async for event in client.send_message(request)]


def state_of(event: dict) -> str | None:
    for key in ("task", "statusUpdate"):
        if key in event:
            return event[key]["status"]["state"]
    return None


def last_state(events: list[dict]) -> str:
    return [s for s in map(state_of, events) if s][-1]


@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_python_sdk_streams_a_fan_out_run_to_completed(serve, binding):
    served = serve(str(EXAMPLES / "briefing.yaml"))
    client = await sdk_client(served.url("briefing"), binding=binding)
    events = await sdk_stream(client, sdk_message("solar sails"))
    assert last_state(events) == "TASK_STATE_COMPLETED"
    chunks = [e["artifactUpdate"] for e in events if "artifactUpdate" in e]
    draft = [c for c in chunks if c["artifact"]["artifactId"] == "draft/draft"]
    assert len(draft) > 10 and "append" not in draft[0] and all(c.get("append") for c in draft[1:])
    assert draft[-1].get("lastChunk") is True and not any(c.get("lastChunk") for c in draft[:-1])
    [outputs] = [c for c in chunks if c["artifact"]["artifactId"] == "outputs"]
    assert outputs["artifact"]["parts"][0]["text"].startswith("echo: Briefing on solar sails.")
    steps = {
        e["statusUpdate"]["metadata"].get("step")
        for e in events
        if "statusUpdate" in e and "metadata" in e["statusUpdate"]
    }
    assert {"research", "convert", "draft", "combine"} <= steps
    task_id = events[0]["task"]["id"]
    got = await client.get_task(pb.GetTaskRequest(id=task_id))
    assert got.status.state == pb.TaskState.TASK_STATE_COMPLETED
    text = "".join(p.text for a in got.artifacts if a.artifact_id == "draft/draft" for p in a.parts)
    assert text.startswith("# Solar sails")
    await client.close()


async def test_python_sdk_answers_questions_cancels_and_sees_failures_and_rejections(serve):
    served = serve(
        str(EXAMPLES / "interview.yaml"),
        str(WORKFLOWS / "long.yaml"),
        str(WORKFLOWS / "fail.yaml"),
        str(EXAMPLES / "briefing.yaml"),
    )
    # An interactive step answered through the served task.
    client = await sdk_client(served.url("interview"))
    events = await sdk_stream(client, sdk_message("hi"))
    assert last_state(events) == "TASK_STATE_INPUT_REQUIRED"
    task = events[0]["task"]
    question = [e["statusUpdate"] for e in events if "statusUpdate" in e][-1]["status"]["message"]
    said = [part["text"] for part in question["parts"]]
    assert said == ["step interview (interviewer) asks:\n", "What is your name?"]  # who asks, then the delegate
    assert question["metadata"]["step"] == "interview" and question["metadata"]["agent"] == "interviewer"
    for answer, state in (("Ada", "TASK_STATE_INPUT_REQUIRED"), ("2", "TASK_STATE_COMPLETED")):
        events = await sdk_stream(client, sdk_message(answer, task_id=task["id"], context_id=task["contextId"]))
        assert last_state(events) == state
    await client.close()

    # Cancel mid-run: the run and the delegate at its agent.
    client = await sdk_client(served.url("long"))
    task_id = None
    async for event in client.send_message(sdk_message("tides")):
        data = MessageToDict(event)
        task_id = task_id or data.get("task", {}).get("id")
        if data.get("statusUpdate", {}).get("metadata", {}).get("event") == "progress":
            break
    canceled = await client.cancel_task(pb.CancelTaskRequest(id=task_id))
    assert canceled.status.state == pb.TaskState.TASK_STATE_CANCELED
    run = wait_for(lambda: (r := [x for x in records(served.journal_dir, task_id) if x["type"] == "RunCanceled"]) and r)
    assert run
    await client.close()

    # A failure carries the engine's code; a missing input is a rejection naming it.
    client = await sdk_client(served.url("fail"))
    events = await sdk_stream(client, sdk_message("go"))
    assert last_state(events) == "TASK_STATE_FAILED"
    failed = [e["statusUpdate"] for e in events if "statusUpdate" in e][-1]
    assert failed["status"]["message"]["parts"][1]["data"]["code"] == "A2A_TASK_FAILED"
    await client.close()
    client = await sdk_client(served.url("briefing"))
    events = await sdk_stream(client, sdk_message(data={"inputs": {"distance": "1 km"}}))
    assert last_state(events) == "TASK_STATE_REJECTED"
    assert "missing required input: topic" in events[-1]["task"]["status"]["message"]["parts"][0]["text"]
    await client.close()


async def test_python_sdk_without_the_key_is_refused_and_with_it_served(serve, home):
    served = serve(str(WORKFLOWS / "one-echo.yaml"), "--api-key-env", "K", env=serve_env(home, K=SERVE_KEY))
    client = await sdk_client(served.url("one-echo"))
    with pytest.raises(Exception) as refused:
        await sdk_stream(client, sdk_message("hi"))
    assert "401" in str(refused.value)
    await client.close()
    keyed = httpx.AsyncClient(timeout=60, headers={"X-API-Key": SERVE_KEY})
    client = await sdk_client(served.url("one-echo"), http=keyed)
    events = await sdk_stream(client, sdk_message("hi"))
    assert last_state(events) == "TASK_STATE_COMPLETED"
    await client.close()


# --- our own client over the v0.3 wire (the SDK's compat mode) ----------------------------------------------


async def test_our_client_over_v03_streams_the_run_and_answers_a_question(serve):
    served = serve(str(EXAMPLES / "briefing.yaml"), str(EXAMPLES / "interview.yaml"))
    async with await connect(served.url("briefing"), prefer_version="0.3") as client:
        assert client.endpoint.version == "0.3"
        view = TaskView()
        async for event in follow_turn(client, new_message("tides"), policy=FAST):
            if not isinstance(event, Notice):
                view.apply(event)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["draft/draft"].text.startswith("# Tides")
    async with await connect(served.url("interview"), prefer_version="0.3") as client:
        view = TaskView()
        for text in ("hi", "Ada", "1"):
            message = new_message(text, task_id=view.task_id, context_id=view.context_id)
            async for event in follow_turn(client, message, policy=FAST):
                if not isinstance(event, Notice):
                    view.apply(event)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["outputs"].text == "Interview summary: Ada came by to learn how A2A works."


# --- the official JavaScript SDK's client -------------------------------------------------------------------


def node_available() -> None:
    if not (JS / "node_modules" / "@a2a-js" / "sdk").is_dir():
        pytest.fail(f"@a2a-js/sdk is not installed in {JS}: run `make test` (it runs `npm ci` there)", pytrace=False)


def js(url: str, scenario: str, *args: str, timeout: float = 90) -> list[dict]:
    node_available()
    card = url + ".well-known/agent-card.json"
    done = subprocess.run(
        ["node", str(JS / "serve_client.mjs"), "--card", card, "--scenario", scenario, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=JS,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert lines, done.stderr
    return lines


async def test_javascript_sdk_streams_a_fan_out_run_and_answers_questions(serve):
    served = serve(str(EXAMPLES / "briefing.yaml"), str(EXAMPLES / "interview.yaml"))
    lines = await asyncio.to_thread(js, served.url("briefing"), "stream", "--text", "solar sails")
    assert lines[0] == {"kind": "client", "protocol": "JSONRPC", "version": "1.0"}
    assert lines[-1]["kind"] == "status" and lines[-1]["state"] == "completed"
    draft = [e for e in lines if e["kind"] == "artifact" and e["artifactId"] == "draft/draft"]
    assert len(draft) > 10 and not draft[0]["append"] and all(e["append"] for e in draft[1:])
    assert [e["lastChunk"] for e in draft] == [False] * (len(draft) - 1) + [True]
    assert "".join(p["value"] for e in draft for p in e["parts"]).startswith("# Solar sails")
    started = {
        e["metadata"]["step"]
        for e in lines
        if e.get("metadata", {}).get("event") == "started" and "step" in e["metadata"]
    }
    assert started == {"research", "convert", "draft", "combine"}
    for binding in ("JSONRPC", "HTTP+JSON"):
        lines = await asyncio.to_thread(
            js, served.url("interview"), "answers", "--text", "hi", "--answers", "Ada,3", "--binding", binding
        )
        assert lines[0]["protocol"] == binding
        asked = [e for e in lines if e.get("state") == "input-required"]
        assert [e["metadata"]["step"] for e in asked] == ["interview", "interview"]
        assert asked[0]["text"] == "step interview (interviewer) asks:\nWhat is your name?"
        final = lines[-1]
        assert final["kind"] == "final" and final["state"] == "completed"
        [outputs] = [a for a in final["artifacts"] if a["id"] == "outputs"]
        assert outputs["parts"][0]["value"] == "Interview summary: Ada came by to just looking around."


async def test_javascript_sdk_cancels_sees_a_failure_and_a_rejection_and_needs_the_key(serve, home):
    served = serve(
        str(WORKFLOWS / "long.yaml"),
        str(WORKFLOWS / "fail.yaml"),
        str(EXAMPLES / "briefing.yaml"),
        "--api-key-env",
        "K",
        env=serve_env(home, K=SERVE_KEY),
    )
    key = ("--api-key", SERVE_KEY)
    lines = await asyncio.to_thread(js, served.url("long"), "cancel", "--text", "tides", *key)
    assert lines[-2]["kind"] == "canceled" and lines[-2]["state"] == "canceled"
    assert lines[-1] == {**lines[-1], "kind": "final", "state": "canceled"}
    lines = await asyncio.to_thread(js, served.url("fail"), "stream", "--text", "go", *key)
    assert lines[-1]["state"] == "failed" and "A2A_TASK_FAILED" in lines[-1]["text"]
    lines = await asyncio.to_thread(
        js, served.url("briefing"), "send", "--data", '{"inputs": {"distance": "2 km"}}', *key
    )
    assert lines[-1]["state"] == "rejected" and "missing required input: topic" in lines[-1]["text"]
    lines = await asyncio.to_thread(js, served.url("fail"), "stream", "--text", "go")
    assert lines[-1]["kind"] == "error" and "401" in lines[-1]["message"]


async def test_javascript_sdk_sees_the_same_task_go_on_after_a_kill_9_and_restart(serve):
    served = serve(str(WORKFLOWS / "long.yaml"))
    url = served.url("long")
    [_, started] = await asyncio.to_thread(js, url, "send", "--text", "tides", "--return-immediately", "true")
    run_id = started["id"]
    wait_for(lambda: [r["type"] for r in records(served.journal_dir, run_id)].count("StepRequested") == 2)
    # Killed once the research task is known: before its id is journaled, a restart finds the task by its message id
    # only where the agent lists tasks, and otherwise sends the step again (by design: the test is of a known task).
    wait_for(lambda: read_run(run_id, served.journal_dir).steps["research"].task_id)
    served.kill()
    again = await asyncio.to_thread(restart, served)
    lines = await asyncio.to_thread(js, url, "subscribe", "--task-id", run_id)
    final = lines[-1]
    assert final["kind"] == "final" and final["id"] == run_id and final["state"] == "completed"
    [outputs] = [a for a in final["artifacts"] if a["id"] == "outputs"]
    assert outputs["parts"][0]["value"].startswith("Research on tides")
    requested = [r["step"] for r in records(again.journal_dir, run_id) if r["type"] == "StepRequested"]
    assert requested == ["hello", "research"]
