"""Fuzz the push receiver over real sockets: arbitrary bytes, requests that are nearly HTTP (random methods, paths,
versions, headers, framings and bodies) and arbitrary JSON under a valid token. Each gets HTTP statuses among
100/200/400/401/404/408/413/431 or a close, never an exception (none in the loop's handler, none logged, no fault
recorded); a refusal closes the connection; and a valid push is accepted right after. One receiver serves the
whole run, in a thread of its own, so what one example leaves behind is met by the next."""

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

from switchboard.push.receiver import PATH, PushReceiver
from switchboard.push.server import Limits

TASK = "task-fuzz"
ALLOWED = {100, 200, 400, 401, 404, 408, 413, 431}
MAX_BODY = 4096  # lowered, so that bodies past it cost an example little


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
    receiver = PushReceiver(limits=Limits(max_body=MAX_BODY))
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
    got = statuses(response)
    assert set(got) <= ALLOWED, response[:300]
    assert all(status in (100, 200) for status in got[:-1]), got  # a refusal closes: nothing is answered after it
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


PARTS = ["method", "path", "version", "host", "token", "headers", "big", "body", "framing", "line ends"]


@st.composite
def nearly_http(draw: st.DrawFn) -> bytes:
    """A push as a sender writes it, with a few of its parts (none, often) swapped for what a real request holds
    elsewhere or for what breaks one: method, path, version, headers, token, framing, body; pipelined sometimes."""
    spoiled = draw(st.sets(st.sampled_from(PARTS), max_size=3))

    def part(name: str, usual: object, *others: object) -> object:
        return draw(st.sampled_from(others) | text) if name in spoiled else usual

    method = part("method", "POST", "GET", "PUT", "post", "CONNECT", "", "PO ST")
    path = part("path", PATH, PATH + "?x=1", "/", "*", "http://127.0.0.1" + PATH, "//a2a/push")
    version = part("version", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1 extra", "", "HTTP/9")
    headers = [] if "host" in spoiled else [("Host", "127.0.0.1")]
    token = part("token", "TOKEN", "guessed", "TOKEN ", None)
    if token is not None:
        headers.append(("X-A2A-Notification-Token", str(token)))
    if "headers" in spoiled:
        extra = st.tuples(st.sampled_from(HEADER_NAMES) | text, st.sampled_from(HEADER_VALUES) | text)
        headers += draw(st.lists(extra, min_size=1, max_size=4))
    if "big" in spoiled:
        headers.append(("X-Big", "a" * draw(st.sampled_from([16000, 17000, 40000]))))
    event = {"statusUpdate": {"taskId": TASK, "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}
    body = json.dumps(event).encode()
    if "body" in spoiled:
        body = draw(
            st.sampled_from([b"", b"{}", b"{nope", b"[" * 3000, b"x" * (MAX_BODY + 1)]) | st.binary(max_size=256)
        )
    framing = part("framing", "length", "chunked", "both", "none", "wrong length", "huge length")
    if framing in ("chunked", "both"):
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        headers.append(("Transfer-Encoding", "chunked"))
    if framing in ("length", "both"):
        headers.append(("Content-Length", str(len(body))))
    elif framing == "wrong length":
        headers.append(("Content-Length", str(max(0, len(body) + draw(st.integers(-3, 3))))))
    elif framing == "huge length":
        headers.append(("Content-Length", str(10**9)))
    end = part("line ends", "\r\n", "\n", "\r")
    order = draw(st.permutations(headers))
    head = f"{method} {path} {version}" + "".join(f"{end}{n}: {v}" for n, v in order) + f"{end}{end}"
    return (head.encode("latin-1") + body) * draw(st.integers(1, 3))  # pipelined, sometimes


@fuzz(examples=200)
@given(data=nearly_http())
def test_nearly_http_requests(running, data):
    holds_up(running, send(running.receiver.port, data.replace(b"TOKEN", running.token.encode())))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
task_ids = st.sampled_from([TASK, TASK, "other", ""]) | json_values
ids = st.text(max_size=12) | json_values
part = st.fixed_dictionaries({"text": st.text(max_size=20)}, optional={"metadata": json_values}) | json_values
message = st.fixed_dictionaries(
    {"messageId": ids, "role": st.sampled_from(["ROLE_AGENT", "ROLE_USER", "agent", 3]), "parts": st.lists(part)},
    optional={"taskId": task_ids, "contextId": ids},
)
state = st.sampled_from(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_X"])
status = st.fixed_dictionaries({"state": state | json_values}, optional={"message": message, "timestamp": ids})
artifact = st.fixed_dictionaries({"artifactId": ids, "parts": st.lists(part, max_size=3)})
# What a sender POSTs (v1.0 StreamResponses, a2a-sdk 0.3's whole Task), each field sometimes any JSON instead
events = st.one_of(
    st.fixed_dictionaries(
        {"statusUpdate": st.fixed_dictionaries({"taskId": task_ids, "contextId": ids, "status": status})}
    ),
    st.fixed_dictionaries(
        {
            "artifactUpdate": st.fixed_dictionaries(
                {"taskId": task_ids, "contextId": ids, "artifact": artifact},
                optional={"append": st.booleans() | json_values, "lastChunk": st.booleans()},
            )
        }
    ),
    st.fixed_dictionaries(
        {
            "task": st.fixed_dictionaries(
                {"id": task_ids, "contextId": ids, "status": status},
                optional={"history": st.lists(message, max_size=2), "artifacts": st.lists(artifact, max_size=2)},
            )
        }
    ),
    st.fixed_dictionaries({"message": message}),
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(["task", "status-update", "message"]) | json_values,
            "id": task_ids,
            "contextId": ids,
            "status": st.fixed_dictionaries({"state": st.sampled_from(["working", "completed", "bogus"])}),
        }
    ),
)


@fuzz(examples=200)
@given(payload=events | json_values)
def test_arbitrary_json_under_a_valid_token(running, payload):
    body = json.dumps(payload).encode()
    response = send(running.receiver.port, post(PATH, body, running.token))
    assert len(statuses(response)) == 1 and statuses(response)[0] in {200, 400, 404, 413}, response[:300]
    holds_up(running, response)
