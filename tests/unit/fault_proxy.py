"""A fault-injecting HTTP/1.1 proxy on 127.0.0.1, between a client and one real agent.

It parses each request and response (Content-Length and chunked bodies), so a fault can be aimed at one
request: answer 502/503 without forwarding, reset the connection (SO_LINGER 0) during a card fetch, cut a
streamed response after N bytes of its SSE text, stall it, or truncate an SSE frame mid-JSON and close.
Which request gets which fault is the `plan` callback's choice (the trials draw it from a seeded RNG).

The agent card's URLs are rewritten to point at the proxy, so every later request goes through it too.
Used by tests/unit/test_fault_proxy.py and bench/faults/.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

FaultKind = Literal["status", "reset", "cut", "stall", "truncate"]
HOLD = 30.0  # the longest a stalled connection is held open before the proxy gives up on it


@dataclass(frozen=True)
class Fault:
    """What to do to one exchange.

    status: answer `status` without forwarding. reset: RST the connection, at `where` ("request": before
    any answer, "head": after part of the status line, "body": after part of the body). cut: forward, then
    close after `after` bytes of the streamed SSE text (`abrupt`: RST instead of FIN). stall: forward
    `after` bytes, then send nothing more. truncate: forward up to frame number `after`, send that frame cut
    mid-JSON, then end the body cleanly (`abrupt` False) or drop the connection (`abrupt` True).
    """

    kind: FaultKind
    status: int = 503
    after: int = 0
    abrupt: bool = False
    where: str = "request"
    cut_at: float = 0.5  # truncate: where in the frame's JSON to cut, as a fraction


@dataclass
class Exchange:
    """One request as the proxy saw it."""

    method: str
    path: str
    rpc: str | None  # the JSON-RPC method, for POSTs
    fault: Fault | None = None
    forwarded: bool = False  # the request reached the agent
    fired: bool = False  # the fault really happened (a cut past the end of a short body does not)


Plan = Callable[[Exchange], Fault | None]


def _reason(status: int) -> str:
    return {502: "Bad Gateway", 503: "Service Unavailable", 404: "Not Found"}.get(status, "Error")


async def _read_head(reader: asyncio.StreamReader) -> tuple[str, list[tuple[str, str]], bytes] | None:
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    lines = raw.decode("latin-1").split("\r\n")
    headers = []
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
    return lines[0], headers, raw


def _header(headers: list[tuple[str, str]], name: str) -> str | None:
    for key, value in headers:
        if key.lower() == name.lower():
            return value
    return None


def _head_bytes(first: str, headers: list[tuple[str, str]]) -> bytes:
    return ("\r\n".join([first, *(f"{k}: {v}" for k, v in headers)]) + "\r\n\r\n").encode("latin-1")


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n" if data else b""


async def _hold(client: asyncio.StreamReader) -> None:
    """Send nothing more until the client gives up (or HOLD passes), like a wedged gateway."""
    with contextlib.suppress(TimeoutError, ConnectionError):
        async with asyncio.timeout(HOLD):
            while await client.read(65536):
                pass


def _reset(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


@dataclass
class FaultProxy:
    """`async with FaultProxy(upstream_port, plan) as proxy:` then talk to `proxy.url`."""

    upstream_port: int
    plan: Plan = field(default=lambda exchange: None)
    host: str = "127.0.0.1"
    log: list[Exchange] = field(default_factory=list)
    port: int = 0
    _server: asyncio.Server | None = None
    _handlers: set[asyncio.Task] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    @property
    def upstream(self) -> str:
        return f"http://{self.host}:{self.upstream_port}"

    def fired(self, kind: FaultKind | None = None) -> list[Exchange]:
        return [e for e in self.log if e.fired and (kind is None or (e.fault and e.fault.kind == kind))]

    def forwarded(self, *rpc: str) -> list[Exchange]:
        return [e for e in self.log if e.forwarded and e.rpc in rpc]

    async def __aenter__(self) -> FaultProxy:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._handlers):
            task.cancel()
        if self._handlers:
            await asyncio.gather(*self._handlers, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        upstream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        try:
            while True:
                head = await _read_head(reader)
                if head is None:
                    return
                first, headers, _ = head
                length = int(_header(headers, "content-length") or 0)
                body = await reader.readexactly(length) if length else b""
                method, path = first.split(" ")[:2]
                rpc = None
                if body:
                    with contextlib.suppress(ValueError, AttributeError):
                        rpc = json.loads(body).get("method")
                exchange = Exchange(method, path, rpc)
                exchange.fault = self.plan(exchange)
                self.log.append(exchange)
                fault = exchange.fault
                if fault and fault.kind == "status":
                    exchange.fired = True
                    # Like some gateways, it echoes the request headers: credentials must be redacted downstream.
                    echoed = "".join(f"{k}: {v}\n" for k, v in headers)
                    text = f"{fault.status} {_reason(fault.status)} (fault proxy)\n{echoed}".encode()
                    writer.write(
                        _head_bytes(
                            f"HTTP/1.1 {fault.status} {_reason(fault.status)}",
                            [("Content-Type", "text/plain"), ("Content-Length", str(len(text)))],
                        )
                        + text
                    )
                    await writer.drain()
                    continue
                if fault and fault.kind == "reset" and fault.where == "request":
                    exchange.fired = True
                    _reset(writer)
                    return
                if upstream is None:
                    upstream = await asyncio.open_connection(self.host, self.upstream_port)
                up_reader, up_writer = upstream
                up_writer.write(_head_bytes(first, headers) + body)
                await up_writer.drain()
                exchange.forwarded = True
                keep = await self._relay(up_reader, reader, writer, exchange)
                if not keep:
                    return
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            return  # a closed connection, or the proxy closing: the handler just ends
        finally:
            if upstream is not None:
                upstream[1].transport.abort()  # the agent sees its client go, as it would with a real cut
            if not writer.transport.is_closing():
                writer.transport.close()
            self._handlers.discard(task)

    async def _relay(
        self, up: asyncio.StreamReader, client: asyncio.StreamReader, writer: asyncio.StreamWriter, exchange: Exchange
    ) -> bool:
        """Forward one response, applying the exchange's fault. False: the connection is finished."""
        head = await _read_head(up)
        if head is None:
            return False
        first, headers, raw_head = head
        fault = exchange.fault
        if fault and fault.kind == "reset" and fault.where == "head":
            exchange.fired = True
            writer.write(raw_head[: max(1, len(first) // 2)])
            await writer.drain()
            _reset(writer)
            return False
        chunked = (_header(headers, "transfer-encoding") or "").lower() == "chunked"
        if not chunked:
            length = int(_header(headers, "content-length") or 0)
            body = await up.readexactly(length) if length else b""
            if exchange.path.endswith(".json") and body:
                body = body.replace(self.upstream.encode(), self.url.rstrip("/").encode())
                headers = [(k, str(len(body)) if k.lower() == "content-length" else v) for k, v in headers]
            if fault and fault.kind == "reset" and fault.where == "body" and body:
                exchange.fired = True
                writer.write(_head_bytes(first, headers) + body[: len(body) // 2])
                await writer.drain()
                _reset(writer)
                return False
            writer.write(_head_bytes(first, headers) + body)
            await writer.drain()
            return True
        writer.write(_head_bytes(first, headers))
        await writer.drain()
        return await self._relay_chunked(up, client, writer, exchange)

    async def _relay_chunked(
        self, up: asyncio.StreamReader, client: asyncio.StreamReader, writer: asyncio.StreamWriter, exchange: Exchange
    ) -> bool:
        fault = exchange.fault
        streamed = 0  # SSE text bytes forwarded so far
        pending = b""  # text of the frame being assembled (truncate counts whole frames)
        frames = 0
        while True:
            size_line = await up.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            data = await up.readexactly(size) if size else b""
            await up.readexactly(2)
            if size == 0:
                writer.write(_chunk(pending) + b"0\r\n\r\n")
                await writer.drain()
                return True
            if fault is None or fault.kind not in ("cut", "stall", "truncate"):
                writer.write(_chunk(data))
                await writer.drain()
                continue
            if fault.kind in ("cut", "stall"):
                room = fault.after - streamed
                if len(data) < room:
                    writer.write(_chunk(data))
                    await writer.drain()
                    streamed += len(data)
                    continue
                exchange.fired = True
                writer.write(_chunk(data[:room]))
                await writer.drain()
                if fault.kind == "stall":
                    await _hold(client)
                elif fault.abrupt:
                    _reset(writer)
                return False
            # truncate: pass whole frames until the chosen one, then send it cut inside its JSON
            pending += data
            while b"\n\n" in pending or b"\r\n\r\n" in pending:
                end = min(i for i in (pending.find(b"\n\n"), pending.find(b"\r\n\r\n")) if i >= 0)
                sep = 4 if pending[end : end + 4] == b"\r\n\r\n" else 2
                frame, pending = pending[: end + sep], pending[end + sep :]
                if b"data:" not in frame:
                    writer.write(_chunk(frame))
                    continue
                if frames < fault.after:
                    frames += 1
                    writer.write(_chunk(frame))
                    continue
                exchange.fired = True
                start = frame.index(b"data:") + 5
                json_end = len(frame) - sep
                cut = start + 1 + int((json_end - start - 2) * fault.cut_at)
                writer.write(_chunk(frame[:cut] + b"\n\n"))
                if fault.abrupt:
                    await writer.drain()
                    _reset(writer)
                else:
                    writer.write(b"0\r\n\r\n")
                    await writer.drain()
                return False
            await writer.drain()
