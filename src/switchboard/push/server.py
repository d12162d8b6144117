"""The push receiver's HTTP/1.1 server: it decides on a request's headers before it reads a byte of its body, and
bounds everything a client can make it hold or wait for (Limits).

h11 parses; this file owns the connection. Each request is: its head read within `head_timeout` (a connection's
first request from the moment it connects, a kept-alive one's from its first byte), checked (framing, then the gate's
path and token, then Content-Length against `max_body`), and only then its body read, within `body_timeout` and up
to `max_body`. A refusal is answered at once with `Connection: close`, and the connection closed; only a 200 keeps
it for the sender's next push (for `idle_timeout`). Past `max_connections` a new connection is closed unread.

Every status a client can get: 200, 400 (malformed HTTP, or a body the gate refuses), 401/404/429 (the gate), 408
(too slow), 413 (body too large), 431 (head too large). No exception leaves a connection: a fault of ours ends that
connection, is recorded as a refusal (500, nothing answered), and the server goes on. Nothing is ever printed.

Why not uvicorn: it has no timeout on reading a request's head (a client trickling headers holds its connection
for ever), answers its connection cap with 503 after reading, and would be imported by `send --push`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Protocol

import h11

CHUNK = 65536  # bytes read at a time: the head's buffer never passes max_head plus this


@dataclass(frozen=True)
class Limits:
    """What one client may make the receiver hold or wait for. The defaults suit a sender on this machine or behind
    a tunnel; tests lower them (PushReceiver(limits=Limits(head_timeout=0.2)))."""

    # One StreamResponse; a 0.3 sender POSTs the whole Task, artifacts and history included. Read only under a
    # token we issued: a client without one never gets a body byte read.
    max_body: int = 16 * 2**20
    # Request line and headers: a push's are a few hundred bytes; 16 KiB is h11's default and common servers' own.
    max_head: int = 16 * 2**10
    # The head is sent in one write by every sender: 10 s is room for a slow tunnel, not for a trickling client.
    head_timeout: float = 10.0
    # The whole body: a push of a few KB takes milliseconds; 16 MiB in 30 s is ~0.5 MB/s, a slow link's pace.
    body_timeout: float = 30.0
    # A sender's pooled connection between pushes. Longer than senders keep one idle (httpx: 5 s), so the sender
    # closes first and never sends a push on a connection we are closing.
    idle_timeout: float = 15.0
    # At once. A sender uses one or a few; the watch reads the task itself after 30 s without pushes, so a flood
    # that fills these costs a delay, never the task's end.
    max_connections: int = 32
    # After a refusal, what the client still sends is read and dropped (never kept) for at most this long before
    # closing: closing with unread bytes resets the connection, and a client that sends its whole body before it
    # reads (httpx does) would lose our answer. 2 s drops a 20 MB body on this machine, and holds a slot no longer
    # than a trickling head would.
    linger: float = 2.0


class Gate(Protocol):
    """What the server asks the receiver: each returns the status to answer, and records a refusal itself."""

    def decide(self, request: h11.Request) -> int | None:
        """On the head alone: a refusal's status, or None to read the body."""

    def answer(self, request: h11.Request, body: bytes) -> int:
        """On the whole request: the status to answer (200 accepted)."""

    def refuse(self, status: int, reason: str) -> int:
        """Record a refusal the server itself decided; returns `status`."""


class _Refuse(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def answer_bytes(status: int) -> bytes:
    """A refusal as it goes on the wire: a small JSON body, and the connection closed after it."""
    body = json.dumps({"error": status}).encode()
    phrase = HTTPStatus(status).phrase
    head = f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
    return head.encode() + b"connection: close\r\n\r\n" + body


def _head_size(request: h11.Request) -> int:
    return len(request.method) + len(request.target) + sum(len(k) + len(v) + 4 for k, v in request.headers)


class PushServer:
    """Serves `gate` on host:port (0: an ephemeral port) within `limits`. `start` binds; `aclose` ends every
    connection and stops listening."""

    def __init__(self, gate: Gate, limits: Limits, host: str, port: int) -> None:
        self.gate = gate
        self.limits = limits
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()  # ended with the server: none outlives its loop

    @property
    def open_connections(self) -> int:
        return len(self._connections)

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._connection, self.host, self.port, limit=CHUNK)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def aclose(self) -> None:
        if self._server is None:
            return
        self._server.close()
        for connection in list(self._connections):
            connection.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        current = asyncio.current_task()
        if current is None or len(self._connections) >= self.limits.max_connections:
            writer.close()  # over the cap: nothing read, nothing answered
            return
        self._connections.add(current)
        try:
            await self._exchanges(reader, writer)
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass  # the client went away, or the receiver is closing: the connection ends quietly
        except Exception as exc:  # a fault of ours: this connection ends, the receiver goes on, nothing is printed
            self.gate.refuse(500, f"receiver fault: {type(exc).__name__}")
        finally:
            self._connections.discard(current)
            writer.close()

    async def _exchanges(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=self.limits.max_head)
        while await self._exchange(connection, reader, writer):
            connection.start_next_cycle()
            if not await self._next_request_begins(connection, reader):
                return

    async def _next_request_begins(self, connection: h11.Connection, reader: asyncio.StreamReader) -> bool:
        """Between requests on a kept-alive connection: a pipelined request already here, or a first byte within
        idle_timeout (else the connection is closed, unanswered: no request was begun)."""
        if connection.trailing_data[0]:
            return True
        try:
            async with asyncio.timeout(self.limits.idle_timeout):
                data = await reader.read(CHUNK)
        except TimeoutError:
            return False
        connection.receive_data(data)
        return bool(data)

    async def _exchange(
        self, connection: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        """One request, answered; whether the connection may carry another."""
        try:
            request = await self._head(connection, reader)
            if request is None:
                return False  # closed before a request began
            status = self._before_body(request)
            if status is None:
                body = await self._body(connection, reader, writer)
                status = self.gate.answer(request, body)
        except _Refuse as refusal:
            status = self.gate.refuse(refusal.status, refusal.reason)
        except h11.RemoteProtocolError as exc:
            status = 431 if exc.error_status_hint == 431 else 400
            self.gate.refuse(status, "request head too large" if status == 431 else "malformed HTTP request")
        if status != 200:
            await self._refuse(reader, writer, status)
            return False
        reply = json.dumps({"ok": True}).encode()
        headers = [("content-type", "application/json"), ("content-length", str(len(reply)))]
        writer.write(connection.send(h11.Response(status_code=200, headers=headers)))
        writer.write(connection.send(h11.Data(data=reply)))
        writer.write(connection.send(h11.EndOfMessage()))
        try:
            async with asyncio.timeout(self.limits.head_timeout):
                await writer.drain()  # waits only when a pipelining client leaves 64 KiB of answers unread
        except TimeoutError:
            return False
        return connection.our_state is h11.DONE and connection.their_state is h11.DONE

    async def _head(self, connection: h11.Connection, reader: asyncio.StreamReader) -> h11.Request | None:
        try:
            async with asyncio.timeout(self.limits.head_timeout):
                while True:
                    event = connection.next_event()
                    if event is h11.NEED_DATA:
                        connection.receive_data(await reader.read(CHUNK))
                    elif isinstance(event, h11.Request):
                        return event
                    else:
                        return None  # ConnectionClosed (or PAUSED, which a server between requests never sees)
        except TimeoutError:
            raise _Refuse(408, "request head not received in time") from None

    def _before_body(self, request: h11.Request) -> int | None:
        """The head's verdict: framing, then the gate (path, token), then the announced size."""
        if _head_size(request) > self.limits.max_head:  # a head that came in one read escapes h11's own bound
            return self.gate.refuse(431, "request head too large")
        names = [name for name, _ in request.headers]
        if b"content-length" in names and b"transfer-encoding" in names:
            return self.gate.refuse(400, "both Content-Length and Transfer-Encoding")  # RFC 9112 6.3: ambiguous
        decided = self.gate.decide(request)
        if decided is not None:
            return decided
        length = next((int(value) for name, value in request.headers if name == b"content-length"), 0)
        if length > self.limits.max_body:
            return self.gate.refuse(413, f"a body of {length} bytes announced (the limit is {self.limits.max_body})")
        return None

    async def _body(
        self, connection: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bytes:
        if connection.they_are_waiting_for_100_continue:
            writer.write(connection.send(h11.InformationalResponse(status_code=100, headers=[])))
        body = bytearray()
        try:
            async with asyncio.timeout(self.limits.body_timeout):
                while True:
                    event = connection.next_event()
                    if event is h11.NEED_DATA:
                        connection.receive_data(await reader.read(CHUNK))
                    elif isinstance(event, h11.Data):
                        body += event.data
                        if len(body) > self.limits.max_body:
                            raise _Refuse(413, f"a body past the limit ({self.limits.max_body} bytes)")
                    elif isinstance(event, h11.EndOfMessage):
                        return bytes(body)
                    else:  # the client closed mid-body (h11 says so as an error first; this is its fallback)
                        raise ConnectionResetError("closed mid-body")
        except TimeoutError:
            raise _Refuse(408, "request body not received in time") from None

    async def _refuse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, status: int) -> None:
        """Answer `status` and close: what the client still sends is read and dropped for a moment first, so the
        close is a clean one (with unread bytes it would be a reset, and the client could lose the answer)."""
        writer.write(answer_bytes(status))
        if writer.can_write_eof():
            writer.write_eof()
        try:
            async with asyncio.timeout(self.limits.linger):
                await writer.drain()
                while await reader.read(CHUNK):
                    pass
        except TimeoutError:
            pass
