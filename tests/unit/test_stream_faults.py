"""Faults a real server will not produce on demand, played through httpx.MockTransport.

Each test drives the real client and follower; only the bytes on the wire are scripted.
"""

from __future__ import annotations

import json

import httpx
import pytest
from transcripts import ROOT

from switchboard.a2a.cards import parse_card
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import ProtocolError
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Role,
    StatusUpdate,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.model import Message as A2AMessage
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import v10

BASE = "http://agent.test/"
TASK, CTX = "task-1", "ctx-1"
FAST = FollowPolicy(poll_interval=0.01, backoff=0.001, max_backoff=0.01)


def card():
    raw = json.loads((ROOT / "v10-jsonrpc/v10-01-agent-card.json").read_text())
    raw["supportedInterfaces"] = [{"url": BASE, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]
    return parse_card(raw)


def status(state: TaskState, text: str | None = None) -> TaskStatus:
    message = None
    if text:
        message = A2AMessage(message_id=f"m-{state.value}-{text}", role=Role.AGENT, parts=[TextPart(text=text)])
    return TaskStatus(state=state, message=message)


def chunk(text: str, append: bool, last: bool = False) -> ArtifactUpdate:
    artifact = Artifact(artifact_id="a1", name="greeting", parts=[TextPart(text=text)])
    return ArtifactUpdate(
        task_id=TASK, context_id=CTX, artifact=artifact, append=append or None, last_chunk=last or None
    )


def task(state: TaskState, *texts: str) -> Task:
    artifacts = (
        [Artifact(artifact_id="a1", name="greeting", parts=[TextPart(text=t) for t in texts])] if texts else None
    )
    return Task(id=TASK, context_id=CTX, status=status(state), artifacts=artifacts)


def frame(event, request_id=1, event_name=None) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": v10.encode_event(event)})
    head = f"event: {event_name}\r\n" if event_name else ""
    return f"{head}data: {body}\r\n\r\n".encode()


class CutStream(httpx.AsyncByteStream):
    """Yields the given chunks, then fails like a dropped connection (or ends cleanly)."""

    def __init__(self, chunks: list[bytes], cut: bool = True):
        self.chunks, self.cut = chunks, cut

    async def __aiter__(self):
        for c in self.chunks:
            yield c
        if self.cut:
            raise httpx.ReadError("connection reset by peer")


def sse(chunks: list[bytes], cut: bool = False) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=CutStream(chunks, cut))


def rpc_result(result) -> httpx.Response:
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": result})


class Agent:
    """Routes JSON-RPC methods to scripted answers and records what was called."""

    def __init__(self, **answers):
        self.answers = {k: list(v) if isinstance(v, list) else [v] for k, v in answers.items()}
        self.calls: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        method = json.loads(request.content)["method"]
        self.calls.append(method)
        queue = self.answers[method]
        return queue.pop(0) if len(queue) > 1 else queue[0]


async def run(agent: Agent, message_text: str = "hi") -> tuple[TaskView, list[Notice], Transport]:
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    client = JsonRpcTransport(card(), card_url=BASE + ".well-known/agent-card.json", http=http)
    view, notices = TaskView(), []
    async for event in follow_turn(client, new_message(message_text), policy=FAST):
        if isinstance(event, Notice):
            notices.append(event)
        else:
            view.apply(event)
    await http.aclose()
    return view, notices, client


async def test_stream_cut_midway_is_reattached_and_the_artifact_text_is_exact():
    agent = Agent(
        SendStreamingMessage=sse(
            [frame(task(TaskState.SUBMITTED)), frame(chunk("Hello, ", False)), frame(chunk("Grace", True))], cut=True
        ),
        GetTask=[task(TaskState.WORKING, "Hello, ", "Grace"), task(TaskState.COMPLETED, "Hello, ", "Grace", "!")],
        SubscribeToTask=sse(
            [
                frame(task(TaskState.WORKING, "Hello, ", "Grace")),
                frame(chunk("!", True, last=True)),
                frame(StatusUpdate(task_id=TASK, context_id=CTX, status=status(TaskState.COMPLETED, "done"))),
            ]
        ),
    )
    agent.answers["GetTask"] = [rpc_result(v10.encode_task(t)) for t in agent.answers["GetTask"]]
    view, notices, _ = await run(agent)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["a1"].text == "Hello, Grace!"
    assert agent.calls == ["SendStreamingMessage", "GetTask", "SubscribeToTask", "GetTask"]
    assert any("broke" in n.text for n in notices)
    assert any("re-subscribing" in n.text for n in notices)


async def test_clean_close_without_a_final_state_is_reconciled_with_get_task():
    agent = Agent(
        SendStreamingMessage=sse(
            [
                frame(task(TaskState.SUBMITTED)),
                frame(StatusUpdate(task_id=TASK, context_id=CTX, status=status(TaskState.WORKING, "about to crash"))),
            ]
        ),
        GetTask=rpc_result(v10.encode_task(task(TaskState.FAILED))),
    )
    view, notices, _ = await run(agent)
    assert view.state is TaskState.FAILED
    assert agent.calls == ["SendStreamingMessage", "GetTask"]
    assert any("closed before the turn ended" in n.text for n in notices)


async def test_a_json_error_answering_a_streaming_call_raises_the_a2a_error():
    error = {"code": -32004, "message": "Task t is in terminal state", "data": [{"reason": "UNSUPPORTED_OPERATION"}]}
    agent = Agent(SendStreamingMessage=httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": error}))
    with pytest.raises(ProtocolError) as caught:
        await run(agent)
    assert caught.value.code == "UnsupportedOperationError"
    assert caught.value.a2a_code == -32004


async def test_an_error_frame_after_the_task_is_reported_and_the_task_read():
    error = json.dumps({"error": {"code": -32603, "message": "executor crashed on purpose"}, "id": 1, "jsonrpc": "2.0"})
    agent = Agent(
        SendStreamingMessage=sse([frame(task(TaskState.SUBMITTED)), f"event: error\r\ndata: {error}\r\n\r\n".encode()]),
        GetTask=rpc_result(v10.encode_task(task(TaskState.FAILED))),
    )
    view, notices, _ = await run(agent)
    assert view.state is TaskState.FAILED
    assert any("InternalError" in n.text and "crashed on purpose" in n.text for n in notices)
    assert agent.calls == ["SendStreamingMessage", "GetTask"]


async def test_an_error_frame_before_any_task_raises_the_a2a_error():
    error = json.dumps({"error": {"code": -32603, "message": "executor crashed on purpose"}, "id": 1, "jsonrpc": "2.0"})
    agent = Agent(SendStreamingMessage=sse([f"event: error\r\ndata: {error}\r\n\r\n".encode()]))
    with pytest.raises(ProtocolError) as caught:
        await run(agent)
    assert caught.value.code == "InternalError"


async def test_subscribing_to_a_finished_task_reads_it_instead():
    error = {
        "code": -32004,
        "message": "Task task-1 is in terminal state",
        "data": [{"reason": "UNSUPPORTED_OPERATION"}],
    }
    agent = Agent(
        SubscribeToTask=httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": error}),
        GetTask=rpc_result(v10.encode_task(task(TaskState.COMPLETED, "all done"))),
    )
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    client = JsonRpcTransport(card(), card_url=BASE + ".well-known/agent-card.json", http=http)
    view = TaskView()
    async for event in follow_turn(client, task_id=TASK, policy=FAST):
        if not isinstance(event, Notice):
            view.apply(event)
    await http.aclose()
    assert view.state is TaskState.COMPLETED and view.artifacts["a1"].text == "all done"


async def test_garbage_frames_are_warnings_and_the_stream_goes_on():
    agent = Agent(
        SendStreamingMessage=sse(
            [
                frame(task(TaskState.SUBMITTED)),
                b"data: this is not json\r\n\r\n",
                b'data: {"jsonrpc": "2.0", "id": 1, "result": {"surprise": 1}}\r\n\r\n',
                b": ping - keepalive\r\n\r\n",
                frame(chunk("ok", False, last=True)),
                frame(StatusUpdate(task_id=TASK, context_id=CTX, status=status(TaskState.COMPLETED))),
            ]
        )
    )
    view, _, client = await run(agent)
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["a1"].text == "ok"
    assert any("not JSON" in n for n in client.notes)
    assert any("surprise" in n or "none of" in n for n in client.notes)


async def test_a_stream_that_breaks_before_any_event_raises_a_network_error():
    # The request may have reached the agent: its task list is searched for the message before giving up.
    agent = Agent(SendStreamingMessage=sse([], cut=True), ListTasks=rpc_result({"tasks": []}))
    with pytest.raises(Exception) as caught:
        await run(agent)
    assert caught.value.exit_code == 3
    assert BASE in caught.value.message
    assert agent.calls[0] == "SendStreamingMessage" and set(agent.calls[1:]) == {"ListTasks"}
