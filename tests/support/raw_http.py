"""Raw bytes to an HTTP server on 127.0.0.1, as a hostile client sends them: what comes back, read to the server's
close. For the push receiver's tests (tests/unit/push/test_push_receiver.py, tests/fuzz,
tests/interop/test_push_attack.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re

WAIT = 20  # seconds: a bound on a wait for the server's answer or close, never a measure
STATUS = re.compile(rb"HTTP/1\.1 (\d{3}) ")


async def exchange(port: int, data: bytes, *, end: bool = False, abort: bool = False) -> bytes:
    """Send `data` on a fresh connection (then half-close it if `end`, or reset it if `abort`) and read what comes
    back until the server closes. A reset by the server ends the reading like a close does."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        if abort:
            writer.transport.abort()
            return b""
        if end:
            writer.write_eof()
        got = bytearray()
        async with asyncio.timeout(WAIT):
            with contextlib.suppress(ConnectionError):
                while chunk := await reader.read(65536):
                    got += chunk
        return bytes(got)
    finally:
        writer.close()


def statuses(response: bytes) -> list[int]:
    """Every status line's code in `response`, in order (a 100 Continue included)."""
    return [int(code) for code in STATUS.findall(response)]


def post(path: str, body: bytes, token: str | None = None, *, extra: str = "", version: str = "1.1") -> bytes:
    """A POST with a Content-Length, as a push sender writes it."""
    head = f"POST {path} HTTP/{version}\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    if token is not None:
        head += f"X-A2A-Notification-Token: {token}\r\n"
    head += extra + f"Content-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


def status_update(task_id: str, state: str = "TASK_STATE_WORKING") -> bytes:
    """A v1.0 StreamResponse for `task_id`, as a push sender POSTs it."""
    update = {"statusUpdate": {"taskId": task_id, "contextId": "ctx", "status": {"state": state}}}
    return json.dumps(update).encode()
