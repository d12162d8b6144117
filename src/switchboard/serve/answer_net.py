"""The last look at the SDK's answers on their way out: nothing internal reaches a caller.

The request check keeps a caller's mistakes from reaching the SDK in a shape it cannot parse; this is the net
under it. A JSON-RPC internal error (-32603) leaves with the spec's sentence "Internal error" instead of the
exception's text (the server's log keeps that). At an HTTP+JSON path, an error that is not JSON (Starlette's
plain-text 404 and 405 for a path or method that no route serves) leaves as a google.rpc.Status.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .refusal import HttpStatus

Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]
INTERNAL = re.compile(rb'"code"\s*:\s*-32603\b')
_PLAIN_STATUS = {404: ("NOT_FOUND", "no such resource"), 405: ("UNIMPLEMENTED", "this method is not served here")}


class AnswerNet:
    """Wraps one response's `send`; holds back only a JSON answer whose text it may need to change."""

    def __init__(self, send: Send, *, rest: bool, rpc: bool) -> None:
        self._send = send
        self.rest = rest
        self.rpc = rpc
        self._start: Message | None = None
        self._held: list[bytes] = []

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            if self._watch(message):
                self._start = message
                return
        elif message["type"] == "http.response.body" and self._start is not None:
            self._held.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await self._release()
            return
        await self._send(message)

    def _watch(self, start: Message) -> bool:
        kind = _content_type(start)
        if self.rest and start["status"] >= 400 and b"json" not in kind:
            return True
        return self.rpc and kind.startswith(b"application/json")

    async def _release(self) -> None:
        start, body = self._start, b"".join(self._held)
        assert start is not None
        self._start, self._held = None, []
        if self.rest and b"json" not in _content_type(start):
            name, sentence = _PLAIN_STATUS.get(start["status"], ("INVALID_ARGUMENT", "this request is not served"))
            body = HttpStatus(start["status"], name, sentence).body()
            start = _with_body_headers(start, body, b"application/json")
        elif INTERNAL.search(body):
            body = _generic_internal(body)
            start = _with_body_headers(start, body, b"application/json")
        await self._send(start)
        await self._send({"type": "http.response.body", "body": body, "more_body": False})


def _generic_internal(body: bytes) -> bytes:
    try:
        answer = json.loads(body)
        error = answer["error"]
        if error.get("code") != -32603:
            return body
    except (ValueError, KeyError, TypeError, AttributeError):
        return body
    answer["error"] = {"code": -32603, "message": "Internal error"}
    return json.dumps(answer, separators=(",", ":")).encode()


def _content_type(start: Message) -> bytes:
    for name, value in start.get("headers") or []:
        if bytes(name).lower() == b"content-type":
            return bytes(value).lower()
    return b""


def _with_body_headers(start: Message, body: bytes, content_type: bytes) -> Message:
    replaced = (b"content-type", b"content-length")
    kept = [(n, v) for n, v in start.get("headers") or [] if bytes(n).lower() not in replaced]
    headers = [*kept, (b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    return {**start, "headers": headers}
