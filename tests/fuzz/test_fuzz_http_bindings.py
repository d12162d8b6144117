"""Fuzz: the answers of an agent over HTTP, JSON-RPC and HTTP+JSON, v1.0 and v0.3, read by the client's transports.

Each example is one call (send, get, cancel, the bounded get, list, the extended card, each push-config call, a
stream or a resubscribe) answered through httpx.MockTransport with fuzzed bytes: a real server's capture broken at
the JSON level or the byte level, or noise, under any status and content type. The call returns our model or raises
a SwitchboardError with a message; it ends in time; what it decoded can be shown and written as JSON, and the error
and notes as shown hold no terminal control.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from fuzz_calls import OPS, STREAM_OPS, call, show
from fuzz_inputs import (
    TRANSCRIPTS,
    ChunkedBody,
    answers,
    bounded,
    damaged,
    documented,
    endless,
    raw_json,
    shown_clean,
    split,
)
from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.a2a.cards import parse_card
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.http import RetryPolicy
from switchboard.a2a.model import AgentCard, StreamEvent
from switchboard.a2a.transports.http_transport import MAX_FRAME
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.transports.rest import RestTransport

BASE = "http://agent.test/"
CARD_URL = BASE + ".well-known/agent-card.json"
QUICK_RETRY = RetryPolicy(attempts=2, backoff=0.0, max_backoff=0.0)  # the retry path, without its waits

# binding, version -> the capture folder and the file names' prefix
CAPTURES = {
    ("JSONRPC", "1.0"): ("v10-jsonrpc", "v10-"),
    ("JSONRPC", "0.3"): ("v03-jsonrpc-sdk03-native", "v03-"),
    ("HTTP+JSON", "1.0"): ("rest-sdk13", "rest-v10-"),
    ("HTTP+JSON", "0.3"): ("rest-sdk13", "rest-v03-"),
}
STATUSES = st.sampled_from([200, 200, 200, 201, 204, 400, 401, 403, 404, 409, 415, 422, 429, 500, 501, 502, 503, 999])
CONTENT_TYPES = st.sampled_from(
    [
        "application/json",
        "application/a2a+json",
        "text/event-stream",
        "text/event-stream; charset=utf-16",
        "text/html",
        "",
        "application/json; charset=latin-1",
        "application/json; charset=utf-16",
        "application/json; charset=utf-32",
        "application/json; charset=no-such-codec",
    ]
)


def _documents(folder: str, prefix: str) -> list[Any]:
    found = []
    for path in sorted((TRANSCRIPTS / folder).glob(prefix + "*.json")):
        try:
            found.append(json.loads(path.read_text()))
        except ValueError:
            continue
    return found


def _frames(folder: str, prefix: str) -> list[list[tuple[str, str]]]:
    """Each SSE capture as its frames: (event name, data)."""
    streams = []
    for path in sorted((TRANSCRIPTS / folder).glob(prefix + "*.sse")):
        frames = []
        for block in path.read_text().replace("\r\n", "\n").split("\n\n"):
            event, data = "", []
            for line in block.splitlines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
            if data:
                frames.append((event, "\n".join(data)))
        streams.append(frames)
    return streams


DOCUMENTS = {key: _documents(*where) for key, where in CAPTURES.items()}
STREAMS = {key: _frames(*where) for key, where in CAPTURES.items()}
SEPARATORS = st.sampled_from([b"\n\n", b"\r\n\r\n", b"\r\r", b"\n", b"\n\n\n"])
EXTRA_LINES = st.sampled_from(
    [b": ping\n\n", b"event: error\n", b"id: 7\n", b"retry: 1\n", b"retry: x\n\n", b"data:\n\n", b"event:\n", b"data"]
)


def card_for(binding: str, version: str) -> AgentCard:
    interface = {"url": BASE, "protocolBinding": binding, "protocolVersion": version}
    return parse_card({"name": "fuzzed", "supportedInterfaces": [interface], "capabilities": {"streaming": True}})


@st.composite
def sse_bodies(draw: st.DrawFn, key: tuple[str, str]) -> bytes:
    """A captured stream with some frames' data broken, frames dropped or added, odd separators and lines."""
    frames = draw(st.sampled_from(STREAMS[key]))
    out = bytearray()
    for event, data in draw(st.lists(st.sampled_from(frames), max_size=6)) or frames:
        kind = draw(st.sampled_from(["keep", "keep", "json", "bytes"]))
        if kind == "json":
            payload = draw(raw_json(json.loads(data), max_tokens=2))
        elif kind == "bytes":
            payload = draw(damaged(data.encode()))
        else:
            payload = data.encode()
        if event:
            out += b"event: " + event.encode() + b"\n"
        if draw(st.booleans()):
            out += draw(EXTRA_LINES)
        out += b"data: " + payload.replace(b"\n", b" ") + draw(SEPARATORS)
    return bytes(out)


@st.composite
def exchanges(draw: st.DrawFn) -> tuple[tuple[str, str], str, int, str, list[bytes]]:
    key = draw(st.sampled_from(sorted(CAPTURES)))
    op = draw(st.sampled_from(OPS + STREAM_OPS))
    if op in STREAM_OPS and draw(st.integers(0, 3)):
        body = draw(sse_bodies(key))
        status = 200
        content_type = draw(st.sampled_from(["text/event-stream", "text/event-stream; charset=utf-16"]))
    else:
        body = draw(answers(draw(st.sampled_from(DOCUMENTS[key]))))
        status, content_type = draw(STATUSES), draw(CONTENT_TYPES)
    cuts = draw(st.lists(st.integers(0, 2**16), max_size=6))
    return key, op, status, content_type, split(body, cuts)


async def exchange(key: tuple[str, str], op: str, status: int, content_type: str, chunks: list[bytes]) -> None:
    binding, version = key

    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": content_type} if content_type else {}
        return httpx.Response(status, headers=headers, stream=ChunkedBody(chunks))

    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    kind = JsonRpcTransport if binding == "JSONRPC" else RestTransport
    transport = kind(card_for(binding, version), card_url=CARD_URL, http=http, retry=QUICK_RETRY)
    error: SwitchboardError | None = None
    try:
        for result in await call(transport, op):
            show(result)
    except Exception as exc:
        error = documented(exc)
    finally:
        await http.aclose()
    shown_clean(error, transport.notes)


@fuzz(examples=300)
@given(case=exchanges())
@example(
    case=(
        ("JSONRPC", "1.0"),
        "get",
        200,
        "application/json",
        [b'{"jsonrpc":"2.0","id":1,"result":' + b"9" * 5000 + b"}"],
    )
)
@example(
    case=(("HTTP+JSON", "1.0"), "get", 404, "application/json", [b'{"error":{"details":' + b"[" * 100_000 + b"}}"])
)
@example(  # found by the long run: an error's ErrorInfo reason that is a list (TypeError: unhashable)
    case=(
        ("JSONRPC", "1.0"),
        "send",
        200,
        "application/json",
        [b'{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x","data":[{"reason":["TASK_NOT_FOUND"]}]}}'],
    )
)
@example(case=(("HTTP+JSON", "1.0"), "get", 404, "application/json", [b'{"error":{"code":[1],"message":"x"}}']))
def test_any_answer_over_http_is_our_model_or_a_documented_error(case):
    bounded(lambda: exchange(*case))


def test_a_stream_frame_that_never_ends_is_refused_after_the_cap_not_held():
    body = ChunkedBody(endless(b"data: " + b"A" * (2**20 - 6)))

    async def run() -> SwitchboardError:
        def answer(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=body)

        http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
        transport = JsonRpcTransport(card_for("JSONRPC", "1.0"), card_url=CARD_URL, http=http)
        try:
            async for _ in transport.stream(new_message("hi")):
                pass
        except SwitchboardError as exc:
            return exc
        finally:
            await http.aclose()
        raise AssertionError("the stream was read to its end")

    error = bounded(run)
    assert error.code == "InvalidAgentResponseError" and "more than 16 M characters" in error.message
    assert body.read <= MAX_FRAME + 2**20


def test_a_stream_whose_content_type_names_utf_16_is_read_as_utf_8_as_event_streams_are():
    update = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}}
    frame = b"data: " + json.dumps({"jsonrpc": "2.0", "id": 1, "result": update}).encode() + b"\n\n"

    async def run() -> list[StreamEvent]:
        def answer(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream; charset=utf-16"}, content=frame)

        http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
        transport = JsonRpcTransport(card_for("JSONRPC", "1.0"), card_url=CARD_URL, http=http)
        try:
            return [event async for event in transport.stream(new_message("hi"))]
        finally:
            await http.aclose()

    [event] = bounded(run)
    assert event.status.state.value == "completed"
