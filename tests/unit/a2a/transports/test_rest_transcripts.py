"""The HTTP+JSON binding against the captures of a2a-sdk 1.3's REST routes (rest-sdk13/): the codecs read each
body, the transport asks for each route the way the server was asked and maps each error body to its A2A name.

The servers themselves answer in tests/interop (the sdk13-rest, sdk13-v03rest, sdk03-rest, js-rest, js-v03rest
kinds); these are the exact bytes, and the faults a real server will not produce on demand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from transcripts import ROOT, sse_payloads

from switchboard.a2a.cards import parse_card
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import InvalidResponseError, ProtocolError, UsageError, rest_error_from
from switchboard.a2a.model import DataPart, FilePart, Message, StatusUpdate, Task, TaskState, TaskStatus, TextPart
from switchboard.a2a.transports.rest import RestTransport
from switchboard.a2a.wire import v03rest, v10
from switchboard.a2a.wire.common import Notes

REST = ROOT / "rest-sdk13"
BASE = "http://127.0.0.1:41241/"
TASK_V10 = "c0c63b2a-a107-4314-8124-8b2b23f8b5a7"
TASK_V03 = "e8fd0611-5241-4285-ae3f-6eb24ba6e164"


def status_of(name: str) -> int:
    """The HTTP status of a capture's response."""
    text = (REST / f"{name}.http").read_text()
    return int(re.search(r"### RESPONSE.*?\nHTTP/1\.1 (\d{3})", text, re.S).group(1))


def body_of(name: str) -> str:
    return (REST / f"{name}.json").read_text()


def card(version: str) -> dict:
    return {
        "name": "rest agent",
        "supportedInterfaces": [{"url": BASE + "rest", "protocolBinding": "HTTP+JSON", "protocolVersion": version}],
        "capabilities": {"streaming": True},
    }


class Replay:
    """An agent answering from the captures: each request is recorded, the capture named for its route answers."""

    def __init__(self, answers: dict[tuple[str, str], str]) -> None:
        self.answers = answers
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        name = self.answers[(request.method, request.url.path)]
        if name.endswith("-followup"):
            content = (REST / f"{name}.sse").read_bytes()
            return httpx.Response(200, headers={"content-type": "text/event-stream; charset=utf-8"}, content=content)
        return httpx.Response(status_of(name), headers={"content-type": "application/json"}, content=body_of(name))


def transport(version: str, agent: Replay) -> RestTransport:
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    return RestTransport(parse_card(card(version)), card_url=BASE + ".well-known/agent-card.json", http=http)


# --- the codecs -------------------------------------------------------------------------------------


def test_the_v10_stream_is_the_v10_json_rpc_codec_without_the_envelope():
    for _, payload in sse_payloads(REST / "rest-v10-02-message-stream-followup.sse"):
        notes = Notes()
        event = v10.decode_event(payload, notes)
        assert v10.encode_event(event) == payload
        assert not notes, notes


@pytest.mark.parametrize("name", ["rest-v03-01-message-send", "rest-v03-03-get-task"])
def test_v03_rest_bodies_read_and_write_back_as_sent(name):
    payload = json.loads(body_of(name))
    notes = Notes()
    if "send" in name:
        task = v03rest.decode_send_result(payload, notes)
        assert {"task": v03rest.encode_task(task)} == payload
    else:
        task = v03rest.decode_task(payload, notes)
        assert v03rest.encode_task(task) == payload
    assert not notes, notes
    assert all(m.parts for m in task.history)  # the v0.3 proto keeps a message's parts in `content`


def test_the_v03_rest_stream_keeps_final_and_reads_the_proto_parts():
    notes = Notes()
    events = [v03rest.decode_event(p, notes) for _, p in sse_payloads(REST / "rest-v03-02-message-stream-followup.sse")]
    assert not notes, notes
    assert [type(e).__name__ for e in events] == ["StatusUpdate"] + ["ArtifactUpdate"] * 4 + ["StatusUpdate"]
    assert events[-1].final is True and events[-1].status.state is TaskState.COMPLETED
    assert [(e.append, e.last_chunk) for e in events[1:4]] == [(None, None), (True, None), (True, True)]
    data, inline, linked = events[4].artifact.parts
    assert isinstance(data, DataPart) and data.data == {"name": "Ada", "length": 3.0}
    # a2a-sdk's v0.3 REST base64-encodes the bytes twice: read as sent, the content is the base64 of the file.
    assert isinstance(inline, FilePart) and inline.name == "hello.txt" and inline.content == b"aGVsbG8gYnl0ZXMK"
    assert isinstance(linked, FilePart) and linked.url == "https://example.com/hello.png"


def test_a_canceled_task_is_cancelled_on_the_v03_rest_wire_and_either_spelling_reads():
    task = Task(id="t", context_id="c", status=TaskStatus(state=TaskState.CANCELED))
    assert v03rest.encode_task(task)["status"]["state"] == "TASK_STATE_CANCELLED"
    for spelling in ("TASK_STATE_CANCELLED", "TASK_STATE_CANCELED"):
        assert v03rest.decode_state(spelling, Notes()) is TaskState.CANCELED


def test_a_v03_rest_message_is_written_with_content_and_proto_parts():
    message = new_message(
        [
            TextPart(text="hi"),
            DataPart(data={"k": 1}),
            FilePart(raw="aGk=", name="a.txt", media_type="text/plain"),
            FilePart(url="https://x/y.png", name="y.png"),
        ]
    )
    written = v03rest.send_params(
        message, blocking=False, history_length=None, accepted_output_modes=None, metadata=None
    )
    assert written["configuration"] == {"blocking": False}
    assert written["message"]["role"] == "ROLE_USER" and "parts" not in written["message"]
    assert written["message"]["content"] == [
        {"text": "hi"},
        {"data": {"data": {"k": 1}}},
        {"file": {"fileWithBytes": "aGk=", "mimeType": "text/plain", "name": "a.txt"}},
        {"file": {"fileWithUri": "https://x/y.png", "name": "y.png"}},
    ]


# --- errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "route", "expected"),
    [
        ("rest-v03-00-jsonrpc-shaped-body-rejected", "send", "InvalidParamsError"),
        ("rest-v03-04-cancel-finished-task-error", "task", "TaskNotCancelableError"),
        ("rest-v03-05-get-task-not-found-error", "task", "TaskNotFoundError"),
        ("rest-v10-04-cancel-finished-task-error", "task", "TaskNotCancelableError"),
        ("rest-v10-05-get-task-not-found-error", "task", "TaskNotFoundError"),
        ("rest-v10-07-no-version-header-error", "task", "VersionNotSupportedError"),
    ],
)
def test_each_captured_error_body_maps_to_its_a2a_name(name, route, expected):
    error = rest_error_from(json.loads(body_of(name)), status_of(name), "u", route=route)
    assert isinstance(error, ProtocolError) and error.code == expected
    assert error.message == json.loads(body_of(name))["error"]["message"]


@pytest.mark.parametrize(
    ("status", "body", "route", "expected"),
    [
        # the JavaScript SDK's v0.3 REST: a JSON-RPC error object, bare
        (404, {"code": -32001, "message": "Task not found: x"}, "task", "TaskNotFoundError"),
        (400, {"code": -32002, "message": "Task not cancelable"}, "task", "TaskNotCancelableError"),
        # a2a-sdk 0.3's REST: only a message, the status says which error (its own table)
        (404, {"message": "Task not found"}, "task", "TaskNotFoundError"),
        (409, {"message": "Task cannot be canceled"}, "task", "TaskNotCancelableError"),
        (501, {"message": "not supported"}, "send", "UnsupportedOperationError"),
        (404, {"message": "no extended card"}, "extended_card", "ExtendedAgentCardNotConfiguredError"),
        # a google.rpc.Status without an ErrorInfo: the status again
        (500, {"error": {"code": 500, "status": "INTERNAL", "message": "unknown exception"}}, "send", "InternalError"),
    ],
)
def test_error_bodies_of_the_other_stacks_map_too(status, body, route, expected):
    assert rest_error_from(body, status, "u", route=route).code == expected


def test_a_body_that_is_no_a2a_servers_is_no_protocol_error():
    assert rest_error_from(["not", "an", "object"], 404, "u", route="task") is None
    assert rest_error_from({"message": "bad gateway"}, 502, "u", route="send") is None


# --- the transport, route by route ------------------------------------------------------------------


async def test_v10_routes_headers_and_bodies_are_the_captured_ones():
    agent = Replay(
        {
            ("POST", "/rest/message:send"): "rest-v10-01-message-send",
            ("POST", "/rest/message:stream"): "rest-v10-02-message-stream-followup",
            ("GET", f"/rest/tasks/{TASK_V10}"): "rest-v10-03-get-task",
            ("POST", f"/rest/tasks/{TASK_V10}:cancel"): "rest-v10-04-cancel-finished-task-error",
            ("GET", "/rest/tasks"): "rest-v10-06-list-tasks",
        }
    )
    async with transport("1.0", agent) as rest:
        asked = await rest.send(new_message("hi"))
        assert isinstance(asked, Task) and asked.status.state is TaskState.INPUT_REQUIRED
        answer = new_message("Ada", task_id=asked.id, context_id=asked.context_id)
        events = [e async for e in rest.stream(answer)]
        assert isinstance(events[-1], StatusUpdate) and events[-1].status.state is TaskState.COMPLETED
        done = await rest.get_task(TASK_V10, history_length=1)
        assert [a.artifact_id for a in done.artifacts] == ["greeting-artifact", "extras-artifact"]
        with pytest.raises(ProtocolError) as caught:
            await rest.cancel_task(TASK_V10)
        assert caught.value.code == "TaskNotCancelableError" and caught.value.exit_code == 1
        page = await rest.list_tasks(context_id=asked.context_id, state=TaskState.COMPLETED, page_size=5)
        assert [t.id for t in page.tasks] == [TASK_V10]
    send, stream, get, cancel, listing = agent.requests
    for request in agent.requests:
        assert request.headers["A2A-Version"] == "1.0"
    assert all("application/a2a+json" in r.headers["Accept"] for r in (send, get, cancel, listing))
    assert send.headers["Content-Type"] == "application/a2a+json"
    assert json.loads(send.content)["message"]["parts"] == [{"text": "hi"}]
    assert stream.headers["Accept"] == "text/event-stream"
    assert json.loads(stream.content)["message"]["taskId"] == TASK_V10
    assert (get.method, get.url.params["historyLength"], get.content) == ("GET", "1", b"")
    assert "Content-Type" not in get.headers  # a GET carries no body
    assert json.loads(cancel.content) == {}
    assert dict(listing.url.params) == {
        "contextId": asked.context_id,
        "status": "TASK_STATE_COMPLETED",
        "pageSize": "5",
    }


async def test_v03_routes_live_under_v1_subscribe_by_get_and_no_version_header():
    agent = Replay(
        {
            ("POST", "/rest/v1/message:send"): "rest-v03-01-message-send",
            ("GET", f"/rest/v1/tasks/{TASK_V03}"): "rest-v03-03-get-task",
            ("GET", f"/rest/v1/tasks/{TASK_V03}:subscribe"): "rest-v03-02-message-stream-followup",
            ("POST", f"/rest/v1/tasks/{TASK_V03}:cancel"): "rest-v03-04-cancel-finished-task-error",
            ("GET", "/rest/v1/tasks/no-such-task"): "rest-v03-05-get-task-not-found-error",
            ("GET", "/rest/v1/card"): "rest-v03-06-card",
        }
    )
    async with transport("0.3", agent) as rest:
        asked = await rest.send(new_message("hi"))
        assert asked.status.state is TaskState.INPUT_REQUIRED and asked.history[0].text == "hi"
        assert (await rest.get_task(TASK_V03)).status.state is TaskState.COMPLETED
        events = [e async for e in rest.subscribe(TASK_V03)]
        assert events[-1].final is True
        with pytest.raises(ProtocolError, match="Task cannot be canceled"):
            await rest.cancel_task(TASK_V03)
        with pytest.raises(ProtocolError) as caught:
            await rest.get_task("no-such-task")
        assert caught.value.code == "TaskNotFoundError"
        extended = await rest.extended_card()
        assert "secret" in {s.id for s in extended.skills}
        assert not rest.lists_tasks
        with pytest.raises(UsageError, match=r"listing tasks is not part of the A2A 0\.3 HTTP\+JSON binding"):
            await rest.list_tasks()
    assert all("A2A-Version" not in r.headers for r in agent.requests)
    assert agent.requests[0].headers["Content-Type"] == "application/json"
    assert json.loads(agent.requests[0].content)["message"]["content"] == [{"text": "hi"}]
    assert agent.requests[2].method == "GET"  # the v0.3 proto subscribes by GET (a2a-sdk 0.3 serves no POST)


async def test_a_tenant_is_a_path_segment_and_a_task_id_is_escaped():
    seen: list[str] = []

    def agent(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.raw_path.decode())
        return httpx.Response(200, json=json.loads(body_of("rest-v10-03-get-task")))

    tenant_card = card("1.0")
    tenant_card["supportedInterfaces"][0]["tenant"] = "team a"
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    async with RestTransport(parse_card(tenant_card), card_url=BASE, http=http) as rest:
        await rest.get_task("a/b c")
    assert seen == ["/rest/team%20a/tasks/a%2Fb%20c"]


async def test_an_error_frame_in_a_stream_raises_its_a2a_error():
    frame = {"error": {"code": 404, "status": "NOT_FOUND", "message": "gone", "details": [
        {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}]}}  # fmt: skip
    content = b"event: error\ndata: " + json.dumps(frame).encode() + b"\n\n"

    def agent(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=content)

    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    async with RestTransport(parse_card(card("1.0")), card_url=BASE, http=http) as rest:
        with pytest.raises(ProtocolError) as caught:
            async for _ in rest.subscribe("t"):
                pass
    assert caught.value.code == "TaskNotFoundError"


async def test_a_proxy_page_is_an_http_error_not_a_protocol_error():
    def agent(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, headers={"content-type": "text/html"}, content=b"<h1>Not Found</h1>")

    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    async with RestTransport(parse_card(card("1.0")), card_url=BASE, http=http) as rest:
        with pytest.raises(InvalidResponseError, match="answered HTTP 404"):
            await rest.get_task("t")


def test_a_reply_message_reads_under_either_member_name():
    reply = {"messageId": "m", "role": "ROLE_AGENT", "content": [{"text": "hi"}]}
    for key in ("message", "msg"):
        notes = Notes()
        message = v03rest.decode_send_result({key: reply}, notes)
        assert isinstance(message, Message) and message.text == "hi" and not notes


def test_fixture_directory_is_the_shared_capture():
    assert Path(REST).is_dir() and len(list(REST.glob("*.http"))) == 14
