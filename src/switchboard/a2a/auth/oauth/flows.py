"""The two flows that need the person: device code (RFC 8628) and authorization code with PKCE over a loopback
redirect (RFC 8252). Each shows the person what to do through the source's Interaction and returns the token
response; a refusal comes back as the issuer's GrantError, a wait that runs out as an AuthFailedError."""

from __future__ import annotations

import asyncio
import contextlib
import html
import webbrowser
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from ...errors import AuthFailedError, CredentialsMissingError
from .types import DevicePrompt, Interaction

if TYPE_CHECKING:
    from .client import TokenSource

AUTHORIZATION_WAIT = 300.0  # seconds the loopback listener waits for the person to sign in

DEFAULT_INTERVAL = 5  # RFC 8628 section 3.2: when the issuer names none
SLOW_DOWN_STEP = 5  # RFC 8628 section 3.5: each slow_down adds this many seconds
DEFAULT_EXPIRY = 600  # seconds a device code lives when the issuer names no lifetime
# The issuer's numbers are bounds on our waits: one poll a minute at the slowest, a person an hour at the longest.
MAX_INTERVAL = 60
MAX_EXPIRY = 3600


def _seconds(value: Any, default: int, most: int) -> int:
    """A number of seconds the issuer sent (RFC 8628: a JSON number), from 1 to `most`; else `default`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < float("inf"):
        return default
    return max(1, min(int(value), most))


def _interaction(source: TokenSource) -> Interaction:
    if source.client.interaction is None:
        raise CredentialsMissingError(
            "signing in to this agent needs a person (a device code or a browser), and none is at hand here",
            hint="Run switchboard auth login AGENT --remember first, or use a client secret (clientCredentials).",
        )
    return source.client.interaction


async def device_flow(source: TokenSource, token_url: str, device_url: str) -> dict[str, Any]:
    """Ask for a device code, show the person where to enter the user code, poll until they have."""
    from . import grants as oauth_grants

    interaction = _interaction(source)
    client = source.client
    start = await oauth_grants.device_authorization(
        device_url,
        client.client_id,
        client.client_secret,
        scope=source.person_scope(),
        resource=source.resource,
        timeout=client.timeout,
        hooks=source.hooks,
    )
    device_code, user_code, uri = start.get("device_code"), start.get("user_code"), start.get("verification_uri")
    codes = (device_code, user_code, uri)
    if not (isinstance(device_code, str) and isinstance(user_code, str) and isinstance(uri, str) and all(codes)):
        raise AuthFailedError(f"the device authorization endpoint {device_url} answered without a code", url=device_url)
    source.redactor.add(device_code)  # it redeems for a token, like a password
    expires_in = _seconds(start.get("expires_in"), DEFAULT_EXPIRY, MAX_EXPIRY)
    complete = start.get("verification_uri_complete")
    interaction.device_code(DevicePrompt(uri, user_code, complete if isinstance(complete, str) else None, expires_in))
    interval = _seconds(start.get("interval"), DEFAULT_INTERVAL, MAX_INTERVAL)
    remaining = float(expires_in)  # counted in the waits the issuer asked for: what the code's lifetime is made of
    try:
        while True:
            # The issuer's pace, not a guess: polling faster earns slow_down, then refusals.
            await asyncio.sleep(interval)
            remaining -= interval
            try:
                return await oauth_grants.device_token(
                    token_url,
                    client.client_id,
                    client.client_secret,
                    device_code,
                    timeout=client.timeout,
                    hooks=source.hooks,
                )
            except oauth_grants.GrantError as exc:
                if exc.error == "slow_down":
                    interval = min(interval + SLOW_DOWN_STEP, MAX_INTERVAL)
                elif exc.error != "authorization_pending":
                    raise
            if remaining <= 0:
                raise oauth_grants.GrantError("expired_token", None)
    finally:
        interaction.done()


class _Callback:
    """A one-shot HTTP listener on 127.0.0.1 for the redirect that carries the authorization code."""

    def __init__(self) -> None:
        self.result: asyncio.Future[dict[str, str]] = asyncio.get_running_loop().create_future()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/callback"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            target = request.split(b"\r\n", 1)[0].split(b" ")
            parts = urlsplit(target[1].decode("latin-1") if len(target) > 1 else "/")
            if parts.path != "/callback" or self.result.done():
                status, text = "404 Not Found", "Nothing here."
            else:
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                self.result.set_result(query)
                ok = "code" in query
                status = "200 OK"
                text = "Signed in. You can close this window." if ok else "Sign-in did not finish."
            body = f"<!doctype html><title>switchboard</title><p>{html.escape(text)}</p>".encode()
            head = f"HTTP/1.1 {status}\r\nContent-Type: text/html\r\nContent-Length: {len(body)}\r\n"
            writer.write(head.encode() + b"Connection: close\r\n\r\n" + body)
            await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()

    async def aclose(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await self.server.wait_closed()


def _open_browser(url: str) -> None:
    with contextlib.suppress(webbrowser.Error, OSError):
        webbrowser.open(url, new=1)


async def authorization_code_flow(source: TokenSource, token_url: str, authorize_url: str) -> dict[str, Any]:
    """Send the person to the issuer (URL always shown, browser opened when allowed), wait on 127.0.0.1 for the
    redirect, check its state, redeem the code with the PKCE verifier."""
    from . import grants as oauth_grants

    interaction = _interaction(source)
    client = source.client
    callback = _Callback()
    redirect_uri = await callback.start()
    try:
        url, state, verifier = oauth_grants.authorization_url(
            authorize_url, client.client_id, redirect_uri, scope=source.person_scope(), resource=source.resource
        )
        interaction.authorization_url(url)
        if interaction.open_browser:
            await asyncio.to_thread(_open_browser, url)
        try:
            query = await asyncio.wait_for(callback.result, AUTHORIZATION_WAIT)
        except TimeoutError:
            raise AuthFailedError(
                f"no sign-in arrived at {redirect_uri} within {AUTHORIZATION_WAIT:.0f} s",
                hint="Open the printed URL in a browser on this machine and sign in, then run the command again.",
            ) from None
    finally:
        await callback.aclose()
        interaction.done()
    if query.get("state") != state:
        raise AuthFailedError(
            "the sign-in redirect carried another state than the one sent (a stale or forged redirect)",
            hint="Run the command again and finish the sign-in in the browser it opens.",
        )
    if "error" in query or "code" not in query:
        raise oauth_grants.GrantError(query.get("error", "invalid_request"), query.get("error_description"))
    source.redactor.add(query["code"])
    return await oauth_grants.authorization_code(
        token_url,
        client.client_id,
        client.client_secret,
        code=query["code"],
        verifier=verifier,
        redirect_uri=redirect_uri,
        resource=source.resource,
        timeout=client.timeout,
        hooks=source.hooks,
    )
