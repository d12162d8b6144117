"""Fuzz: what conformance reads off the wire (a2a/conformance/streams.py, error_bodies.py, artifacts.py): a
stream's frames and content type, the state values and artifacts in them, a task's body, and an error's body, each
as an agent might send them (broken JSON, damaged frames, noise, deep nesting). The judges never raise; what they
say is text the report can print."""

from __future__ import annotations

import h11
from fuzz_inputs import answers
from fuzz_support import fuzz
from hypothesis import assume, example, given
from hypothesis import strategies as st

from switchboard.a2a.model import Task, TaskState, TaskStatus
from switchboard.conformance.artifacts import judge_chunks, judge_in_task, judge_shape, read_stream, read_task
from switchboard.conformance.error_bodies import errors_in, judge_jsonrpc_error, judge_rest_error
from switchboard.conformance.push_delivery import Webhook
from switchboard.conformance.streams import judge_stream, judge_transport, raw_states
from switchboard.conformance.wire_log import Exchange

FRAME = {
    "jsonrpc": "2.0",
    "id": 1,
    "result": {"statusUpdate": {"taskId": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}},
}
ERROR = {
    "jsonrpc": "2.0",
    "id": 1,
    "error": {
        "code": -32001,
        "message": "no such task",
        "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}],
    },
}
DEEP = b'{"result": ' * 5000 + b"1" + b"}" * 5000


def text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


@fuzz(examples=150)
@given(
    frames=st.lists(st.tuples(answers(FRAME).map(text), st.booleans()), max_size=6),
    body=answers(FRAME).map(text),
    content_type=st.sampled_from(["text/event-stream", "application/json", "", "TEXT/EVENT-STREAM; charset=x"]),
    binding=st.sampled_from(["JSONRPC", "HTTP+JSON"]),
    version=st.sampled_from(["1.0", "0.3"]),
)
@example(frames=[(text(DEEP), False)], body=text(DEEP), content_type="text/event-stream", binding="JSONRPC",
         version="1.0")  # fmt: skip
def test_a_stream_of_anything_is_judged_without_raising(frames, body, content_type, binding, version):
    exchange = Exchange(1, "POST", "http://agent/", status=200, content_type=content_type, body=body)
    exchange.frames = frames
    for finding in judge_transport(exchange, binding, version):
        assert isinstance(finding.detail, str) and isinstance(finding.answered, str)
    assert all(isinstance(state, str) for state in raw_states(exchange))
    # the whole stream's judgment (wire, then the events a client made of it) never raises either
    events = [Task(id="t1", context_id="c1", status=TaskStatus(state=TaskState.WORKING))]
    for finding in judge_stream(exchange, events, version, binding, going=False):
        assert isinstance(finding.detail, str) and isinstance(finding.answered, str)


@fuzz(examples=150)
@given(
    body=answers(ERROR).map(text),
    binding=st.sampled_from(["JSONRPC", "HTTP+JSON"]),
    status=st.sampled_from([200, 400, 404, 409, 500]),
)
@example(body=text(DEEP), binding="JSONRPC", status=200)
@example(body=text(DEEP), binding="HTTP+JSON", status=404)
def test_an_error_body_of_anything_is_judged_without_raising(body, binding, status):
    judged = judge_jsonrpc_error(body)
    for finding in judged[1:] if judged else ():
        assert finding is None or (isinstance(finding.detail, str) and len(finding.detail) < 400)
    code, shape, info = judge_rest_error(body, status)
    assert len(code) < 80
    assert len(shape.detail) < 400 and (info is None or len(info.detail) < 400)
    exchange = Exchange(1, "POST", "http://agent/", rpc="GetTask", status=status, body=body)
    exchange.frames = [(body, False)]
    for seen in errors_in([exchange], binding):
        assert len(seen.sent) < 100 and len(seen.code) < 80


ARTIFACT_FRAME = {
    "jsonrpc": "2.0",
    "id": 1,
    "result": {
        "artifactUpdate": {
            "taskId": "t1",
            "contextId": "c1",
            "artifact": {"artifactId": "a1", "name": "n", "parts": [{"text": "x"}]},
            "append": True,
            "lastChunk": True,
        }
    },
}
TASK = {"jsonrpc": "2.0", "id": 1, "result": {"id": "t1", "artifacts": [{"artifactId": "a1", "parts": [{}]}]}}


@fuzz(examples=150)
@given(
    frames=st.lists(st.tuples(answers(ARTIFACT_FRAME).map(text), st.booleans()), max_size=6),
    body=answers(TASK).map(text),
    binding=st.sampled_from(["JSONRPC", "HTTP+JSON"]),
)
@example(frames=[(text(DEEP), False)], body=text(DEEP), binding="JSONRPC")
def test_artifacts_of_anything_are_judged_without_raising(frames, body, binding):
    exchange = Exchange(1, "POST", "http://agent/", status=200, content_type="text/event-stream", body=body)
    exchange.frames = frames
    stream = read_stream(exchange, binding)
    task = read_task(Exchange(2, "POST", "http://agent/", status=200, body=body), binding)
    for finding in (judge_shape(stream, task), judge_chunks(stream), judge_in_task(stream, task)):
        assert finding is None or (len(finding.detail) < 800 and len(finding.answered) < 200)


CREDENTIALS = "fuzz-credentials-0123456789"


@fuzz(examples=200)
@given(value=st.one_of(st.binary(max_size=80), st.sampled_from([b"Bearer", b"Bearer ", b"bearer  x", b"\xff\xfe"])))
@example(value=b"Bearer " + CREDENTIALS.encode())
@example(value=b"BEARER \t" + CREDENTIALS.encode() + b" ")
def test_the_webhooks_authorization_check_takes_any_header_and_lets_through_only_the_one_it_asked_for(value):
    """conformance/push_delivery.py reads the Authorization of a push (an untrusted sender's header, as h11 parsed
    it): any value is a decision, never an exception, and only `Bearer CREDENTIALS` is let through."""
    webhook = Webhook(CREDENTIALS)
    token = webhook.register("t-1")
    try:
        request = h11.Request(method="POST", target=webhook.path, headers=[
            (b"host", b"x"), (b"x-a2a-notification-token", token.encode()), (b"authorization", value)
        ])  # fmt: skip
    except h11.LocalProtocolError:
        assume(False)  # h11 would not have parsed it either: it never reaches the webhook
    decided = webhook.decide(request)
    scheme, _, given_credentials = value.decode("latin-1").strip().partition(" ")
    expected = scheme.lower() == "bearer" and given_credentials.strip() == CREDENTIALS
    assert decided == (None if expected else 401)
    assert [(h.token, h.authorized) for h in webhook.heads] == [(True, expected)]
