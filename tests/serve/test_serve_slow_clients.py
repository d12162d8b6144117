"""How long a client may hold a served connection, and what the answer net lets out, on a real uvicorn in this process.

The server's own timeouts are seconds long (serve/bounds.py); these tests shorten them on the classes they
belong to, and wait for the server's action (a closed connection, an answer), never for a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, MutableMapping
from typing import Any

import uvicorn

from switchboard.serve.guard import Guard
from switchboard.serve.slow_clients import HeaderDeadline, connection_limits


class QuickDeadline(HeaderDeadline):
    header_timeout = 0.3


async def _echo(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
    """A stand-in for the SDK's routes: an internal error with an exception's text, or a plain-text 404."""
    await receive()
    if scope["path"].startswith("/rest"):
        await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"Not Found"})
        return
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "KeyError('secret_path')"}})
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body.encode()})


@contextlib.asynccontextmanager
async def serving(app: Any, **limits: Any) -> AsyncIterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="off", **limits)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        await task


async def _read_all(port: int, sent: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(sent)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=30)  # read() returns once the server closes
    writer.close()
    return answer


async def test_a_connection_that_sends_no_complete_headers_in_time_is_closed():
    limits = {**connection_limits(4), "http": QuickDeadline}
    async with serving(Guard(_echo, api_key=None), **limits) as port:
        assert await _read_all(port, b"") == b""  # opened, silent
        assert await _read_all(port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-") == b""  # a trickle
        request = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        assert (await _read_all(port, request)).startswith(b"HTTP/1.1 200 ")  # in time: served


async def test_a_body_that_does_not_arrive_in_time_gets_408():
    guard = Guard(_echo, api_key=None, body_timeout=0.3)
    async with serving(guard, **connection_limits(4)) as port:
        head = b"POST /rest/message:send HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"
        rest = await _read_all(port, head)
        rpc = await _read_all(port, head.replace(b"/rest/message:send", b"/"))
    assert rest.startswith(b"HTTP/1.1 408 ")
    assert json.loads(rest.split(b"\r\n\r\n", 1)[1])["error"]["status"] == "DEADLINE_EXCEEDED"
    assert rpc.startswith(b"HTTP/1.1 408 ") and b"application/problem+json" in rpc


async def test_the_sdks_internal_error_leaves_without_its_text_and_a_plain_404_as_a_status():
    async with serving(Guard(_echo, api_key=None), **connection_limits(4)) as port:
        rpc = b'{"jsonrpc":"2.0","id":1,"method":"Nope","params":{}}'
        head = b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(rpc)
        internal = await _read_all(port, head + rpc)
        missing = await _read_all(port, b"GET /rest/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert b"secret_path" not in internal
    assert json.loads(internal.split(b"\r\n\r\n", 1)[1])["error"] == {"code": -32603, "message": "Internal error"}
    assert missing.startswith(b"HTTP/1.1 404 ")
    assert json.loads(missing.split(b"\r\n\r\n", 1)[1])["error"] == {
        "code": 404,
        "status": "NOT_FOUND",
        "message": "no such resource",
    }
