"""How long a client may hold a connection to `switchboard serve` without sending a request, and how many it may open.

uvicorn closes an idle kept-alive connection after timeout_keep_alive, but a connection that has sent part of a
request line (or nothing at all since it opened) is held for as long as the client likes: a few hundred such
clients would take every connection. HeaderDeadline closes a connection whose next request's headers are not
complete within HEADER_TIMEOUT of its opening (or of the last response); the guard bounds the body's time.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from .bounds import CONNECTIONS_PER_RUN, HEADER_TIMEOUT, KEEP_ALIVE, MAX_HEADER_BYTES, MIN_CONNECTIONS


class HeaderDeadline(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (httptools, else h11), closing a connection that is slow to send its headers or
    sends more than MAX_HEADER_BYTES of them (httptools has no bound of its own)."""

    header_timeout = HEADER_TIMEOUT
    max_header_bytes = MAX_HEADER_BYTES
    _waiting_for: Any = None  # the cycle that was current when the wait for a new request's headers began
    _header_bytes = 0
    _tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._arm(None)

    def on_response_complete(self) -> None:
        finished = self.cycle  # taken first: a pipelined request may start inside the call below
        super().on_response_complete()
        self._arm(finished)

    def data_received(self, data: bytes) -> None:
        if self._awaits_headers() and self._header_size(data) > self.max_header_bytes:
            self._close(TOO_LARGE)
            return
        super().data_received(data)

    def _awaits_headers(self) -> bool:
        """No request since the wait began, and the last one's body is all in (after an early answer, e.g. 413,
        the rest of its body still arrives: those bytes are not a head)."""
        return self.cycle is self._waiting_for and not getattr(self.cycle, "more_body", False)

    def _header_size(self, data: bytes) -> int:
        """The bytes of the awaited request's head so far: up to its blank line when this chunk holds it."""
        seen = self._tail + data  # the blank line may straddle two chunks
        end = seen.find(b"\r\n\r\n")
        before = self._header_bytes - len(self._tail)
        self._header_bytes += len(data)
        self._tail = seen[-3:]
        return before + end + 4 if end >= 0 else self._header_bytes

    def _arm(self, finished: Any) -> None:
        # A new request's headers make a new cycle: the deadline holds while the cycle is still the one it saw.
        self._waiting_for = finished
        self._header_bytes = 0
        self._tail = b""
        self.loop.call_later(self.header_timeout, self._expire, finished)

    def _expire(self, finished: Any) -> None:
        if self.cycle is finished:
            self._close(b"")

    def _close(self, answer: bytes) -> None:
        if not self.transport.is_closing():
            if answer:
                self.transport.write(answer)
            self.transport.close()


TOO_LARGE = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def connection_limits(max_runs: int) -> dict[str, Any]:
    """uvicorn.Config arguments: the protocol above, keep-alive, the header size bound and a connection cap."""
    return {
        "http": HeaderDeadline,
        "timeout_keep_alive": KEEP_ALIVE,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "limit_concurrency": max(MIN_CONNECTIONS, CONNECTIONS_PER_RUN * max_runs),
    }
