"""The streamable HTTP endpoint's door, checked before the MCP SDK reads a byte of the body: the bearer token
(compared in constant time), and the Origin, which a browser sends and which must be this server's own (a page
elsewhere that learned the address and the token cannot drive the agents with the person's credentials). The
SDK's own Host check (DNS rebinding) stays on behind this."""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class TokenAndOrigin:
    def __init__(self, app: ASGIApp, token: str, origins: set[str]) -> None:
        self.app = app
        self._token = token.encode()
        self.origins = origins  # filled in once the port is known

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1").rstrip("/") not in self.origins:
            await _refuse(send, 403, "forbidden", "requests from this origin are not served")
            return
        given = headers.get(b"authorization", b"")
        scheme, _, value = given.partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(value.strip(), self._token):
            await _refuse(send, 401, "unauthorized", "send the token `switchboard mcp` printed as a bearer token")
            return
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, error: str, description: str) -> None:
    body = json.dumps({"error": error, "error_description": description}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="switchboard mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
