"""The push-notification receiver: a local webhook that agents POST a task's updates to.

It listens on 127.0.0.1 (an ephemeral port unless told) and knows the configs it handed out: each registration
(`register`) gets a random token, which the agent echoes in `X-A2A-Notification-Token`. Path and token are decided
on the headers, before a byte of the body is read (server.py holds the HTTP side and its bounds, Limits): a
wrong method or path is answered 404 and a missing or unknown token 401 at once, a body announced or sent past
Limits.max_body 413. Only then is the body read: a v1.0 StreamResponse (or, from a2a-sdk 0.3's sender, a v0.3 Task)
for the task the token was issued for is answered 200 and its event queued for that task (`events`); another task's
event is 404, anything else 400; past MAX_QUEUED events waiting for a task, 429. A refusal changes nothing but
`refused`. Events go through the same reducer as a stream's (turn.TaskView), which makes the same event twice
harmless. Tokens are secrets: they go to the redactor.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass

import h11

from ..a2a.model import ArtifactUpdate, Message, StatusUpdate, StreamEvent, Task
from ..a2a.redact import Redactor
from ..a2a.wire import v03, v10
from ..a2a.wire.common import Notes, WireFormatError
from ..safe_text import strip_controls
from .server import Limits, PushServer

TOKEN_HEADER = "x-a2a-notification-token"
PATH = "/a2a/push"
MAX_BODY = Limits.max_body  # a pushed event is one StreamResponse; past this it is refused, not held
MAX_REFUSALS = 256  # the most recent refusals kept: a flood of forged pushes must not grow memory
# Events waiting for the command to read them, per task: an agent holding a valid token is untrusted too, and a
# flood from it must not grow memory. Far more than any turn sends between two reads; past it, 429.
MAX_QUEUED = 10_000


@dataclass(frozen=True)
class Refusal:
    """A request the receiver refused, and why (kept for people and tests; nothing else changes)."""

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


def _token(request: h11.Request) -> str:
    token = next((value for name, value in request.headers if name == TOKEN_HEADER.encode()), b"")
    return token.decode("ascii", errors="replace")


class PushReceiver:
    """A webhook on 127.0.0.1 for the push configs switchboard registers. `async with` starts and stops it."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        path: str = PATH,
        redactor: Redactor | None = None,
        limits: Limits | None = None,
        max_queued: int = MAX_QUEUED,
    ) -> None:
        self.host = host
        self.port = port
        self.path = path  # a tunnel forwards the public URL's path: with --push-url, that URL's
        self.redactor = redactor or Redactor()
        self.limits = limits or Limits()
        self.max_queued = max_queued
        self._tokens: dict[str, str] = {}  # token -> the task it was issued for
        self._queues: dict[str, asyncio.Queue[StreamEvent]] = {}
        self.refused: list[Refusal] = []
        self._server: PushServer | None = None

    @property
    def url(self) -> str:
        """Where agents POST: the URL to register in a push config."""
        return f"http://{self.host}:{self.port}{self.path}"

    @property
    def open_connections(self) -> int:
        """Connections being served now (at most Limits.max_connections)."""
        return self._server.open_connections if self._server is not None else 0

    async def start(self) -> None:
        self._server = PushServer(self, self.limits, self.host, self.port)
        self.port = await self._server.start()

    async def aclose(self) -> None:
        if self._server is not None:
            await self._server.aclose()
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
        self._queue(task_id)
        return token

    def unregister(self, token: str) -> None:
        """The config of `token` is done with: its POSTs are refused from now on."""
        task_id = self._tokens.pop(token, None)
        if task_id is not None and task_id not in self._tokens.values():
            self._queues.pop(task_id, None)

    async def events(self, task_id: str) -> AsyncIterator[StreamEvent]:
        """The events pushed for `task_id`, as they arrive (for ever: the caller stops at the end of its turn)."""
        queue = self._queue(task_id)
        while True:
            yield await queue.get()

    # --- what push_server.PushServer asks (its Gate) -------------------------------------------------------

    def decide(self, request: h11.Request) -> int | None:
        """On the head alone: 404 for another method or path, 401 for a token this receiver did not issue; None
        (read the body) otherwise."""
        if request.method != b"POST" or request.target.split(b"?")[0] != self.path.encode():
            said = f"{request.method.decode(errors='replace')} {request.target.decode(errors='replace')}"
            return self.refuse(404, strip_controls(said)[:200])
        if _token(request) not in self._tokens:
            return self.refuse(401, "no token, or one this receiver did not issue")
        return None

    def answer(self, request: h11.Request, body: bytes) -> int:
        """The status to answer a whole request `decide` let through; an accepted event is queued for its task."""
        task_id = self._tokens.get(_token(request))
        if task_id is None:  # unregistered while its body came
            return self.refuse(401, "no token, or one this receiver did not issue")
        try:
            payload = json.loads(body)
            # 1.0 senders POST a StreamResponse; a2a-sdk 0.3's POSTs the whole Task, in the 0.3 shape ("kind")
            codec = v03 if isinstance(payload, dict) and "kind" in payload else v10
            event = codec.decode_event(payload, Notes())
        except (ValueError, RecursionError, WireFormatError):
            return self.refuse(400, "not a StreamResponse")
        if task_of(event) != task_id:
            named = strip_controls(repr(task_of(event)))[:200]
            return self.refuse(404, f"an event of task {named} under the token of another task")
        try:
            self._queue(task_id).put_nowait(event)
        except asyncio.QueueFull:
            return self.refuse(429, f"more than {self.max_queued} events of one task wait to be read")
        return 200

    def _queue(self, task_id: str) -> asyncio.Queue[StreamEvent]:
        return self._queues.setdefault(task_id, asyncio.Queue(maxsize=self.max_queued))

    def refuse(self, status: int, reason: str) -> int:
        """Record a refusal (redacted; the most recent MAX_REFUSALS kept); returns `status`."""
        self.refused.append(Refusal(status, self.redactor.text(reason)))
        del self.refused[:-MAX_REFUSALS]
        return status


def check_push_url(value: str) -> str:
    """A URL to give an agent for its pushes (--push-url): http or https, with a host. Else a UsageError."""
    from urllib.parse import urlsplit

    from ..a2a.errors import UsageError

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
