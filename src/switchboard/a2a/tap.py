"""The wire tap: every request, response and SSE frame as data, timed and redacted.

The client reports to a Tap; the TUI's wire view and `--verbose` read its records. Secrets never enter a
record: headers and bodies pass through the Redactor before they are stored.

A gRPC call is recorded in the same shapes, its records' `method` "gRPC": the request (its URL
`grpc://HOST:PORT/SERVICE/METHOD`, the metadata as headers, the message as ProtoJSON), the response (the initial
metadata; a unary answer's message), a frame per streamed message, and the call's end, a `trailers` record: the
gRPC status (its code in `status`, its name and message in the body) and the trailing metadata.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from sys import getsizeof
from typing import Literal

from ..safe_text import strip_controls
from .redact import Redactor

RecordKind = Literal["request", "response", "sse", "trailers", "error", "note"]
GRPC = "gRPC"  # the `method` of every record of a gRPC call


@dataclass(frozen=True, slots=True)
class WireRecord:
    exchange: int  # links a request to its response and frames
    kind: RecordKind
    at: float  # seconds since the tap was created
    method: str = ""
    url: str = ""
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: str = ""
    elapsed_ms: float | None = None  # since the request of this exchange
    truncated: bool = False


class Tap:
    """Collects WireRecords and passes each to its listeners as it happens.

    Bounded twice: at most `max_records` records, and at most `max_bytes` bytes of memory in their bodies (a
    stream of huge frames keeps fewer records); each body is cut to `max_body` characters. Memory, not characters:
    a body with one character past U+00FF takes two bytes a character, past U+FFFF four.
    """

    def __init__(
        self,
        redactor: Redactor | None = None,
        *,
        max_records: int = 5000,
        max_body: int = 65536,
        max_bytes: int = 16 * 2**20,
    ):
        self.redactor = redactor or Redactor()
        self.records: deque[WireRecord] = deque(maxlen=max_records)
        self.listeners: list[Callable[[WireRecord], None]] = []
        self.sensitive_headers: set[str] = set()
        self._max_body = max_body
        self._max_bytes = max_bytes
        self._kept = 0  # bytes of body in `records`
        self._t0 = time.monotonic()
        self.wall_start = time.time()  # the wall-clock time of `at` 0, for exports that date each record
        self._next = 0
        self.emitted = 0  # records made so far; the newest of them are in `records`
        self._started: dict[int, float] = {}

    def _emit(self, record: WireRecord) -> None:
        records = self.records
        if len(records) == records.maxlen:
            self._kept -= getsizeof(records[0].body)
        records.append(record)
        self._kept += getsizeof(record.body)
        while self._kept > self._max_bytes and len(records) > 1:
            self._kept -= getsizeof(records.popleft().body)
        self.emitted += 1
        for listener in self.listeners:
            listener(record)

    def add(self, record: WireRecord) -> None:
        """Keep a record made elsewhere (already redacted, such as a replayed exchange) as if the tap had made
        it: within the bounds, and passed to the listeners."""
        self._emit(record)

    def _body(self, body: str | bytes | None) -> tuple[str, bool]:
        if body is None:
            return "", False
        if isinstance(body, bytes):
            # No more than the kept part is decoded (a frame can be tens of megabytes), and past it the length
            # of a secret and a character: the redactor looks that far to find a secret across the cut.
            body = body[: (self._max_body + self.redactor.longest + 1) * 4].decode("utf-8", errors="replace")
        return self.redactor.cut(body, self._max_body), len(body) > self._max_body

    def _headers(self, headers: Iterable[tuple[str, str]]) -> dict[str, str]:
        return self.redactor.headers(headers, self.sensitive_headers)

    def request(self, method: str, url: str, headers: Iterable[tuple[str, str]], body: str | bytes | None) -> int:
        self._next += 1
        exchange = self._next
        now = time.monotonic()
        self._started[exchange] = now
        text, cut = self._body(body)
        self._emit(
            WireRecord(
                exchange,
                "request",
                now - self._t0,
                method,
                self.redactor.text(url),
                None,
                self._headers(headers),
                text,
                None,
                cut,
            )
        )
        return exchange

    def _elapsed(self, exchange: int, now: float) -> float | None:
        start = self._started.get(exchange)
        return None if start is None else (now - start) * 1000

    def response(
        self,
        exchange: int,
        status: int | None,
        headers: Iterable[tuple[str, str]],
        body: str | bytes | None,
        *,
        partial: bool = False,
        method: str = "",
    ) -> None:
        """`partial`: the body is already a part of the answer (a gRPC task read for its ids and status).
        `method`: GRPC for a gRPC call's (whose `status` is None: gRPC's comes at the end, see `trailers`)."""
        now = time.monotonic()
        text, cut = self._body(body)
        cut = cut or partial
        self._emit(
            WireRecord(
                exchange,
                "response",
                now - self._t0,
                method=method,
                status=status,
                headers=self._headers(headers),
                body=text,
                elapsed_ms=self._elapsed(exchange, now),
                truncated=cut,
            )
        )

    def frame(self, exchange: int, event: str, data: str, *, method: str = "") -> None:
        """One SSE frame (`event` its name), or with `method` GRPC one message of a gRPC stream."""
        now = time.monotonic()
        text, cut = self._body(data)
        label = {"event": event} if event and event != "message" else {}
        self._emit(
            WireRecord(
                exchange,
                "sse",
                now - self._t0,
                method=method,
                headers=label,
                body=text,
                elapsed_ms=self._elapsed(exchange, now),
                truncated=cut,
            )
        )

    def trailers(self, exchange: int, status: int, headers: Iterable[tuple[str, str]], body: str) -> None:
        """The end of a gRPC call: its status code, its trailing metadata, and `body` the status's name and message
        (and its details as JSON)."""
        now = time.monotonic()
        text, cut = self._body(body)
        self._emit(
            WireRecord(
                exchange,
                "trailers",
                now - self._t0,
                method=GRPC,
                status=status,
                headers=self._headers(headers),
                body=text,
                elapsed_ms=self._elapsed(exchange, now),
                truncated=cut,
            )
        )

    def error(self, exchange: int, text: str) -> None:
        now = time.monotonic()
        self._emit(
            WireRecord(
                exchange,
                "error",
                now - self._t0,
                body=self.redactor.text(text),
                elapsed_ms=self._elapsed(exchange, now),
            )
        )

    def done(self, exchange: int) -> None:
        self._started.pop(exchange, None)


def format_record(record: WireRecord) -> str:
    """A record as a few plain lines, for `--verbose` on stderr: what the agent sent, its controls stripped."""
    stamp = f"[{record.at:8.3f}s #{record.exchange}]"
    took = f" ({record.elapsed_ms:.0f} ms)" if record.elapsed_ms is not None else ""
    if record.kind == "request":
        head = f"{stamp} > {record.method} {record.url}"
    elif record.kind == "response" and record.method == GRPC:
        head = f"{stamp} < gRPC headers{took}"
    elif record.kind == "response":
        head = f"{stamp} < {record.status}{took}"
    elif record.kind == "sse" and record.method == GRPC:
        head = f"{stamp} < gRPC message{took}"
    elif record.kind == "sse":
        event = record.headers.get("event")
        head = f"{stamp} < sse{' ' + event if event else ''}{took}"
    elif record.kind == "trailers":
        head = f"{stamp} < gRPC status {record.status}{took}"
    else:
        head = f"{stamp} ! {record.kind}{took}"
    lines = [head]
    if record.kind in ("request", "response", "trailers"):
        lines += [f"    {k}: {v}" for k, v in record.headers.items()]
    if record.body:
        lines.append("    " + record.body.replace("\n", "\n    ") + (" …(truncated)" if record.truncated else ""))
    return strip_controls("\n".join(lines))
