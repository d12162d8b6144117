"""The conformance judges of what went over the wire (streams.py, deeper.judge_error_info): each fault the
broken agent's modes make, judged from the exchange as the tap records it, and what passes."""

from __future__ import annotations

import json

import pytest

from switchboard.a2a.model import Message, Role, StatusUpdate, Task, TaskState, TaskStatus, TextPart
from switchboard.conformance.deeper import ERROR_INFO, judge_error_info
from switchboard.conformance.streams import judge_events, judge_stream, judge_transport, raw_states, valid_states
from switchboard.conformance.wire_log import Exchange


def rpc(result: dict) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})


def stream_exchange(*frames: str, content_type: str = "text/event-stream") -> Exchange:
    exchange = Exchange(1, "POST", "http://agent/", rpc="SendStreamingMessage", status=200, content_type=content_type)
    exchange.frames = [(frame, False) for frame in frames]
    return exchange


def task(state: TaskState, task_id: str = "t1") -> Task:
    return Task(id=task_id, context_id="c1", status=TaskStatus(state=state))


def update(state: TaskState, task_id: str = "t1") -> StatusUpdate:
    return StatusUpdate(task_id=task_id, context_id="c1", status=TaskStatus(state=state))


def test_a_stream_answered_as_one_json_document_breaks_the_sse_requirement():
    (finding,) = judge_transport(stream_exchange(content_type="application/json"), "JSONRPC", "1.0")
    assert (finding.key, finding.ok) == ("stream: jsonrpc sse", False)
    assert finding.answered == "HTTP 200 application/json"


@pytest.mark.parametrize(
    ("binding", "frame", "ok"),
    [
        ("JSONRPC", rpc({"task": {}}), True),
        ("JSONRPC", json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001}}), True),
        ("JSONRPC", json.dumps({"task": {}}), False),  # no JSON-RPC envelope
        ("JSONRPC", "{not json", False),
        ("HTTP+JSON", json.dumps({"task": {}}), True),
        ("HTTP+JSON", "[1, 2]", False),
    ],
)
def test_each_frame_must_be_well_formed_for_its_binding(binding, frame, ok):
    (finding,) = judge_transport(stream_exchange(frame), binding, "1.0")
    assert finding.ok is ok, finding


def test_a_frame_the_tap_cut_is_not_judged():
    exchange = stream_exchange()
    exchange.frames = [('{"jsonrpc": "2.0", "result": {"ta', True)]
    assert judge_transport(exchange, "JSONRPC", "1.0")[0].ok


def test_raw_states_are_read_from_every_frame_as_sent():
    exchange = stream_exchange(
        rpc({"task": {"id": "t1", "status": {"state": "TASK_STATE_WORKING"}}}),
        rpc({"statusUpdate": {"taskId": "t1", "status": {"state": "TASK_STATE_PONDERING"}}}),
    )
    states = raw_states(exchange)
    assert states == ["TASK_STATE_WORKING", "TASK_STATE_PONDERING"]
    judged = judge_events([task(TaskState.WORKING)], states, "1.0", "JSONRPC", going=False, subscribe=False)
    assert ("state values", False) in {(f.key, f.ok) for f in judged}


def test_each_version_has_its_own_state_vocabulary():
    assert "working" in valid_states("0.3", "JSONRPC") and "working" not in valid_states("1.0", "JSONRPC")
    assert "TASK_STATE_CANCELLED" in valid_states("0.3", "HTTP+JSON")
    assert "TASK_STATE_CANCELLED" not in valid_states("1.0", "HTTP+JSON")


def judged(*events, going=False, subscribe=False):
    return [(f.key, f.ok, f.detail) for f in judge_events(list(events), [], "1.0", "JSONRPC", going=going,
                                                          subscribe=subscribe)]  # fmt: skip


def test_a_task_stream_closed_when_the_task_asks_or_ends_passes():
    assert judged(task(TaskState.WORKING), update(TaskState.INPUT_REQUIRED))[0][:2] == ("stream", True)
    assert judged(task(TaskState.WORKING), update(TaskState.COMPLETED))[0][:2] == ("stream", True)


def test_a_stream_closed_while_the_task_works_fails():
    (key, ok, detail), = judged(task(TaskState.WORKING), update(TaskState.WORKING))  # fmt: skip
    assert (key, ok) == ("stream", False) and "before it ended" in detail


def test_an_event_after_the_end_or_for_another_task_or_back_to_submitted_fails():
    after = judged(task(TaskState.WORKING), update(TaskState.COMPLETED), update(TaskState.WORKING))
    other = judged(task(TaskState.WORKING), update(TaskState.WORKING, "t2"), update(TaskState.COMPLETED))
    back = judged(task(TaskState.WORKING), update(TaskState.SUBMITTED), update(TaskState.COMPLETED))
    assert "after the task ended" in after[0][2] and not after[0][1]
    assert "another task" in other[0][2] and not other[0][1]
    assert "back from working to submitted" in back[0][2] and not back[0][1]


def test_a_message_stream_holds_one_message():
    message = Message(message_id="m", role=Role.AGENT, parts=[TextPart(text="hi")])
    assert judged(message) == [("stream: message", True, "one direct message")]
    assert judged(message, message)[0][:2] == ("stream: message", False)


def test_a_stream_that_begins_with_an_update_fails_and_one_still_open_when_let_go_passes():
    assert judged(update(TaskState.WORKING))[0][:2] == ("stream", False)
    assert judged(task(TaskState.WORKING), going=True)[0][:2] == ("stream", True)


def info(reason: object = "TASK_NOT_FOUND", domain: object = "a2a-protocol.org") -> dict:
    return {"@type": ERROR_INFO, "reason": reason, "domain": domain}


@pytest.mark.parametrize(
    ("body", "binding", "ok"),
    [
        ({"error": {"code": -32001, "message": "no", "data": [info()]}}, "JSONRPC", True),
        ({"error": {"code": -32001, "message": "no"}}, "JSONRPC", False),
        ({"error": {"code": -32001, "data": [info(reason="task not found")]}}, "JSONRPC", False),
        ({"error": {"code": -32001, "data": [info(domain={"x": 1})]}}, "JSONRPC", False),
        ({"error": {"code": 404, "status": "NOT_FOUND", "details": [info()]}}, "HTTP+JSON", True),
        ({"error": {"code": 404, "status": "NOT_FOUND"}}, "HTTP+JSON", False),
    ],
)
def test_an_a2a_error_carries_its_error_info(body, binding, ok):
    finding = judge_error_info(json.dumps(body), binding)
    assert not isinstance(finding, str) and finding.ok is ok, finding


@pytest.mark.parametrize("body", ['{"error": {"code": -32603, "message": "x"}}', "not json", "[]", '{"error": 1}'])
def test_no_a2a_error_is_nothing_to_judge(body):
    assert isinstance(judge_error_info(body, "JSONRPC"), str)


def test_a_stream_answered_as_one_json_document_carries_no_event_to_judge():
    """Our client reads the JSON document as a one-event stream; the stream still fails: nothing came as an SSE
    event (the TCK finds none either). Before, the probe judged that one event and passed the stream."""
    exchange = stream_exchange(content_type="application/json")
    exchange.body = rpc({"task": {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_COMPLETED"}}})
    findings = judge_stream(exchange, [task(TaskState.COMPLETED)], "1.0", "JSONRPC", going=False)
    assert [(f.key, f.ok) for f in findings] == [("stream: jsonrpc sse", False), ("stream", False)]
    assert findings[1].detail.startswith("no event stream")
    sse = stream_exchange(rpc({"task": {}}))
    judged = judge_stream(sse, [task(TaskState.WORKING), update(TaskState.COMPLETED)], "1.0", "JSONRPC", going=False)
    assert all(f.ok for f in judged), judged
