"""The conformance judges of what went over the wire (streams.py, error_bodies.py): each fault the
broken agent's modes make, judged from the exchange as the tap records it, and what passes."""

from __future__ import annotations

import json

import pytest

from switchboard.a2a.model import Message, Role, StatusUpdate, Task, TaskState, TaskStatus, TextPart
from switchboard.conformance.error_bodies import ERROR_INFO, errors_in, judge_jsonrpc_error, judge_rest_error
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


def rpc_error(code: object, data: object = None, message: object = "no") -> str:
    error = {"code": code, "message": message} | ({"data": data} if data is not None else {})
    return json.dumps({"jsonrpc": "2.0", "id": 1, "error": error})


@pytest.mark.parametrize(
    ("code", "data", "ok"),
    [
        (-32001, [info()], True),
        (-32001, None, False),  # no error.data at all
        (-32001, {"@type": ERROR_INFO, "reason": "TASK_NOT_FOUND"}, False),  # an object, not an array
        (-32001, [{"@type": "type.googleapis.com/google.rpc.BadRequest"}], False),  # an array without ErrorInfo
        (-32001, [info(reason="task not found")], False),
        (-32001, [info(reason="NOT_FOUND")], False),  # google.rpc.Code's name, not the A2A reason
        (-32002, [info(reason="TASK_NOT_FOUND")], False),  # an A2A reason, but another error's
        (-32002, [info(reason="TASK_NOT_CANCELABLE")], True),
        (-32009, [info(reason="VERSION_NOT_SUPPORTED")], True),
        (-32001, [info(domain={"x": 1})], False),
        (-32001, [info(domain="example.com")], False),
    ],
)
def test_an_a2a_error_over_jsonrpc_carries_the_error_info_of_its_code(code, data, ok):
    judged = judge_jsonrpc_error(rpc_error(code, data))
    assert judged is not None and judged[2] is not None and judged[2].ok is ok, judged


@pytest.mark.parametrize("code", [-32603, -32601, -32600])
def test_a_jsonrpc_error_that_is_no_a2a_error_needs_no_error_info(code):
    judged = judge_jsonrpc_error(rpc_error(code))
    assert judged is not None and judged[1].ok and judged[2] is None


@pytest.mark.parametrize(
    ("text", "ok"),
    [(rpc_error(-32603, message=None), False), (rpc_error("-32001"), False), ('{"error": "no"}', False)],
)
def test_a_jsonrpc_error_object_has_an_integer_code_and_a_string_message(text, ok):
    judged = judge_jsonrpc_error(text)
    assert judged is not None and judged[1].ok is ok, judged


@pytest.mark.parametrize("text", ["not json", "[]", rpc({"task": {}}), '{"jsonrpc": "2.0"}'])
def test_an_answer_that_is_no_jsonrpc_error_is_nothing_to_judge(text):
    assert judge_jsonrpc_error(text) is None


def status(code: object, details: object, name: object = "NOT_FOUND", message: object = "no") -> str:
    return json.dumps({"error": {"code": code, "status": name, "message": message, "details": details}})


@pytest.mark.parametrize(
    ("text", "http", "body_ok", "info_ok"),
    [
        (status(404, [info()]), 404, True, True),
        (status(404, []), 404, True, False),
        (status(400, [info(reason="NOT_FOUND")]), 400, True, False),
        (status(500, [info()]), 404, False, True),  # error.code is not the HTTP status
        (status(404, [info()], name=None), 404, False, True),
        (json.dumps({"code": -32001, "message": "no"}), 404, False, False),  # not a google.rpc.Status
        ("<html>oops</html>", 409, False, False),
        (status(500, None, name="INTERNAL"), 500, True, None),  # no A2A status: no ErrorInfo needed
    ],
)
def test_an_http_json_error_is_a_google_rpc_status_with_its_error_info(text, http, body_ok, info_ok):
    _, body, found = judge_rest_error(text, http)
    assert body.ok is body_ok, body
    assert (found.ok if found is not None else None) is info_ok, found


@pytest.mark.parametrize(
    ("content_type", "ok"),
    [("application/json", True), ("application/a2a+json; charset=utf-8", True), ("text/html", False), ("", False)],
)
def test_an_http_json_error_comes_as_json(content_type, ok):
    _, body, _ = judge_rest_error(status(404, [info()]), 404, content_type)
    assert body.ok is ok, body


def test_every_error_of_an_exchange_is_judged_in_a_body_or_in_an_sse_frame():
    answered = Exchange(1, "POST", "http://agent/", rpc="GetTask", status=200, body=rpc_error(-32001, [info()]))
    streamed = stream_exchange(rpc({"task": {}}), rpc_error(-32004))
    cut = Exchange(3, "POST", "http://agent/", rpc="CancelTask", status=200, body=rpc_error(-32002), truncated=True)
    seen = errors_in([answered, streamed, cut], "JSONRPC")
    assert [(e.sent, e.code, e.info.ok if e.info else None) for e in seen] == [
        ("GetTask", "-32001", True),
        ("SendStreamingMessage", "-32004", False),
    ]
    rest = Exchange(4, "GET", "http://agent/rest/tasks/x?historyLength=1", status=404, body=status(404, [info()]),
                    content_type="application/json")  # fmt: skip
    assert [(e.sent, e.code) for e in errors_in([rest], "HTTP+JSON")] == [("GET /rest/tasks/x", "HTTP 404")]


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
