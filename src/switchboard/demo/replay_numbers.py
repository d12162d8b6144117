"""A replay agent's numbers as they were recorded: `"length": 3` comes back as 3, not 3.0.

The replay agents serve recorded events through the SDK's server, which carries a data part's value and every
metadata object as a protobuf Struct: a Struct holds each number as a double, so the SDK writes a recorded 3 as
3.0 (and 2**70 as 1.1805916207174113e+21). That cannot be told apart inside a Struct, so it is undone on the way
out: this ASGI middleware reads each JSON answer and SSE frame the server writes, and puts back, in place of a data
or metadata value, the recorded value it stands for (the same numbers, as floats, in any key order). Only values
the recording holds with a whole number are looked for; an answer holding none passes byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_HELD = ("data", "metadata")  # the keys whose values travel as a Struct or Value: a data part's, and metadata


def _as_floats(value: Any) -> Any:
    """`value` as a Struct carries it: every number a float (true and false stay what they are)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, dict):
        return {k: _as_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_floats(v) for v in value]
    return value


def _has(value: Any, whole: bool) -> bool:
    """Whether `value` holds an int (whole=True, recorded side) or a float that is whole (served side)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return whole
    if isinstance(value, float):
        return not whole and value.is_integer()
    if isinstance(value, dict):
        return any(_has(v, whole) for v in value.values())
    if isinstance(value, list):
        return any(_has(v, whole) for v in value)
    return False


def _key(value: Any) -> str:
    return json.dumps(_as_floats(value), sort_keys=True, ensure_ascii=False)


def recorded_numbers(encoded_events: Iterable[Any]) -> dict[str, Any]:
    """From recorded events (v1.0 JSON), each data and metadata value that holds an int, by the form the SDK
    serves it in. The first recorded form of a value wins (3 and 3.0 in two events are one served value)."""
    table: dict[str, Any] = {}
    stack = list(encoded_events)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if key in _HELD and _has(item, True):
                    try:
                        table.setdefault(_key(item), item)
                    except OverflowError:  # a number past a double: not served (check_playable refuses it)
                        pass
                stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)
    return table


def restored(value: Any, table: dict[str, Any]) -> tuple[Any, bool]:
    """`value` (a served JSON document) with each data or metadata value the table knows put back as recorded;
    and whether anything changed."""
    if isinstance(value, list):
        items = [restored(item, table) for item in value]
        return ([item for item, _ in items], True) if any(c for _, c in items) else (value, False)
    if not isinstance(value, dict):
        return value, False
    out: dict[str, Any] = {}
    changed = False
    for key, item in value.items():
        if key in _HELD and _has(item, False):
            original = table.get(_key(item), _MISSING)
            if original is not _MISSING:
                out[key], changed = original, True
                continue
        out[key], moved = restored(item, table)
        changed = changed or moved
    return (out, True) if changed else (value, False)


_MISSING = object()


def _rewritten(body: bytes, table: dict[str, Any]) -> bytes | None:
    """A JSON text with its recorded numbers put back, or None when there was nothing to change."""
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return None
    fixed, changed = restored(doc, table)
    if not changed:
        return None
    return json.dumps(fixed, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class RecordedNumbers:
    """ASGI middleware: the app's JSON answers and SSE `data:` lines with their recorded numbers put back."""

    def __init__(self, app: ASGIApp, table: dict[str, Any]) -> None:
        self.app, self.table = app, table

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.table:
            await self.app(scope, receive, send)
            return
        kind: str | None = None
        start: Message | None = None
        held: list[bytes] = []

        async def relay(message: Message) -> None:
            nonlocal kind, start
            if message["type"] == "http.response.start":
                headers = dict((k.lower(), v) for k, v in message.get("headers", []))
                content_type = headers.get(b"content-type", b"").decode("latin-1").lower()
                kind = "sse" if "text/event-stream" in content_type else "json" if "json" in content_type else None
                if kind == "json":
                    start = message  # sent once the body is whole: its length may change
                    return
                await send(message)
                return
            if message["type"] != "http.response.body" or kind is None:
                await send(message)
                return
            body = message.get("body", b"")
            more = message.get("more_body", False)
            if kind == "sse":
                text = b"".join([*held, body])
                held.clear()
                if more:  # an unfinished line waits for the rest
                    text, newline, rest = text.rpartition(b"\n")
                    held.append(rest)
                    if not newline:
                        return
                lines = b"\n".join(self._line(line) for line in text.split(b"\n"))
                await send({**message, "body": lines + (b"\n" if more else b"")})
                return
            held.append(body)
            if more:
                return
            whole = b"".join(held)
            fixed = _rewritten(whole, self.table)
            assert start is not None  # held above, before any body
            if fixed is not None:
                whole = fixed
                others = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                start = {**start, "headers": [*others, (b"content-length", str(len(whole)).encode())]}
            await send(start)
            await send({"type": "http.response.body", "body": whole, "more_body": False})

        await self.app(scope, receive, relay)

    def _line(self, line: bytes) -> bytes:
        if not line.startswith(b"data:"):
            return line
        end = b"\r" if line.endswith(b"\r") else b""
        payload = line[5 : len(line) - len(end)]
        fixed = _rewritten(payload, self.table)
        return line if fixed is None else b"data: " + fixed + end
