"""What stands before the SDK's routes: the API key, the body's size and time, then the request's own shape.

The agent card stays public (it is how a caller learns that a key is needed); every other request without
the key, or with another one, gets 401. A body over MAX_BODY gets 413 before it is read (the SDK would read
any size), one that takes over BODY_TIMEOUT to arrive gets 408. Then request_check reads the body the way the
spec says and refuses a malformed request with the spec's error: a JSON-RPC error object at a JSON-RPC path,
a google.rpc.Status at an HTTP+JSON path. Only a request that passes reaches the SDK; its answers pass
through whole_numbers (5, not the Struct's 5.0) and answer_net on their way out.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .answer_net import AnswerNet
from .bounds import BODY_TIMEOUT, MAX_BODY
from .card import API_KEY_HEADER, REST_PATH
from .refusal import HttpStatus
from .request_check import check_jsonrpc, check_rest
from .whole_numbers import WholeNumbers

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
CARD_PATHS = ("/.well-known/agent-card.json", "/.well-known/agent.json")
DEFAULT_MAX_BODY = MAX_BODY
log = logging.getLogger("switchboard.serve")


class Guard:
    """ASGI middleware: API key, body size and time, then the request's shape (for each endpoint's prefix)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        api_key: str | None,
        max_body: int = DEFAULT_MAX_BODY,
        endpoints: tuple[str, ...] = ("",),
        rest_path: str = REST_PATH,
        body_timeout: float = BODY_TIMEOUT,
    ) -> None:
        self.app = app
        self.api_key = api_key.encode() if api_key else None
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.header = API_KEY_HEADER.lower().encode()
        # Each served agent's JSON-RPC path ("/NAME/") and HTTP+JSON prefix ("/NAME/rest").
        self.rpc_paths = {f"{prefix}/" for prefix in endpoints}
        self.rest_prefixes = tuple(f"{prefix}/{rest_path}" for prefix in endpoints)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        rest = next((path[len(p) :] for p in self.rest_prefixes if path == p or path.startswith(p + "/")), None)
        rpc = rest is None and path in self.rpc_paths
        public = scope["method"] in ("GET", "HEAD") and path.endswith(CARD_PATHS)
        if self.api_key is not None and not public and not self._has_key(scope):
            sentence = f"this agent needs its API key in the {API_KEY_HEADER} header (the agent card says so)"
            await _refuse(send, rest is not None, HttpStatus(401, "UNAUTHENTICATED", sentence), "Unauthorized")
            return
        too_large = HttpStatus(413, "INVALID_ARGUMENT", f"the request body is over {self.max_body} bytes")
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await _refuse(send, rest is not None, too_large, "Content Too Large")
            return
        try:
            async with asyncio.timeout(self.body_timeout):
                body, over = await _read_body(receive, self.max_body)
        except TimeoutError:
            slow = HttpStatus(408, "DEADLINE_EXCEEDED", f"the request body took over {self.body_timeout:g} s to arrive")
            await _refuse(send, rest is not None, slow, "Request Timeout")
            return
        if over:
            await _refuse(send, rest is not None, too_large, "Content Too Large")
            return
        try:
            if rpc and scope["method"] == "POST" and await self._refused_rpc(scope, body, send):
                return
            if rest is not None and await self._refused_rest(scope, rest, body, send):
                return
        except Exception as exc:  # a gap in the check must not cost a valid call: the SDK still validates
            log.warning("the request check failed; the SDK answers this request", exc_info=exc)
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # a disconnect, from here on

        net = AnswerNet(send, rest=rest is not None, rpc=rpc)
        await self.app(scope, replay, WholeNumbers(net.send).send)

    async def _refused_rpc(self, scope: Scope, body: bytes, send: Send) -> bool:
        refused = check_jsonrpc(body, _header(scope, b"a2a-version"))
        if refused is None:
            return False
        payload = refused.refusal.jsonrpc_body(refused.request_id)
        await _answer(send, 200, payload, b"application/json")
        return True

    async def _refused_rest(self, scope: Scope, rest: str, body: bytes, send: Send) -> bool:
        query: bytes = scope.get("query_string") or b""
        refusal = check_rest(scope["method"], rest, body, query, _header(scope, b"a2a-version"))
        if refusal is None:
            return False
        await _answer(send, refusal.http_status, refusal.status_body(), b"application/json")
        return True

    def _has_key(self, scope: Scope) -> bool:
        assert self.api_key is not None
        for name, value in scope.get("headers") or []:
            if name.lower() == self.header and hmac.compare_digest(value, self.api_key):
                return True
        return False


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers") or []:
        if name.lower() == wanted:
            return bytes(value).decode("latin-1").strip()
    return None


def _content_length(scope: Scope) -> int | None:
    value = _header(scope, b"content-length")
    if value is None or not value.isdigit():
        return None
    return int(value)


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


async def _refuse(send: Send, rest: bool, status: HttpStatus, title: str) -> None:
    """An HTTP-level refusal: a google.rpc.Status on an HTTP+JSON path; elsewhere a problem document (RFC 9457)."""
    if rest:
        await _answer(send, status.http, status.body(), b"application/json")
        return
    # Not a JSON-RPC error: no request id is known before the body is read, and clients that take any `error`
    # member for a JSON-RPC error would lose the reason.
    problem = {"type": "about:blank", "title": title, "status": status.http, "detail": status.sentence}
    await _answer(send, status.http, json.dumps(problem).encode(), b"application/problem+json")


async def _answer(send: Send, status: int, body: bytes, content_type: bytes) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
