"""What went over the wire during a probe, exchange by exchange, as the tap recorded it. The transports read
leniently (a stream answered as one JSON document, a frame that is not JSON skipped with a note): conformance
judges what the agent really sent, so it reads the tap's records, not only the events the transport made of them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..a2a.tap import GRPC, Tap, WireRecord


@dataclass
class Exchange:
    number: int
    method: str  # the HTTP method, or gRPC
    url: str
    rpc: str | None = None  # the JSON-RPC method of the request
    status: int | None = None
    content_type: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # the response's, as the tap kept them (redacted)
    body: str = ""
    truncated: bool = False  # the tap kept only the start of the body
    frames: list[tuple[str, bool]] = field(default_factory=list)  # each SSE frame's data, and whether it was cut

    @property
    def grpc(self) -> bool:
        return self.method == GRPC


class WireLog:
    """Listens to a tap; `mark()` before a step and `since(mark)` after it give that step's exchanges."""

    def __init__(self, tap: Tap) -> None:
        self.exchanges: dict[int, Exchange] = {}
        tap.listeners.append(self._record)

    def mark(self) -> int:
        return max(self.exchanges, default=0)

    def since(self, mark: int) -> list[Exchange]:
        return [e for n, e in sorted(self.exchanges.items()) if n > mark]

    def _record(self, record: WireRecord) -> None:
        if record.kind == "request":
            self.exchanges[record.exchange] = Exchange(
                record.exchange, record.method, record.url, rpc=_rpc_method(record.body)
            )
            return
        exchange = self.exchanges.get(record.exchange)
        if exchange is None:
            return
        if record.kind == "response":
            exchange.status = record.status
            exchange.content_type = _header(record.headers, "content-type")
            exchange.headers = {key.lower(): value for key, value in record.headers.items()}
            exchange.body, exchange.truncated = record.body, record.truncated
        elif record.kind == "sse":
            exchange.frames.append((record.body, record.truncated))


def _header(headers: dict[str, str], name: str) -> str:
    return next((value for key, value in headers.items() if key.lower() == name), "")


def _rpc_method(body: str) -> str | None:
    try:
        value: Any = json.loads(body) if body.startswith("{") else None
    except (ValueError, RecursionError):
        return None
    method = value.get("method") if isinstance(value, dict) else None
    return method if isinstance(method, str) else None
