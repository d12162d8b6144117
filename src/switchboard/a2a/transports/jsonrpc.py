"""The JSON-RPC binding, v1.0 and v0.3: every operation a POST of `{"jsonrpc": "2.0", "id", "method", "params"}` to
the interface URL; errors come back inside the envelope (HTTP 200), streams as SSE frames that each hold one
envelope. The codecs of `switchboard.a2a.wire` (v10, v03) write the params and read the results.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import httpx

from ..call_context import CallContext
from ..cards import JSONRPC
from ..errors import InvalidResponseError, UsageError, protocol_error_from
from ..http import open_response, parse_json
from ..model import StreamEvent
from ..wire import codec_for
from ..wire.codec import JsonRpcCodec
from ..wire.common import Notes, WireFormatError
from .http_transport import SAFE_OPS, HttpTransport, loads_frame


class JsonRpcTransport(HttpTransport):
    """Talks to one agent through a JSON-RPC interface of its card."""

    BINDING = JSONRPC
    PUSH_AT_03 = True
    codec: JsonRpcCodec

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ids = itertools.count(1)
        self.lists_tasks = "list" in self.codec.METHODS

    def _codec(self) -> JsonRpcCodec:
        return codec_for(self.endpoint.version)

    def _tenant(self) -> str | None:
        return (self.endpoint.tenant or None) if self.endpoint.version == "1.0" else None

    def _body(self, op: str, params: dict[str, Any]) -> bytes:
        method = self.codec.METHODS.get(op)
        if method is None:
            raise UsageError(
                f"{op} is not part of the A2A {self.endpoint.version} JSON-RPC binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        body = {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}
        return json.dumps(body, separators=(",", ":")).encode()

    async def _open(
        self,
        op: str,
        params: dict[str, Any],
        accept: str,
        *,
        stream: bool,
        timeout: httpx.Timeout | float | None = None,
        context: CallContext | None = None,
    ) -> tuple[httpx.Response, int, str]:
        url = self.endpoint.url
        response, exchange = await open_response(
            self.http,
            "POST",
            url,
            tap=self.tap,
            headers=self._request_headers(accept),
            params=self.auth.params or None,
            content=self._body(op, params),
            retry=self.retry,
            safe=op in SAFE_OPS,
            on_retry=lambda text: self.retried(text, context),
            stream=stream,
            timeout=timeout,
            auth=self.auth.auth_for(context),
        )
        return response, exchange, url

    def _answer(self, op: str, url: str, status: int, text: str) -> Any:
        if status != 200:
            raise self._status_error(url, status, text)
        payload = parse_json(url, text)
        if op == "push_delete" and isinstance(payload, dict) and "error" not in payload:
            return None  # a delete answers null, which a2a-sdk 0.3 leaves out altogether
        return self._result(payload)

    def _result(self, payload: Any) -> Any:
        url = self.endpoint.url
        if not isinstance(payload, dict):
            raise InvalidResponseError(
                f"{url} answered with a JSON {type(payload).__name__}, not a JSON-RPC response",
                hint="Check that the card's interface URL is the agent's JSON-RPC endpoint; --verbose shows it.",
                url=url,
            )
        if "error" in payload and payload["error"] is not None:
            raise protocol_error_from(payload["error"], url)
        if "result" not in payload:
            raise InvalidResponseError(
                f"{url} answered without a result or an error", hint="Run with --verbose to see the answer.", url=url
            )
        return payload["result"]

    def _frame(self, event_name: str, data: str) -> StreamEvent | None:
        if not data.strip():
            return None
        try:
            payload = loads_frame(data)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser can go
            self.note(f"ignored an SSE frame that is not JSON: {data[:80]!r}")
            return None
        if type(payload) is dict and "result" in payload and payload.get("error") is None and event_name != "error":
            result = payload["result"]  # a plain JSON-RPC result, as nearly every frame is
        else:
            if event_name == "error" or (isinstance(payload, dict) and payload.get("error") is not None):
                error = payload.get("error", payload) if isinstance(payload, dict) else payload
                raise protocol_error_from(error, self.endpoint.url)
            try:
                result = self._result(payload)
            except InvalidResponseError as exc:
                self.note(f"ignored an SSE frame: {exc.message}")
                return None
        notes = Notes()
        try:
            return self.codec.decode_event(result, notes)
        except WireFormatError as exc:
            self.note(f"ignored an SSE frame: {exc.message}")
            return None
        finally:
            if notes:
                self._drain_notes(notes)
