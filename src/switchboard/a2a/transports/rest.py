"""The HTTP+JSON binding (REST), v1.0 and v0.3: one route per operation under the interface URL.

v1.0 (spec §11): `POST /message:send`, `POST /message:stream` (SSE), `GET /tasks/{id}`, `GET /tasks`,
`POST /tasks/{id}:cancel`, `POST /tasks/{id}:subscribe` (SSE), `GET /extendedAgentCard`, each under `/{tenant}`
when the interface names one. Bodies are the v1.0 ProtoJSON objects the JSON-RPC binding carries as params and
results, without the envelope; an SSE frame is one StreamResponse. Requests are `application/a2a+json`.

v0.3 (the v0.3 proto's HTTP annotations, served by a2a-sdk 0.3 and the 1.x SDKs' compat modes): the same routes
under `/v1`, subscribe by GET, the extended card at `/v1/card`, no task list; bodies are ProtoJSON of the v0.3
proto (wire/v03rest.py).

Errors are HTTP statuses with a body. The spec's is a google.rpc.Status whose ErrorInfo names the A2A error
(`{"error": {"code": 404, "status": "NOT_FOUND", "message", "details": [{"@type": ...ErrorInfo, "reason":
"TASK_NOT_FOUND"}]}}`); older servers send a JSON-RPC error object (`{"code": -32001, "message"}`, the JavaScript
SDK's v0.3) or only a message (`{"message"}`, a2a-sdk 0.3), where the status says which error it is. Each becomes
the ProtocolError of its A2A name (errors.rest_error_from); a body that is not an A2A server's (a proxy's page)
stays an HTTP error.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import httpx

from ..call_context import CallContext
from ..cards import HTTP_JSON
from ..errors import AuthFailedError, ProtocolError, SwitchboardError, UsageError, rest_error_from
from ..http import open_response, parse_json
from ..model import StreamEvent
from ..wire import v03rest, v10
from ..wire.codec import Codec
from ..wire.common import Notes, WireFormatError
from .http_transport import SAFE_OPS, HttpTransport, loads_frame

ROUTES = {
    "1.0": {
        "send": ("POST", "/message:send"),
        "stream": ("POST", "/message:stream"),
        "get": ("GET", "/tasks/{id}"),
        "list": ("GET", "/tasks"),
        "cancel": ("POST", "/tasks/{id}:cancel"),
        "subscribe": ("POST", "/tasks/{id}:subscribe"),
        "extended_card": ("GET", "/extendedAgentCard"),
        "push_set": ("POST", "/tasks/{taskId}/pushNotificationConfigs"),
        "push_get": ("GET", "/tasks/{taskId}/pushNotificationConfigs/{id}"),
        "push_list": ("GET", "/tasks/{taskId}/pushNotificationConfigs"),
        "push_delete": ("DELETE", "/tasks/{taskId}/pushNotificationConfigs/{id}"),
    },
    "0.3": {
        "send": ("POST", "/v1/message:send"),
        "stream": ("POST", "/v1/message:stream"),
        "get": ("GET", "/v1/tasks/{id}"),
        "cancel": ("POST", "/v1/tasks/{id}:cancel"),
        "subscribe": ("GET", "/v1/tasks/{id}:subscribe"),  # GET in the v0.3 proto; a2a-sdk 0.3 serves only GET
        "extended_card": ("GET", "/v1/card"),
    },
}
TASK_OPS = frozenset({"get", "cancel", "subscribe", "push_set", "push_list"})  # a 404 there is the task, not the route


class RestTransport(HttpTransport):
    """Talks to one agent through an HTTP+JSON interface of its card."""

    BINDING = HTTP_JSON

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.routes = ROUTES[self.endpoint.version]
        self.lists_tasks = "list" in self.routes
        # The spec's media type for v1.0; the v0.3 servers read application/json only.
        self._headers["Content-Type"] = "application/a2a+json" if self.endpoint.version == "1.0" else "application/json"

    def _codec(self) -> Codec:
        return v10 if self.endpoint.version == "1.0" else v03rest

    def _route(self, op: str, params: dict[str, Any]) -> tuple[str, str, dict[str, Any], bytes | None]:
        """(method, URL without query, query, body) for `op`."""
        route = self.routes.get(op)
        if route is None:
            raise UsageError(
                f"{op} is not part of the A2A {self.endpoint.version} HTTP+JSON binding",
                hint="Listing tasks needs an agent that speaks protocol 1.0.",
            )
        method, path = route
        params = dict(params)
        params.pop("tenant", None)  # a path segment here, below
        for name in ("taskId", "id"):  # the path's variables, taken out of the body or query
            if "{" + name + "}" in path:
                path = path.replace("{" + name + "}", quote(str(params.pop(name, "")), safe=""))
        tenant = self.endpoint.tenant if self.endpoint.version == "1.0" else None
        url = self.endpoint.url.rstrip("/") + (f"/{quote(tenant, safe='')}" if tenant else "") + path
        if method in ("GET", "DELETE"):
            return method, url, {k: str(v) for k, v in params.items()}, None
        return method, url, {}, json.dumps(params, separators=(",", ":")).encode()

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
        method, url, query, body = self._route(op, params)
        headers = self._request_headers(accept)
        if body is None:
            headers.pop("Content-Type", None)
        response, exchange = await open_response(
            self.http,
            method,
            url,
            tap=self.tap,
            headers=headers,
            params={**query, **self.auth.params} or None,
            content=body,
            retry=self.retry,
            safe=op in SAFE_OPS,
            on_retry=lambda text: self.retried(text, context),
            stream=stream,
            timeout=timeout,
            auth=self.auth.auth_for(context),
        )
        return response, exchange, url

    def _answer(self, op: str, url: str, status: int, text: str) -> Any:
        if 200 <= status < 300:
            return parse_json(url, text) if text.strip() else {}
        raise self._error(op, url, status, text)

    def _error(self, op: str, url: str, status: int, text: str) -> SwitchboardError:
        error = self._status_error(url, status, text)
        if isinstance(error, AuthFailedError):
            return error
        try:
            payload = json.loads(text)
        except (ValueError, RecursionError):
            return error  # not an A2A server's answer: a proxy, a web page
        found = rest_error_from(payload, status, url, route="task" if op in TASK_OPS else op)
        if found is None:
            return error
        found.message = self.redactor.text(found.message)
        found.args = (found.message,)
        return found

    def _frame(self, event_name: str, data: str) -> StreamEvent | None:
        if not data.strip():
            return None
        try:
            payload = loads_frame(data)
        except (ValueError, RecursionError):
            self.note(f"ignored an SSE frame that is not JSON: {data[:80]!r}")
            return None
        if event_name == "error" or (isinstance(payload, dict) and ("error" in payload or "code" in payload)):
            raise rest_error_from(payload, None, self.url) or ProtocolError(
                -32603, f"the agent reported an error: {self.redactor.text(data[:200])}", url=self.url
            )
        notes = Notes()
        try:
            return self.codec.decode_event(payload, notes)
        except WireFormatError as exc:
            self.note(f"ignored an SSE frame: {exc.message}")
            return None
        finally:
            if notes:
                self._drain_notes(notes)
