"""HTTP plumbing shared by discovery and the clients: tapped requests and plain-language network errors."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .errors import AuthFailedError, InvalidResponseError, SwitchboardError, TimedOutError, UnreachableError
from .tap import Tap

USER_AGENT = "a2a-switchboard"
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)


def new_http_client(timeout: httpx.Timeout | float | None = None) -> httpx.AsyncClient:
    """One pooled client per process or screen; callers close it."""
    return httpx.AsyncClient(
        timeout=timeout or DEFAULT_TIMEOUT,
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
    )


def header_pairs(headers: httpx.Headers) -> list[tuple[str, str]]:
    """Headers as sent, with their original casing (for the wire view)."""
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers.raw]


def network_error(url: str, exc: Exception) -> SwitchboardError:
    """Turn an httpx failure into an error that names the URL and the reason."""
    if isinstance(exc, httpx.TimeoutException):
        return TimedOutError(
            f"{url} did not answer in time ({type(exc).__name__})",
            hint="The agent may be overloaded; retry, or raise --timeout.",
            url=url,
        )
    if isinstance(exc, httpx.ConnectError):
        reason = str(exc) or "connection refused"
        return UnreachableError(
            f"cannot connect to {url}: {reason}",
            hint="Check that the agent is running and the URL (host, port, http/https) is right.",
            url=url,
        )
    reason = str(exc) or type(exc).__name__
    return UnreachableError(
        f"the connection to {url} failed: {reason}", hint="Retry; if it persists, check the agent's logs.", url=url
    )


def http_status_error(url: str, status: int, body: str) -> SwitchboardError:
    """An HTTP failure status as an error. `body` must already be redacted: agents echo credentials."""
    snippet = body.strip().replace("\n", " ")[:200]
    if status in (401, 403):
        return AuthFailedError(
            f"{url} refused the request with HTTP {status}" + (f": {snippet}" if snippet else ""),
            hint="The agent wants credentials: name the variable holding them with --api-key-env or --bearer-env "
            "(`switchboard card get` shows the agent's security schemes).",
            url=url,
        )
    return InvalidResponseError(
        f"{url} answered HTTP {status}" + (f": {snippet}" if snippet else ""),
        hint="Check the URL; run with --verbose to see the exchange.",
        url=url,
    )


def parse_json(url: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidResponseError(
            f"{url} did not answer with JSON ({exc.msg} at line {exc.lineno})",
            hint="The URL may point at a web page rather than an A2A endpoint; run with --verbose to see it.",
            url=url,
        ) from None


async def tapped_request(
    http: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    tap: Tap | None,
    headers: dict[str, str] | None = None,
    params: dict[str, str] | None = None,
    content: bytes | None = None,
) -> httpx.Response:
    """Send one request and read the whole body, recording both ends on the tap."""
    request = http.build_request(method, url, headers=headers, params=params, content=content)
    exchange = tap.request(method, str(request.url), header_pairs(request.headers), content) if tap else 0
    try:
        response = await http.send(request)
        await response.aread()
    except httpx.HTTPError as exc:
        if tap:
            tap.error(exchange, f"{type(exc).__name__}: {exc}")
        raise network_error(url, exc) from None
    finally:
        if tap:
            tap.done(exchange)  # also when the caller was cancelled mid-request
    if tap:
        tap.response(exchange, response.status_code, header_pairs(response.headers), response.content)
    return response
