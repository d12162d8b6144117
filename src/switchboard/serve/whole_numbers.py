"""A served workflow's whole numbers leave as integers: a caller's `{"n": 5}` comes back as 5, not 5.0.

The SDK carries a data part's value and every metadata object as a protobuf Struct, whose numbers are doubles,
and protobuf's JSON printer writes a whole double as `5.0` (and step metadata's `"attempt": 1` as `1.0`). JSON does
not tell 5 from 5.0 as numbers, so writing every whole double within +/-2**53 as an integer is a faithful
rendering: this wraps one response's `send` and rewrites each JSON answer, and each SSE `data:` line of a stream
as it arrives (a stream is never held whole). A text that does not parse, or holds no whole double, passes byte
for byte; a body or line over MAX_REWRITE passes as it is, so what is held stays bounded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]
MAX_REWRITE = 16 << 20  # bytes of one JSON answer or SSE line held to rewrite; past it, the text passes as is
EXACT = 2**53  # past it a double no longer holds every integer: it stays a double
_MAY_HAVE_FLOAT = re.compile(rb"\d[.eE]")


def _wholes(value: Any) -> Any:
    """`value` with each whole float within +/-EXACT as an int: `value` itself when nothing in it changed (the
    caller tells by identity), else a copy of the containers on the way down to each change."""
    kind = type(value)
    if kind is float:
        return int(value) if value.is_integer() and -EXACT <= value <= EXACT else value
    if kind is dict:
        copy = None
        for key, item in value.items():
            fixed = _wholes(item)
            if fixed is not item:
                if copy is None:
                    copy = dict(value)
                copy[key] = fixed
        return value if copy is None else copy
    if kind is list:
        items = None
        for i, item in enumerate(value):
            fixed = _wholes(item)
            if fixed is not item:
                if items is None:
                    items = list(value)
                items[i] = fixed
        return value if items is None else items
    return value


def whole_numbers(text: bytes) -> bytes:
    """A JSON text with each whole double written as an integer; any other text (or one with none) unchanged."""
    if not _MAY_HAVE_FLOAT.search(text):
        return text
    try:
        doc = json.loads(text)
        fixed = _wholes(doc)
        if fixed is doc:
            return text
        return json.dumps(fixed, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (ValueError, RecursionError, UnicodeError):  # not JSON, too deep, a non-finite number: as it was
        return text


def data_line(line: bytes) -> bytes:
    """An SSE line: a `data:` line with its JSON rewritten, any other line as it is."""
    if not line.startswith(b"data:"):
        return line
    end = b"\r" if line.endswith(b"\r") else b""
    start = 6 if line.startswith(b"data: ") else 5
    payload = line[start : len(line) - len(end)]
    fixed = whole_numbers(payload)
    return line if fixed is payload else line[:start] + fixed + end


class WholeNumbers:
    """Wraps one response's `send`: its JSON body, or each SSE `data:` line, with whole numbers as integers."""

    def __init__(self, send: Send, *, limit: int = MAX_REWRITE) -> None:
        self._send = send
        self.limit = limit
        self._kind: str | None = None  # "json", "sse", or None (passed as it is)
        self._start: Message | None = None  # a JSON answer's start, held until its body is whole
        self._held: list[bytes] = []
        self._size = 0
        self._raw_line = False  # an SSE line over the limit: the rest of it passes as it is

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            kind = _content_type(message)
            self._kind = "sse" if b"text/event-stream" in kind else "json" if b"json" in kind else None
            if self._kind == "json":
                self._start = message
                return
        elif message["type"] == "http.response.body" and self._kind == "json":
            await self._json(message)
            return
        elif message["type"] == "http.response.body" and self._kind == "sse":
            await self._sse(message)
            return
        await self._send(message)

    async def _json(self, message: Message) -> None:
        body, more = message.get("body", b""), message.get("more_body", False)
        if self._start is None:  # over the limit: passing through
            await self._send(message)
            return
        self._held.append(body)
        self._size += len(body)
        if self._size > self.limit:
            start, held = self._start, b"".join(self._held)
            self._start, self._held = None, []
            await self._send(start)
            await self._send({"type": "http.response.body", "body": held, "more_body": more})
            return
        if more:
            return
        start, whole = self._start, b"".join(self._held)
        self._start, self._held = None, []
        fixed = whole_numbers(whole)
        if fixed is not whole:
            others = [(k, v) for k, v in start.get("headers") or [] if bytes(k).lower() != b"content-length"]
            start = {**start, "headers": [*others, (b"content-length", str(len(fixed)).encode())]}
        await self._send(start)
        await self._send({"type": "http.response.body", "body": fixed, "more_body": False})

    async def _sse(self, message: Message) -> None:
        body, more = message.get("body", b""), message.get("more_body", False)
        out: list[bytes] = []
        if self._raw_line:  # the rest of a line too long to hold
            raw, newline, body = body.partition(b"\n")
            out.append(raw + newline)
            self._raw_line = not newline
        text = b"".join([*self._held, body])
        self._held, self._size = [], 0
        rest = b""
        if more:  # an unfinished line waits for the rest of it
            done, newline, rest = text.rpartition(b"\n")  # no newline: all of it is rest
            text = done + newline
            if len(rest) > self.limit:
                out.append(rest)
                rest, self._raw_line = b"", True
            elif rest:
                self._held, self._size = [rest], len(rest)
        if text:
            lines = text.split(b"\n")
            out.append(b"\n".join(data_line(line) if len(line) <= self.limit else line for line in lines))
        joined = b"".join(out)
        if joined or not more:
            await self._send({**message, "body": joined})


def _content_type(start: Message) -> bytes:
    for name, value in start.get("headers") or []:
        if bytes(name).lower() == b"content-type":
            return bytes(value).lower()
    return b""
