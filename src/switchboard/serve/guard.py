"""What stands before the SDK's routes: the API key (when --api-key-env is set) and a bound on request size.

The agent card stays public (it is how a caller learns that a key is needed); every other request without
the key, or with another one, gets 401. A request body over the bound gets 413 before the SDK reads it: the
SDK would parse any size.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .card import API_KEY_HEADER

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
CARD_PATHS = ("/.well-known/agent-card.json", "/.well-known/agent.json")
DEFAULT_MAX_BODY = 1 << 20  # 1 MiB: a message that starts a workflow, or answers one of its questions


class Guard:
    """ASGI middleware: API key, then request size."""

    def __init__(self, app: ASGIApp, *, api_key: str | None, max_body: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.api_key = api_key.encode() if api_key else None
        self.max_body = max_body
        self.header = API_KEY_HEADER.lower().encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        public = scope["method"] in ("GET", "HEAD") and scope["path"].endswith(CARD_PATHS)
        if self.api_key is not None and not public and not self._has_key(scope):
            await _reply(
                send,
                401,
                "Unauthorized",
                f"this agent needs its API key in the {API_KEY_HEADER} header (the agent card says so)",
            )
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await _reply(send, 413, "Content Too Large", f"the request body is over {self.max_body} bytes")
            return
        body, over = await _read_body(receive, self.max_body)
        if over:
            await _reply(send, 413, "Content Too Large", f"the request body is over {self.max_body} bytes")
            return
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # a disconnect, from here on

        await self.app(scope, replay, send)

    def _has_key(self, scope: Scope) -> bool:
        assert self.api_key is not None
        for name, value in scope.get("headers") or []:
            if name.lower() == self.header and hmac.compare_digest(value, self.api_key):
                return True
        return False


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers") or []:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", True
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks), False


async def _reply(send: Send, status: int, title: str, detail: str) -> None:
    # A problem document (RFC 9457), not a JSON-RPC error: no request id is known before the body is read, and
    # clients that take any `error` member for a JSON-RPC error would lose the reason.
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail}).encode()
    headers = [(b"content-type", b"application/problem+json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
