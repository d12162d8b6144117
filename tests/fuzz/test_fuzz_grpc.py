"""Fuzz: a gRPC agent's answers, bytes -> protobuf -> our model, v1.0 and v0.3, read by the client's GrpcTransport.

A real gRPC server on 127.0.0.1 answers every method of both services with the bytes each example gives (its
handlers serialize nothing, so what goes on the wire is exactly those bytes): real messages built from the
captures, the same with odd values protobuf allows and JSON does not (NaN and Infinity in a Struct, a timestamp
past year 9999, an enum number no version names, a Struct nested near protobuf's limit, a megabyte of text), the
bytes damaged, or noise; or it ends the call with any status, details and a google.rpc.Status trailer, also
fuzzed. The call returns our model or raises a SwitchboardError, in time; what it shows holds no terminal control.
"""

from __future__ import annotations

import json
import threading
from concurrent import futures
from typing import Any

import grpc
import pytest
from a2a.compat.v0_3 import a2a_v0_3_pb2
from a2a.types import a2a_pb2
from fuzz_calls import OPS, STREAM_OPS, call, show
from fuzz_inputs import HOSTILE_TEXT, TRANSCRIPTS, bounded, damaged, documented, shown_clean
from fuzz_support import fuzz
from google.protobuf import json_format
from google.protobuf.message import Message as ProtoMessage
from google.rpc import error_details_pb2, status_pb2
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.http import RetryPolicy
from switchboard.a2a.transports.grpc import _OPS, _SERVICES, GrpcTransport

CARD_URL = "http://127.0.0.1/.well-known/agent-card.json"
QUICK_RETRY = RetryPolicy(attempts=2, backoff=0.0, max_backoff=0.0)


def _capture(path: str) -> Any:
    value = json.loads((TRANSCRIPTS / path).read_text())
    return value.get("result", value)


def _frames(path: str) -> list[Any]:
    found = []
    for line in (TRANSCRIPTS / path).read_text().splitlines():
        if line.startswith("data:"):
            value = json.loads(line[5:])
            found.append(value.get("result", value))
    return found


def _proto(kind: type[ProtoMessage], value: Any) -> ProtoMessage:
    return json_format.ParseDict(value, kind(), ignore_unknown_fields=True)


def _odd(task: ProtoMessage) -> list[ProtoMessage]:
    """`task` with values the binary format carries and JSON cannot, or our model does not expect."""
    made = []
    for change in ("nan", "timestamp", "enum", "deep", "long", "hostile"):
        odd = type(task)()
        odd.CopyFrom(task)
        if change == "nan":
            odd.metadata.update({"n": float("nan"), "i": float("inf"), "m": float("-inf")})
        elif change == "timestamp":
            odd.status.timestamp.seconds = 10**13  # past year 9999
            odd.status.timestamp.nanos = 999_999_999
        elif change == "enum":
            odd.status.state = 999
        elif change == "deep":
            inner: dict[str, Any] = {"bottom": 1}
            for _ in range(30):  # three proto levels each: near protobuf's limit of 100
                inner = {"m": inner}
            odd.metadata.update(inner)
        elif change == "long":
            odd.context_id = "A" * 1_000_000
        else:
            odd.context_id = HOSTILE_TEXT[4]
            odd.metadata.update({HOSTILE_TEXT[3]: HOSTILE_TEXT[5]})
        made.append(odd)
    return made


def _messages() -> dict[str, list[bytes]]:
    v10_task = _proto(a2a_pb2.Task, _capture("v10-jsonrpc/v10-12-get-task.json"))
    v03_task = _proto(a2a_v0_3_pb2.Task, _capture("rest-sdk13/rest-v03-03-get-task.json"))
    v10 = [
        v10_task,
        _proto(a2a_pb2.SendMessageResponse, _capture("v10-jsonrpc/v10-10-send-blocking-first.json")),
        _proto(a2a_pb2.ListTasksResponse, _capture("v10-jsonrpc/v10-45-list-tasks.json")),
        _proto(a2a_pb2.AgentCard, _capture("v10-jsonrpc/v10-46-get-extended-agent-card.json")),
        a2a_pb2.TaskPushNotificationConfig(task_id="t-1", id="c-1", url="https://hook.test/"),
        *(
            _proto(a2a_pb2.StreamResponse, f)
            for f in _frames("v10-jsonrpc/v10-31-stream-followup-chunked-artifact.sse")
        ),
        *_odd(v10_task),
        *(a2a_pb2.StreamResponse(task=t) for t in _odd(v10_task)),
    ]
    v03 = [
        v03_task,
        _proto(a2a_v0_3_pb2.SendMessageResponse, _capture("rest-sdk13/rest-v03-01-message-send.json")),
        _proto(a2a_v0_3_pb2.AgentCard, _capture("rest-sdk13/rest-v03-06-card.json")),
        *(
            _proto(a2a_v0_3_pb2.StreamResponse, f)
            for f in _frames("rest-sdk13/rest-v03-02-message-stream-followup.sse")
        ),
        *_odd(v03_task),
        *(a2a_v0_3_pb2.StreamResponse(task=t) for t in _odd(v03_task)),
    ]
    return {"1.0": [m.SerializeToString() for m in v10], "0.3": [m.SerializeToString() for m in v03]}


MESSAGES = _messages()
# Found by this suite: grpc hands the call None for bytes that do not parse (AttributeError), and MessageToDict
# raises for NaN in a Struct (SerializeToJsonError).
NAN_TASK = _odd(_proto(a2a_pb2.Task, _capture("v10-jsonrpc/v10-12-get-task.json")))[0].SerializeToString()
ENCODABLE = [t for t in HOSTILE_TEXT if "\ud800" not in t]  # a protobuf string is UTF-8: no lone surrogate
CODES = st.sampled_from(list(grpc.StatusCode)).filter(lambda c: c is not grpc.StatusCode.OK)
REASONS = st.sampled_from(["TASK_NOT_FOUND", "UNSUPPORTED_OPERATION", "NOPE", "", HOSTILE_TEXT[3]])


@st.composite
def status_details(draw: st.DrawFn) -> bytes:
    """A google.rpc.Status with an ErrorInfo, as v1.0 servers send in the trailers; or damaged, or noise."""
    status = status_pb2.Status(code=draw(st.integers(-1, 20)), message=draw(st.sampled_from(ENCODABLE)))
    status.details.add().Pack(error_details_pb2.ErrorInfo(reason=draw(REASONS), domain="a2a-protocol.org"))
    whole = status.SerializeToString()
    return draw(st.just(whole) | damaged(whole) | st.binary(max_size=32))


@st.composite
def answers(draw: st.DrawFn) -> dict[str, Any]:
    version = draw(st.sampled_from(["1.0", "0.3"]))
    op = draw(st.sampled_from(OPS + STREAM_OPS))
    bodies = draw(
        st.lists(
            st.sampled_from(MESSAGES[version]).flatmap(lambda m: st.just(m) | damaged(m)) | st.binary(max_size=64),
            min_size=1,
            max_size=4,
        )
    )
    end = None
    if draw(st.integers(0, 2)) == 0:
        details = draw(st.sampled_from([*HOSTILE_TEXT[:9], "TaskNotFoundError: gone", "", "é" * 300]))
        end = (draw(CODES), details, draw(st.none() | status_details()))
    return {"version": version, "op": op, "bodies": bodies, "end": end}


class Script:
    """What the server answers next; set by the test before each call (one call at a time)."""

    answer: dict[str, Any] = {"bodies": [b""], "end": None}


def _finish(context: grpc.ServicerContext) -> None:
    end = Script.answer["end"]
    if end is None:
        return
    code, details, trailer = end
    if trailer is not None:
        context.set_trailing_metadata([("grpc-status-details-bin", trailer)])
    context.abort(code, details.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))


def _unary(request: bytes, context: grpc.ServicerContext) -> bytes:
    _finish(context)
    return Script.answer["bodies"][0]


def _streaming(request: bytes, context: grpc.ServicerContext):
    yield from Script.answer["bodies"]
    _finish(context)


@pytest.fixture(scope="module")
def grpc_port():
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    for version, ops in _OPS.items():
        handlers = {}
        for method, _, streams in ops.values():
            wrap = grpc.unary_stream_rpc_method_handler if streams else grpc.unary_unary_rpc_method_handler
            handlers[method] = wrap(_streaming if streams else _unary)  # bytes in, bytes out
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(_SERVICES[version], handlers),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield port
    server.stop(grace=None)


LOCK = threading.Lock()


async def exchange(port: int, version: str, op: str) -> None:
    interface = {"url": f"127.0.0.1:{port}", "protocolBinding": "GRPC", "protocolVersion": version}
    card = parse_card({"name": "fuzzed", "supportedInterfaces": [interface], "capabilities": {"streaming": True}})
    transport = GrpcTransport(card, card_url=CARD_URL, retry=QUICK_RETRY)
    error: SwitchboardError | None = None
    try:
        for result in await call(transport, op):
            show(result)
    except Exception as exc:
        error = documented(exc)
    finally:
        await transport.aclose()
    shown_clean(error, transport.notes)


@fuzz(examples=150)
@given(case=answers())
@example(case={"version": "1.0", "op": "get", "bodies": [NAN_TASK], "end": None})
@example(case={"version": "1.0", "op": "send", "bodies": [b"\x00"], "end": None})
@example(case={"version": "1.0", "op": "stream", "bodies": [b"\x00", NAN_TASK], "end": None})
def test_any_grpc_answer_is_our_model_or_a_documented_error(grpc_port, case):
    with LOCK:
        Script.answer = case
        bounded(lambda: exchange(grpc_port, case["version"], case["op"]))


def test_the_unbroken_capture_reads_as_the_task_so_the_fuzzed_bytes_start_from_a_real_answer(grpc_port):
    async def get() -> Any:
        interface = {"url": f"127.0.0.1:{grpc_port}", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
        card = parse_card({"name": "fuzzed", "supportedInterfaces": [interface]})
        transport = GrpcTransport(card, card_url=CARD_URL)
        try:
            return await transport.get_task("t-1")
        finally:
            await transport.aclose()

    with LOCK:
        Script.answer = {"bodies": [MESSAGES["1.0"][0]], "end": None}
        task = bounded(get)
    assert task.id == "41699a02-aeba-4648-83ea-e8511b4d4a2e" and task.status.state.value == "completed"


@pytest.mark.parametrize("body", [b"\x00", NAN_TASK], ids=["not-protobuf", "nan-in-a-struct"])
def test_an_answer_that_does_not_parse_or_has_no_json_form_is_an_invalid_response(grpc_port, body):
    async def get() -> SwitchboardError:
        interface = {"url": f"127.0.0.1:{grpc_port}", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
        transport = GrpcTransport(parse_card({"name": "f", "supportedInterfaces": [interface]}), card_url=CARD_URL)
        try:
            await transport.get_task("t-1")
        except SwitchboardError as exc:
            return exc
        finally:
            await transport.aclose()
        raise AssertionError("read")

    with LOCK:
        Script.answer = {"bodies": [body], "end": None}
        error = bounded(get)
    assert error.code == "InvalidAgentResponseError"
