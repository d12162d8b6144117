"""The push-notification receiver: a local webhook that agents POST a task's updates to.

It listens on 127.0.0.1 (an ephemeral port unless told) and knows the configs it handed out: each registration
(`register`) gets a random token, which the agent echoes in `X-A2A-Notification-Token`. A POST is accepted only
with a token it issued, for the task that token was issued for, carrying a v1.0 StreamResponse (or, from a2a-sdk
0.3's sender, a v0.3 Task); it is answered 200 and its event queued for that task (`events`). Anything else is
refused (401 wrong or missing token, 404 another task or path, 400 not a StreamResponse) and changes nothing.
Events go through the same reducer as a stream's (turn.TaskView), which makes the same event twice harmless.
Tokens are secrets: they go to the redactor.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass

import h11

from .auth import Redactor
from .model import ArtifactUpdate, Message, StatusUpdate, StreamEvent, Task
from .wire import v03, v10
from .wire.common import Notes, WireFormatError

TOKEN_HEADER = "x-a2a-notification-token"
PATH = "/a2a/push"
MAX_BODY = 16 * 2**20  # a pushed event is one StreamResponse; past this it is refused, not held


@dataclass(frozen=True)
class Refusal:
    """A POST the receiver refused, and why (kept for people and tests; nothing else changes)."""

    status: int
    reason: str


def task_of(event: StreamEvent) -> str | None:
    if isinstance(event, Task):
        return event.id
    if isinstance(event, StatusUpdate | ArtifactUpdate):
        return event.task_id
    if isinstance(event, Message):
        return event.task_id
    return None


class PushReceiver:
    """A webhook on 127.0.0.1 for the push configs switchboard registers. `async with` starts and stops it."""

    def __init__(
        self, *, host: str = "127.0.0.1", port: int = 0, path: str = PATH, redactor: Redactor | None = None
    ) -> None:
        self.host = host
        self.port = port
        self.path = path  # a tunnel forwards the public URL's path: with --push-url, that URL's
        self.redactor = redactor or Redactor()
        self._tokens: dict[str, str] = {}  # token -> the task it was issued for
        self._queues: dict[str, asyncio.Queue[StreamEvent]] = {}
        self.refused: list[Refusal] = []
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()  # ended with the receiver: none outlives its loop

    @property
    def url(self) -> str:
        """Where agents POST: the URL to register in a push config."""
        return f"http://{self.host}:{self.port}{self.path}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
            for connection in list(self._connections):
                connection.cancel()
            await asyncio.gather(*self._connections, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> PushReceiver:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def register(self, task_id: str) -> str:
        """A fresh token for a push config of `task_id`: only POSTs carrying it are accepted, for that task."""
        token = secrets.token_urlsafe(24)
        self.redactor.add(token)
        self._tokens[token] = task_id
        self._queues.setdefault(task_id, asyncio.Queue())
        return token

    def unregister(self, token: str) -> None:
        """The config of `token` is done with: its POSTs are refused from now on."""
        task_id = self._tokens.pop(token, None)
        if task_id is not None and task_id not in self._tokens.values():
            self._queues.pop(task_id, None)

    async def events(self, task_id: str) -> AsyncIterator[StreamEvent]:
        """The events pushed for `task_id`, as they arrive (for ever: the caller stops at the end of its turn)."""
        queue = self._queues.setdefault(task_id, asyncio.Queue())
        while True:
            yield await queue.get()

    # --- HTTP ----------------------------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        current = asyncio.current_task()
        if current is not None:
            self._connections.add(current)
        connection = h11.Connection(h11.SERVER)
        try:
            while True:
                request, body = await self._read(connection, reader)
                if request is None:
                    break
                status = self._accept(request, body)
                reply = json.dumps({"ok": status == 200} if status == 200 else {"error": status}).encode()
                headers = [("content-type", "application/json"), ("content-length", str(len(reply)))]
                writer.write(connection.send(h11.Response(status_code=status, headers=headers)))
                writer.write(connection.send(h11.Data(data=reply)))
                writer.write(connection.send(h11.EndOfMessage()))
                await writer.drain()
                if connection.our_state is not h11.DONE or connection.their_state is not h11.DONE:
                    break
                connection.start_next_cycle()
        except (h11.ProtocolError, ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # a connection cut short (the receiver closing, too) ends quietly
        finally:
            if current is not None:
                self._connections.discard(current)
            writer.close()

    async def _read(self, connection: h11.Connection, reader: asyncio.StreamReader) -> tuple[h11.Request | None, bytes]:
        request: h11.Request | None = None
        body = bytearray()
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                data = await reader.read(65536)
                connection.receive_data(data)
                if not data and request is None:
                    return None, b""
                continue
            if isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body += event.data
                if len(body) > MAX_BODY:
                    raise h11.ProtocolError("body too large")
            elif isinstance(event, h11.EndOfMessage):
                return request, bytes(body)
            elif isinstance(event, h11.ConnectionClosed):
                return None, b""

    def _accept(self, request: h11.Request, body: bytes) -> int:
        """The status to answer; an accepted event is queued for its task."""
        if request.method != b"POST" or request.target.split(b"?")[0] != self.path.encode():
            return self._refuse(404, f"{request.method.decode()} {request.target.decode(errors='replace')}")
        token = next((v.decode(errors="replace") for k, v in request.headers if k.lower() == TOKEN_HEADER.encode()), "")
        task_id = self._tokens.get(token)
        if task_id is None:
            return self._refuse(401, "no token, or one this receiver did not issue")
        try:
            payload = json.loads(body)
            # 1.0 senders POST a StreamResponse; a2a-sdk 0.3's POSTs the whole Task, in the 0.3 shape ("kind")
            codec = v03 if isinstance(payload, dict) and "kind" in payload else v10
            event = codec.decode_event(payload, Notes())
        except (ValueError, RecursionError, WireFormatError):
            return self._refuse(400, "not a StreamResponse")
        if task_of(event) != task_id:
            return self._refuse(404, f"an event of task {task_of(event)!r} under the token of another task")
        self._queues.setdefault(task_id, asyncio.Queue()).put_nowait(event)
        return 200

    def _refuse(self, status: int, reason: str) -> int:
        self.refused.append(Refusal(status, self.redactor.text(reason)))
        return status


def check_push_url(value: str) -> str:
    """A URL to give an agent for its pushes (--push-url): http or https, with a host. Else a UsageError."""
    from urllib.parse import urlsplit

    from .errors import UsageError

    hint = "Give the public https://HOST[:PORT]/PATH your tunnel forwards to this machine, e.g. https://abc.example.net/a2a/push."
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise UsageError(f"--push-url {value!r} is not a URL: {exc}", hint=hint) from None
    if parts.scheme not in ("http", "https"):
        raise UsageError(f"--push-url {value!r} must start with http:// or https://", hint=hint)
    if not parts.hostname:
        raise UsageError(f"--push-url {value!r} names no host", hint=hint)
    if any(c.isspace() for c in value.strip()):
        raise UsageError(f"--push-url {value!r} holds spaces", hint=hint)
    return value.strip()
