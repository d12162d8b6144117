"""The HAR export of the wire: HTTP Archive 1.2 from the tap's records, one entry per exchange.

A streamed response keeps its frames twice: as the response body (`text/event-stream`, the frames as they
read on the wire) and in `_sseMessages`, one item per frame with its time (after the `_webSocketMessages`
field browsers write for WebSockets). A record the tap cut short is marked `_truncated`; an exchange that
failed before any answer has status 0 and its error in `_error`. Fields starting with `_` are HAR's custom
fields. A gRPC call is an HTTP/2 POST to /SERVICE/METHOD (URL `grpc://`), its messages as JSON in the place of
SSE frames, its own status in `_grpcStatus` (code, name and message, trailers). The tap redacted every record as
it made it; the whole archive passes the redactor again, for secrets learned since (an answer typed in a masked
prompt).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .. import __version__
from ..a2a.redact import Redactor
from ..a2a.tap import GRPC, WireRecord


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _headers(headers: dict[str, str]) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in headers.items()]


def _header(headers: dict[str, str], name: str) -> str:
    return next((v for k, v in headers.items() if k.lower() == name), "")


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _frame_text(record: WireRecord) -> str:
    event = record.headers.get("event")
    lines = [f"event: {event}"] if event else []
    lines += [f"data: {line}" for line in record.body.split("\n")]
    return "\n".join(lines) + "\n\n"


def _entry(records: list[WireRecord], wall_start: float) -> dict[str, Any] | None:
    request = next((r for r in records if r.kind == "request"), None)
    if request is None:
        return None  # its request left the tap's window: nothing to anchor the entry on
    response = next((r for r in records if r.kind == "response"), None)
    trailers = next((r for r in records if r.kind == "trailers"), None)
    frames = [r for r in records if r.kind == "sse"]
    grpc = request.method == GRPC
    errors = [r for r in records if r.kind == "error"]
    ends = [r.elapsed_ms for r in records if r.elapsed_ms is not None]
    total = max(ends) if ends else 0.0
    wait = response.elapsed_ms if response is not None and response.elapsed_ms is not None else total
    url = request.url
    http_request: dict[str, Any] = {
        # A gRPC call is an HTTP/2 POST to /SERVICE/METHOD; its messages are shown as JSON.
        "method": "POST" if grpc else request.method or "GET",
        "url": url,
        "httpVersion": "HTTP/2" if grpc else "HTTP/1.1",
        "cookies": [],
        "headers": _headers(request.headers),
        "queryString": [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)],
        "headersSize": -1,
        "bodySize": _size(request.body) if request.body else 0,
    }
    if request.body:
        http_request["postData"] = {
            "mimeType": _header(request.headers, "content-type") or "application/json",
            "params": [],
            "text": request.body,
        }
    if request.truncated:
        http_request["_truncated"] = True
    response_headers = response.headers if response is not None else {}
    mime = _header(response_headers, "content-type") or ("text/event-stream" if frames else "")
    text = response.body if response is not None else ""
    if frames:
        text = "".join(_frame_text(f) for f in frames)
    content: dict[str, Any] = {"size": _size(text), "mimeType": mime, "text": text}
    status = response.status if response is not None and response.status is not None else 0
    if grpc and response is not None:
        status = 200  # gRPC answers HTTP 200 whatever its own status, which is in `_grpcStatus`
    try:
        phrase = HTTPStatus(status).phrase if status else ""
    except ValueError:
        phrase = ""
    http_response: dict[str, Any] = {
        "status": status,
        "statusText": phrase,
        "httpVersion": ("HTTP/2" if grpc else "HTTP/1.1") if response is not None else "",
        "cookies": [],
        "headers": _headers(response_headers),
        "content": content,
        "redirectURL": _header(response_headers, "location"),
        "headersSize": -1,
        "bodySize": -1,
    }
    if (response is not None and response.truncated) or any(f.truncated for f in frames):
        http_response["_truncated"] = True
    entry: dict[str, Any] = {
        "startedDateTime": _iso(wall_start + request.at),
        "time": round(total, 3),
        "request": http_request,
        "response": http_response,
        "cache": {},
        "timings": {"send": 0, "wait": round(max(0.0, wait), 3), "receive": round(max(0.0, total - wait), 3)},
        "_exchange": request.exchange,
    }
    if frames:
        entry["_sseMessages"] = [
            {
                "type": "receive",
                "time": round(wall_start + f.at, 6),
                "opcode": 1,
                **({"event": f.headers["event"]} if f.headers.get("event") else {}),
                "data": f.body,
                **({"_truncated": True} if f.truncated else {}),
            }
            for f in frames
        ]
    if trailers is not None:
        entry["_grpcStatus"] = {"code": trailers.status, "message": trailers.body, "trailers": trailers.headers}
    if errors:
        entry["_error"] = "\n".join(e.body for e in errors)
    return entry


def archive(records: Iterable[WireRecord], wall_start: float) -> dict[str, Any]:
    """The records as a HAR 1.2 `{"log": ...}` document; `wall_start` is the epoch time of the tap's `at` 0."""
    exchanges: dict[int, list[WireRecord]] = {}
    for record in records:
        exchanges.setdefault(record.exchange, []).append(record)
    entries = [e for e in (_entry(group, wall_start) for group in exchanges.values()) if e is not None]
    return {
        "log": {
            "version": "1.2",
            "creator": {"name": "a2a-switchboard", "version": __version__},
            "entries": entries,
            "comment": "A2A traffic recorded by a2a-switchboard; secrets are shown as [redacted].",
        }
    }


def render(records: Iterable[WireRecord], wall_start: float, redactor: Redactor) -> str:
    return redactor.text(json.dumps(archive(records, wall_start), ensure_ascii=False, indent=2)) + "\n"
