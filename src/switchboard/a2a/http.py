"""HTTP plumbing shared by discovery and the clients: tapped requests, bounded retries with jittered backoff,
and plain-language network errors.

What is retried: a safe call (card fetch, get-task, subscribe, list) on any connection failure and on HTTP
429/502/503/504; a call that starts work at the agent (send, stream) only when the request provably never
reached the agent: the connection could not be made, or a gateway in front of the agent answered 502/503
(an A2A server answers its own errors inside JSON-RPC, with status 200). A read that fails after the request
went out is never repeated for a send: the task may exist, and the follower finds it instead.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    import ssl

from ..safe_text import strip_controls
from .errors import (
    AuthFailedError,
    InvalidResponseError,
    SwitchboardError,
    TimedOutError,
    UnavailableError,
    UnreachableError,
    UsageError,
)
from .origin import origin_of
from .tap import Tap

USER_AGENT = "a2a-switchboard"
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)
RETRY_STATUS_SAFE = frozenset({429, 502, 503, 504})
RETRY_STATUS_UNSENT = frozenset({502, 503})  # a gateway answered: the agent never saw the request


@dataclass(frozen=True)
class RetryPolicy:
    """How often a failed request is tried again, and how long to wait in between."""

    attempts: int = 4  # tries in all, the first one included
    backoff: float = 0.25  # seconds before the first retry, doubled before each further one
    max_backoff: float = 4.0

    def delay(self, retry: int) -> float:
        """Equal jitter: half the backoff for sure, half at random, so clients that failed together spread out."""
        ceiling = min(self.max_backoff, self.backoff * 2.0 ** max(0, retry - 1))
        return ceiling / 2 + random.uniform(0, ceiling / 2)


DEFAULT_RETRY = RetryPolicy()
NO_RETRY = RetryPolicy(attempts=1)


# Common servers close a connection idle for 5 s (uvicorn, Node's http): one that expires ours first is closed by us,
# so a request seldom goes out on a connection the agent is closing at that very moment (a person answering a
# question about five seconds after it came). The one that still does is handled in follow.py (NEVER_ARRIVED).
POOL_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=4.0)


class LazyTLSTransport(httpx.AsyncBaseTransport):
    """Builds the TLS transport (loading the CA bundle: tens of ms at every start) on the first https request.

    Agents on loopback, the demo fleet among them, speak plain http: a command or the TUI talking only to
    them never pays for certificates. The plain transport is only ever handed http:// requests, so it
    never makes a TLS connection and needs no certificates; https goes to a transport that verifies them.
    """

    def __init__(
        self,
        tls_context: ssl.SSLContext | None = None,
        *,
        cert_origins: set[str] | None = None,
        other_context: ssl.SSLContext | None = None,
    ) -> None:
        self._plain = httpx.AsyncHTTPTransport(verify=False, limits=POOL_LIMITS)  # http:// only: see above
        self.tls: httpx.AsyncHTTPTransport | None = None
        self.tls_context = tls_context  # mutual TLS (client_tls.py): a client certificate, a private CA
        # With a client certificate: the origins it is presented to (the caller may add one); any other https
        # origin gets `other_context` (the private CA alone) or the system's, so the certificate stays with its agent
        self.cert_origins = cert_origins
        self.other_context = other_context
        self._other: httpx.AsyncHTTPTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme != "http":
            if self.cert_origins is not None and origin_of(str(request.url)) not in self.cert_origins:
                if self._other is None:
                    verify = self.other_context or True  # True: httpx's default
                    self._other = httpx.AsyncHTTPTransport(verify=verify, limits=POOL_LIMITS)
                return await self._other.handle_async_request(request)
            if self.tls is None:
                self.tls = httpx.AsyncHTTPTransport(verify=self.tls_context or True, limits=POOL_LIMITS)
            return await self.tls.handle_async_request(request)
        return await self._plain.handle_async_request(request)

    async def aclose(self) -> None:
        await self._plain.aclose()
        for transport in (self.tls, self._other):
            if transport is not None:
                await transport.aclose()


def new_http_client(
    timeout: httpx.Timeout | float | None = None,
    tls_context: ssl.SSLContext | None = None,
    *,
    cert_origins: set[str] | None = None,
    other_context: ssl.SSLContext | None = None,
) -> httpx.AsyncClient:
    """One pooled client per process or screen (with `tls_context`, per agent: see LazyTLSTransport); callers
    close it."""
    return httpx.AsyncClient(
        timeout=timeout or DEFAULT_TIMEOUT,
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
        transport=LazyTLSTransport(tls_context, cert_origins=cert_origins, other_context=other_context),
    )


def header_pairs(headers: httpx.Headers) -> list[tuple[str, str]]:
    """Headers as sent, with their original casing (for the wire view)."""
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers.raw]


MTLS_HINT = (
    "An agent that requires a client certificate (mutual TLS) closes the connection like this: give one with "
    "--client-cert FILE --client-key FILE (or tls: in the agents file), signed by a CA the agent trusts."
)


def network_error(url: str, exc: Exception) -> SwitchboardError:
    """Turn an httpx failure into an error that names the URL and the reason."""
    tls = url.startswith("https://")
    alert = _ssl_reason(exc, lambda r: "ALERT" in r and ("CERTIFICATE" in r or "UNKNOWN_CA" in r)) if tls else None
    if alert:
        return AuthFailedError(
            f"{url} refused the TLS client certificate ({alert})",
            hint="The agent requires a client certificate (mutual TLS) signed by a CA it trusts: give it with "
            "--client-cert FILE --client-key FILE, or tls: {cert: FILE, key: FILE} in the agents file.",
            url=url,
        )
    if isinstance(exc, httpx.ConnectTimeout):
        return UnavailableError(
            f"cannot connect to {url}: no answer in time",
            hint="Check that the agent is running and the URL (host, port, http/https) is right.",
            url=url,
        )
    if isinstance(exc, httpx.TimeoutException):
        return TimedOutError(
            f"{url} did not answer in time ({type(exc).__name__})",
            hint="The agent may be overloaded; retry, or raise --timeout.",
            url=url,
        )
    if isinstance(exc, httpx.ConnectError):
        reason = str(exc) or "connection refused"
        hint = "Check that the agent is running and the URL (host, port, http/https) is right."
        if "CERTIFICATE_VERIFY_FAILED" in reason:
            hint = (
                "The agent's TLS certificate is not one this machine trusts: if it comes from a private CA, name "
                "the CA's certificate with --ca-cert FILE (or tls: {ca: FILE} in the agents file)."
            )
        elif tls and not str(exc) and _ssl_reason(exc, lambda r: "EOF" in r):
            reason, hint = "the server closed the connection during the TLS handshake", MTLS_HINT
        return UnavailableError(f"cannot connect to {url}: {reason}", hint=hint, url=url)
    if isinstance(exc, httpx.LocalProtocolError):  # never quoted: h11 quotes the header, which may be a credential
        return UsageError(
            f"cannot send a request to {url}: a header is malformed (a line break or control character in it)",
            hint="Check --svc-param, the agents file's headers and the variables holding credentials.",
            url=url,
        )
    reason = str(exc) or type(exc).__name__
    hint = "Retry; if it persists, check the agent's logs."
    if tls and isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError):
        # TLS 1.3 servers refuse a missing or unknown client certificate after the handshake, and often only close
        # the connection: that cannot be told apart from a crash, so the hint says both
        hint += " " + MTLS_HINT
    return UnreachableError(f"the connection to {url} failed: {reason}", hint=hint, url=url)


def _ssl_reason(exc: BaseException, wanted: Callable[[str], bool]) -> str | None:
    """The reason of an ssl.SSLError in the exception's chain that `wanted` picks (e.g. the server's alert
    TLSV13_ALERT_CERTIFICATE_REQUIRED, or UNEXPECTED_EOF_WHILE_READING), or None."""
    import ssl

    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return None
        if isinstance(seen, ssl.SSLError) and wanted(str(seen.reason or "")):
            return str(seen.reason)
        seen = seen.__cause__ or seen.__context__
    return None


def url_error(url: str, exc: BaseException) -> SwitchboardError:
    """A URL the HTTP stack will not send to (bad port, bad host, unknown scheme): a usage error naming it.

    Addresses a person types are checked where they enter (user_input); this catches the rest, such as an
    interface URL from an agent's card, so that none of them surfaces as an internal error."""
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, BaseExceptionGroup):
        reason = "; ".join(str(e) or type(e).__name__ for e in exc.exceptions)
    return UsageError(
        f"cannot send a request to {url}: the URL is not valid ({reason})",
        hint="Check the URL where it was given (the command line, the agents file, or the agent's card): "
        "http:// or https://, a host name, and a port from 1 to 65535.",
        url=url,
    )


def _is_url_fault(exc: BaseException) -> bool:
    """Raised for a URL no connection can be made to: httpx rejects it, or the socket layer does (a port past
    65535 is an OverflowError from connect(), wrapped in an ExceptionGroup by anyio; a host name too long for
    IDNA a UnicodeError)."""
    if isinstance(exc, httpx.InvalidURL | httpx.UnsupportedProtocol | UnicodeError | OverflowError):
        return True
    return isinstance(exc, BaseExceptionGroup) and all(_is_url_fault(e) for e in exc.exceptions)


def retryable(failure: Exception | int, *, safe: bool) -> bool:
    """Whether a failed attempt (an httpx error or an HTTP status) may be tried again."""
    if isinstance(failure, int):
        return failure in (RETRY_STATUS_SAFE if safe else RETRY_STATUS_UNSENT)
    if isinstance(failure, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout):
        return True  # no request went out
    if not safe:
        return False
    return isinstance(failure, httpx.NetworkError | httpx.RemoteProtocolError)


def dropped_unanswered(failure: httpx.HTTPError) -> bool:
    """Whether a request failed because its connection broke before any answer came back (a reset, an end of
    stream, a write to a closed socket); not a timeout, which may mean the agent is still at work."""
    return isinstance(failure, httpx.ReadError | httpx.WriteError | httpx.RemoteProtocolError)


def gateway_error(url: str, status: int, attempts: int) -> SwitchboardError:
    """A transient HTTP status that did not go away within the retry bound."""
    tries = f" {attempts} times in a row" if attempts > 1 else ""
    return UnavailableError(
        f"{url} answered HTTP {status}{tries}: the agent is unavailable",
        hint="A gateway or the agent's server is overloaded or down; retry later, or check the agent's logs.",
        url=url,
    )


def refused_hint(basic: bool) -> str:
    """What to do about a 401/403: for an agent that takes HTTP Basic (its card, its agents-file entry or its
    challenge says so), the user and the password's variable; else the API key's or the token's."""
    if basic:
        return (
            "The agent wants an HTTP Basic user and password: check the user (--basic-user, or auth: {scheme: basic, "
            "user: USER, env: VAR} in the agents file) and the password in the variable --basic-password-env names."
        )
    return (
        "The agent wants credentials: name the variable holding them with --api-key-env or --bearer-env "
        "(`switchboard card get` shows the agent's security schemes)."
    )


def basic_challenge(header: str | None) -> bool:
    """Whether a WWW-Authenticate header asks for HTTP Basic."""
    return header is not None and header.lstrip().lower().startswith("basic")


def http_status_error(url: str, status: int, body: str, *, basic: bool = False) -> SwitchboardError:
    """An HTTP failure status as an error. `body` must already be redacted: agents echo credentials. `basic`: the
    agent takes HTTP Basic (the hint of a refusal names its flags)."""
    snippet = body.strip().replace("\n", " ")[:200]
    if status in (401, 403):
        return AuthFailedError(
            f"{url} refused the request with HTTP {status}" + (f": {snippet}" if snippet else ""),
            hint=refused_hint(basic),
            url=url,
        )
    return InvalidResponseError(
        f"{url} answered HTTP {status}" + (f": {snippet}" if snippet else ""),
        hint="Check the URL; run with --verbose to see the exchange.",
        url=url,
    )


def parse_json(url: str, text: str, content_type: str | None = None) -> Any:
    """The JSON in an answer, or an InvalidResponseError (also for nesting or numbers too big to read). With the
    answer's `content_type`, an answer that is not JSON says what it is (a web page is the usual one)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise InvalidResponseError(
            f"{url} answered with JSON nested too deeply to read",
            hint="The agent sent a malformed answer; run with --verbose to see it.",
            url=url,
        ) from None
    except ValueError as exc:
        # json.JSONDecodeError says where; a ValueError (an integer of thousands of digits) says what.
        reason = f"{exc.msg} at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else str(exc)[:100]
        kind = (content_type or "").split(";")[0].strip().lower()
        if kind and "json" not in kind:
            page = "a web page" if kind in ("text/html", "application/xhtml+xml") else "content"
            raise InvalidResponseError(
                f"{url} answered with {page} ({strip_controls(kind)[:60]}), not JSON",
                hint="The URL points at something other than an A2A agent: give the agent's base URL or the URL of "
                "its card; run with --verbose to see the answer.",
                url=url,
            ) from None
        raise InvalidResponseError(
            f"{url} did not answer with JSON ({reason})",
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
    retry: RetryPolicy | None = None,
    safe: bool = True,
    on_retry: Callable[[str], None] | None = None,
) -> httpx.Response:
    """Send one request and read the whole body, recording both ends on the tap.

    With `retry`, transient failures (see `retryable`) are tried again with backoff, each attempt reported
    to `on_retry`; a transient status still there at the bound raises. Without it, one attempt, any status.
    """
    response, _ = await open_response(
        http,
        method,
        url,
        tap=tap,
        headers=headers,
        params=params,
        content=content,
        retry=retry,
        safe=safe,
        on_retry=on_retry,
        stream=False,
    )
    return response


async def open_response(
    http: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    tap: Tap | None,
    headers: dict[str, str] | None = None,
    params: dict[str, str] | None = None,
    content: bytes | None = None,
    retry: RetryPolicy | None = None,
    safe: bool = True,
    on_retry: Callable[[str], None] | None = None,
    stream: bool = False,
    timeout: httpx.Timeout | float | None = None,
    auth: httpx.Auth | None = None,
) -> tuple[httpx.Response, int]:
    """The retry loop behind `tapped_request`; with `stream` the body is left unread and the tap exchange
    open: the caller reads the body, closes the response and calls `tap.done(exchange)`. `auth` (an OAuth
    bearer) sets its header as the request leaves, so the tap shows it by name only."""
    policy = retry or NO_RETRY
    attempt = 0
    resent = False  # the one free try on a new connection after a dropped pooled one (see dropped_unanswered)
    while True:
        attempt += 1
        try:
            request = http.build_request(
                method,
                url,
                headers=headers,
                params=params,
                content=content,
                timeout=httpx.USE_CLIENT_DEFAULT if timeout is None else timeout,
            )
        except httpx.InvalidURL as exc:
            raise url_error(url, exc) from None
        except UnicodeEncodeError:  # never quote the value: it may be a credential
            raise UsageError(
                f"cannot send a request to {url}: a header value has a character HTTP headers cannot carry",
                hint="Header values are ASCII: check --svc-param, the agents file's headers and the variables "
                "holding credentials.",
                url=url,
            ) from None
        recorded = header_pairs(request.headers) + ([("Authorization", "Bearer [redacted]")] if auth else [])
        exchange = tap.request(method, str(request.url), recorded, content) if tap else 0
        headed = False  # the status line and headers came back
        try:
            # Sent streaming, so that a failure before the answer's head can be told from one in its body.
            response = await http.send(request, stream=True, auth=auth)
            headed = True
            if not stream:
                try:
                    await response.aread()
                finally:
                    await response.aclose()
        except (httpx.HTTPError, UnicodeError, OverflowError, BaseExceptionGroup) as exc:
            if tap:
                tap.error(exchange, f"{type(exc).__name__}: {exc}")
                tap.done(exchange)
            if _is_url_fault(exc):
                raise url_error(url, exc) from None
            if not isinstance(exc, httpx.HTTPError):
                raise
            error = network_error(url, exc)
            if safe and not resent and not headed and dropped_unanswered(exc):
                # A kept-alive connection the agent had closed (after a 500, say): httpx dropped it from its
                # pool, so the read goes again at once on another connection, whatever the retry policy.
                resent, attempt = True, attempt - 1
                if on_retry:
                    on_retry(f"{error.message}; the connection was closed before any answer: sent again")
                continue
            if attempt < policy.attempts and retryable(exc, safe=safe):
                await _pause(policy, attempt, error.message, on_retry)
                continue
            if attempt > 1:
                error.message += f" (after {attempt} attempts)"
                error.args = (error.message,)
            raise error from None
        except BaseException:
            if tap:
                tap.done(exchange)  # the caller was cancelled mid-request
            raise
        status = response.status_code
        if retry is not None and retryable(status, safe=safe):
            if stream:
                await response.aread()
                await response.aclose()
            if tap:
                tap.response(exchange, status, header_pairs(response.headers), response.content)
                tap.done(exchange)
            if attempt < policy.attempts:
                await _pause(policy, attempt, f"{url} answered HTTP {status}", on_retry)
                continue
            raise gateway_error(url, status, attempt)
        if tap and not stream:
            tap.response(exchange, status, header_pairs(response.headers), response.content)
            tap.done(exchange)
        return response, exchange


async def _pause(policy: RetryPolicy, attempt: int, why: str, on_retry: Callable[[str], None] | None) -> None:
    delay = policy.delay(attempt)
    if on_retry:
        on_retry(f"{why}; retrying in {delay:.2f} s (attempt {attempt + 1} of {policy.attempts})")
    await asyncio.sleep(delay)
