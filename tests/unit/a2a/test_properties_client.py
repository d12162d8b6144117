"""Property tests of the client's stream reading: bytes off the wire (broken UTF-8, non-JSON, JSON nested past
the parser's limit, numbers too long to read, error frames) become events, notes, or a SwitchboardError."""

from __future__ import annotations

import asyncio
import json

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st
from properties_support import events, mutated, writable_odd_values

from switchboard.a2a.cards import parse_card
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import v10

BASE = "http://agent.test/"
CARD = {
    "name": "fuzzed",
    "supportedInterfaces": [{"url": BASE, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
    "capabilities": {"streaming": True},
}
JUNK_FRAMES = [
    b"\xff\xfe\xc3(",  # not UTF-8
    b'{"jsonrpc": "2.0", "id": 1, "result": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"jsonrpc": "2.0", "id": 1, "result": ' + b"9" * 5000 + b"}",
    b'{"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": {"taskId": "t\xc0\xaf"}}}',
    b"not json at all",
    b"[1, 2, 3]",
    b'{"jsonrpc": "2.0", "id": 1}',
    b'"\\ud800"',
]


def frame(payload: bytes) -> bytes:
    return b"data: " + payload.replace(b"\n", b" ") + b"\n\n"


def wrap(result) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}).encode()


async def run_stream(body: bytes) -> tuple[list, SwitchboardError | None, list[str]]:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    client = JsonRpcTransport(parse_card(CARD), card_url=BASE + ".well-known/agent-card.json", http=http)
    received, error = [], None
    try:
        async for event in client.stream(new_message("hi")):
            received.append(event)
    except SwitchboardError as exc:
        error = exc
    finally:
        await http.aclose()
    return received, error, list(client.notes)


@settings(max_examples=120)
@given(
    data=st.data(),
    good=st.lists(events, max_size=4),
    junk=st.lists(st.sampled_from(JUNK_FRAMES) | st.binary(max_size=40), max_size=4),
)
def test_any_mix_of_good_broken_and_junk_frames_is_read_without_an_unexpected_exception(data, good, junk):
    frames = [frame(wrap(data.draw(mutated(v10.encode_event(e), values=writable_odd_values)))) for e in good]
    frames += [frame(j) for j in junk]
    order = data.draw(st.permutations(frames))
    received, error, notes = asyncio.run(run_stream(b"".join(order)))
    view = TaskView()
    for event in received:
        view.apply(event)
    assert error is None or error.message
    assert all(isinstance(n, str) for n in notes)


def test_junk_frames_become_notes_and_the_good_frame_still_arrives():
    good = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}
    body = b"".join(frame(j) for j in JUNK_FRAMES) + frame(wrap(good))
    received, error, notes = asyncio.run(run_stream(body))
    assert error is None
    assert [v10.encode_event(e) for e in received] == [good]  # after every junk frame
    assert len(notes) >= 5
    assert any("not JSON" in n for n in notes)
