"""Fuzz the push receiver over real sockets: arbitrary bytes, requests that are nearly HTTP (random methods, paths,
versions, headers, framings and bodies) and arbitrary JSON under a valid token. Each gets HTTP statuses among
100/200/400/401/404/408/413/431 or a close, never an exception (none in the loop's handler, none logged, no fault
recorded), and a valid push is accepted right after it. One receiver serves the whole run, in a thread of its own,
so what one example leaves behind is met by the next."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st
from raw_http import WAIT, post, statuses

from switchboard.a2a.push import PATH, PushReceiver

TASK = "task-fuzz"
ALLOWED = {100, 200, 400, 401, 404, 408, 413, 431}


@dataclass
class Running:
    """The receiver, its loop's thread, and every fault the loop or its logger reported."""

    receiver: PushReceiver
    loop: asyncio.AbstractEventLoop
    token: str
    faults: list[object] = field(default_factory=list)

    def call(self, coroutine):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(WAIT)


class _Faults(logging.Handler):
    def __init__(self, faults: list[object]) -> None:
        super().__init__(logging.DEBUG)
        self.faults = faults

    def emit(self, record: logging.LogRecord) -> None:
        self.faults.append(record.getMessage())


@pytest.fixture(scope="module")
def running() -> Iterator[Running]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="push receiver", daemon=True)
    thread.start()
    receiver = PushReceiver()
    asyncio.run_coroutine_threadsafe(receiver.start(), loop).result(WAIT)
    state = Running(receiver, loop, receiver.register(TASK))
    loop.call_soon_threadsafe(loop.set_exception_handler, lambda _loop, context: state.faults.append(context))
    handler = _Faults(state.faults)
    logging.getLogger("asyncio").addHandler(handler)
    try:
        yield state
    finally:
        logging.getLogger("asyncio").removeHandler(handler)
        asyncio.run_coroutine_threadsafe(receiver.aclose(), loop).result(WAIT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(WAIT)
        loop.close()


def send(port: int, data: bytes, *, abort: bool = False) -> bytes:
    """`data` on a fresh connection, then the end of our side (or a reset); what comes back until the close."""
    got = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        with contextlib.suppress(ConnectionError):  # the receiver may answer and close before it has it all
            sock.sendall(data)
            if abort:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                return b""
            sock.shutdown(socket.SHUT_WR)
        with contextlib.suppress(ConnectionError):
            while chunk := sock.recv(65536):
                got += chunk
    return bytes(got)


def holds_up(running: Running, response: bytes) -> None:
    """The answer was statuses we promise (or none: closed), nothing went wrong inside, and a push still works."""
    assert set(statuses(response)) <= ALLOWED, response[:300]
    assert running.faults == []
    assert all(r.status != 500 for r in running.receiver.refused), running.receiver.refused[-3:]
    marker = uuid.uuid4().hex
    update = {"statusUpdate": {"taskId": TASK, "contextId": marker, "status": {"state": "TASK_STATE_WORKING"}}}
    body = json.dumps(update).encode()
    assert statuses(send(running.receiver.port, post(PATH, body, running.token))) == [200]

    async def arrived() -> None:
        events = aiter(running.receiver.events(TASK))
        while (await anext(events)).context_id != marker:  # what the example itself got accepted comes first
            pass

    running.call(asyncio.wait_for(arrived(), WAIT))


@fuzz(examples=150)
@given(data=st.binary(max_size=2048), abort=st.booleans())
def test_arbitrary_bytes(running, data, abort):
    holds_up(running, send(running.receiver.port, data, abort=abort))


HEADER_NAMES = [
    "Host", "Content-Length", "Transfer-Encoding", "X-A2A-Notification-Token", "Expect", "Connection",
    "Content-Type", "Upgrade", "X-Anything",
]  # fmt: skip
HEADER_VALUES = [
    "0", "5", "-1", "99999999999999999999", " 7 ", "chunked", "gzip, chunked", "chunked, gzip", "100-continue",
    "close", "keep-alive", "application/json", "h2c", "", "TOKEN", "TOKEN ", "a\tb",
]  # fmt: skip
text = st.text(st.characters(codec="latin-1", exclude_characters="\r\n"), max_size=40)


@st.composite
def nearly_http(draw: st.DrawFn) -> bytes:
    """A request that is HTTP, or nearly: every part drawn from what a real one holds and what breaks one."""
    method = draw(st.sampled_from(["POST", "GET", "PUT", "post", "CONNECT", "", "PO ST"]) | text)
    path = draw(st.sampled_from([PATH, PATH + "?x=1", "/", "*", "http://127.0.0.1" + PATH, "//a2a/push"]) | text)
    version = draw(st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1 extra", "", "HTTP/9"]))
    names = st.sampled_from(HEADER_NAMES) | text
    values = st.sampled_from(HEADER_VALUES) | text
    headers = draw(st.lists(st.tuples(names, values), max_size=8))
    if draw(st.booleans()):
        headers.append(("X-A2A-Notification-Token", "TOKEN"))
    body = draw(st.binary(max_size=512) | st.just(b'{"statusUpdate": {"taskId": "task-fuzz"}}'))
    if draw(st.booleans()):
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)  # chunked, with or without the header that says so
    elif draw(st.booleans()):
        headers.append(("Content-Length", str(len(body) + draw(st.integers(-3, 3)))))
    line_end = draw(st.sampled_from(["\r\n", "\n", "\r"]))
    head = f"{method} {path} {version}" + "".join(f"{line_end}{n}: {v}" for n, v in headers) + line_end * 2
    data = head.encode("latin-1") + body
    return data * draw(st.integers(1, 3))  # pipelined, sometimes


@fuzz(examples=200)
@given(data=nearly_http())
def test_nearly_http_requests(running, data):
    holds_up(running, send(running.receiver.port, data.replace(b"TOKEN", running.token.encode())))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
states = st.sampled_from(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "working", "completed", "", "nope"])
shaped = st.fixed_dictionaries(
    {"statusUpdate": st.fixed_dictionaries({"taskId": st.sampled_from([TASK, "other", ""]) | json_values})},
    optional={
        "artifactUpdate": json_values,
        "task": st.fixed_dictionaries({"id": st.just(TASK), "status": st.fixed_dictionaries({"state": states})}),
        "kind": st.sampled_from(["task", "status-update", "message"]) | json_values,
        "id": st.just(TASK),
        "status": st.fixed_dictionaries({"state": states}) | json_values,
    },
)


@fuzz(examples=200)
@given(payload=json_values | shaped)
def test_arbitrary_json_under_a_valid_token(running, payload):
    body = json.dumps(payload).encode()
    response = send(running.receiver.port, post(PATH, body, running.token))
    assert len(statuses(response)) == 1 and statuses(response)[0] in {200, 400, 404}, response[:300]
    holds_up(running, response)
