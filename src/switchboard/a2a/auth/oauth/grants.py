"""Token endpoint requests, through authlib: the only module that imports it (its httpx integration is marked
deprecated, so the version is pinned and everything it does for us stays behind these few functions).

Each function posts one grant and returns the token response as a dict, or raises: an OAuth error answer as
GrantError (its `error` code kept, so the device flow can tell `authorization_pending` from a refusal), a network
failure as the httpx error it is. Callers own the redaction of what comes back.
"""

from __future__ import annotations

import json
import sys
import types
import warnings
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from .trace import AnswerTooLarge, tap_hooks


def _authlib_on_httpx() -> None:
    """authlib's httpx integration runs on httpx2 whenever httpx2 is installed (the `mcp` extra brings it), and
    on httpx otherwise: two stacks with two sets of exceptions, transports and hooks. Its choice is made in one
    small module, `_compat`; putting ours in its place first keeps the token requests on the httpx every other
    request of ours uses, whatever else is installed (tests/unit/a2a/auth/test_grants_on_httpx.py)."""
    name = "authlib.integrations.httpx_client._compat"
    if name not in sys.modules:
        compat = types.ModuleType(name, "authlib's httpx choice, made by switchboard: httpx")
        compat.httpx2 = httpx  # type: ignore[attr-defined]
        compat.__all__ = ["httpx2"]  # type: ignore[attr-defined]
        sys.modules[name] = compat


_authlib_on_httpx()
with warnings.catch_warnings():
    # Its deprecate module adds an "always" filter when imported, so it goes first and the "ignore" after.
    import authlib.deprecate  # noqa: F401

    warnings.simplefilter("ignore")
    from authlib.common.security import generate_token
    from authlib.integrations.base_client.errors import OAuthError
    from authlib.integrations.httpx_client import AsyncOAuth2Client

if not issubclass(AsyncOAuth2Client, httpx.AsyncClient):  # authlib was imported on httpx2 before this module
    raise ImportError("authlib's OAuth client was loaded on httpx2; import switchboard's OAuth first")

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
Hooks = Mapping[str, list[Callable[..., Awaitable[None]]]]  # httpx event hooks (oauth_trace.tap_hooks)


class GrantError(Exception):
    """The token endpoint answered with an OAuth error (RFC 6749 section 5.2)."""

    def __init__(self, error: Any, description: Any) -> None:
        # Both come from the issuer's JSON as it sent them: a code or a description that is not a string (a list,
        # an object) is taken for what it is, not passed on to code that reads text.
        error = error if isinstance(error, str) and error else "error" if not error else json.dumps(error)[:100]
        super().__init__(error)
        self.error: str = error
        self.description: str | None = description if isinstance(description, str) else None


def _client(
    client_id: str, client_secret: str | None, timeout: float, hooks: Hooks | None, **kwargs: Any
) -> AsyncOAuth2Client:
    # A confidential client authenticates with HTTP Basic; a public one sends only its id in the body.
    method = "client_secret_basic" if client_secret else "none"
    return AsyncOAuth2Client(
        client_id=client_id,
        client_secret=client_secret,
        token_endpoint_auth_method=method,
        timeout=timeout,
        follow_redirects=False,
        event_hooks=dict(hooks or tap_hooks(None)),  # answers read bounded; traced under --verbose (oauth_trace)
        **kwargs,
    )


async def _fetch(
    client: AsyncOAuth2Client, call: Callable[..., Awaitable[Mapping[str, Any]]], *args: Any, **kwargs: Any
) -> dict[str, Any]:
    async with client:
        try:
            token = await call(client, *args, **kwargs)
        except OAuthError as exc:
            raise GrantError(exc.error or "error", exc.description) from None
        except httpx.HTTPStatusError as exc:
            raise GrantError("http_error", f"HTTP {exc.response.status_code}") from None
        except (ValueError, TypeError, OverflowError, RecursionError, AttributeError):
            # authlib reads the answer itself and trusts its shape: JSON nested past the parser, an expires_in that
            # is a list or NaN, a body that is not an object all fail inside it, as this.
            raise GrantError("invalid_response", "the token endpoint's answer is not a token response") from None
    return dict(token)


def _params(resource: str | None, scope: str | None, **extra: Any) -> dict[str, Any]:
    params = {k: v for k, v in extra.items() if v is not None}
    if resource:
        params["resource"] = resource  # RFC 8707: the token is minted for this agent only
    if scope:
        params["scope"] = scope
    return params


async def client_credentials(
    token_url: str,
    client_id: str,
    client_secret: str,
    *,
    scope: str | None,
    resource: str | None,
    timeout: float,
    hooks: Hooks | None = None,
) -> dict[str, Any]:
    client = _client(client_id, client_secret, timeout, hooks)
    params = _params(resource, scope)
    return await _fetch(client, AsyncOAuth2Client.fetch_token, token_url, grant_type="client_credentials", **params)


async def refresh(
    token_url: str,
    client_id: str,
    client_secret: str | None,
    refresh_token: str,
    *,
    resource: str | None,
    timeout: float,
    hooks: Hooks | None = None,
) -> dict[str, Any]:
    client = _client(client_id, client_secret, timeout, hooks)
    params = _params(resource, None)
    return await _fetch(client, AsyncOAuth2Client.refresh_token, token_url, refresh_token=refresh_token, **params)


def authorization_url(
    authorize_url: str, client_id: str, redirect_uri: str, *, scope: str | None, resource: str | None
) -> tuple[str, str, str]:
    """The URL to send the person to, its `state` and the PKCE code verifier (S256) to redeem the code with.
    `prompt=consent` because a provider grants a refresh token (offline_access) only with it."""
    verifier = generate_token(64)
    client = AsyncOAuth2Client(client_id=client_id, code_challenge_method="S256", redirect_uri=redirect_uri)
    url, state = client.create_authorization_url(
        authorize_url, code_verifier=verifier, **_params(resource, scope, prompt="consent")
    )
    return url, state, verifier


async def authorization_code(
    token_url: str,
    client_id: str,
    client_secret: str | None,
    *,
    code: str,
    verifier: str,
    redirect_uri: str,
    resource: str | None,
    timeout: float,
    hooks: Hooks | None = None,
) -> dict[str, Any]:
    client = _client(client_id, client_secret, timeout, hooks, redirect_uri=redirect_uri)
    params = _params(resource, None, code=code, code_verifier=verifier, redirect_uri=redirect_uri)
    return await _fetch(client, AsyncOAuth2Client.fetch_token, token_url, **params)


async def device_authorization(
    device_url: str,
    client_id: str,
    client_secret: str | None,
    *,
    scope: str | None,
    resource: str | None,
    timeout: float,
    hooks: Hooks | None = None,
) -> dict[str, Any]:
    """RFC 8628 section 3.1: the device code, the user code and where the person enters it. authlib has no
    client for this request; it is one form POST."""
    data = {"client_id": client_id, **_params(resource, scope)}
    # A confidential client authenticates with HTTP Basic; a public one sends only its id (in the form).
    auth = httpx.BasicAuth(client_id, client_secret) if client_secret else httpx.USE_CLIENT_DEFAULT
    hooked = dict(hooks or tap_hooks(None))
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, event_hooks=hooked) as http:
        try:
            response = await http.post(device_url, data=data, auth=auth)
        except AnswerTooLarge as exc:
            raise GrantError("invalid_response", str(exc)) from None
    try:
        body = response.json()
    except (ValueError, RecursionError):  # RecursionError: JSON nested past the parser's limit
        body = None
    if not isinstance(body, dict):
        raise GrantError("http_error", f"HTTP {response.status_code}, not JSON")
    if "error" in body or response.status_code >= 400:
        raise GrantError(str(body.get("error", "http_error")), body.get("error_description"))
    return body


async def device_token(
    token_url: str,
    client_id: str,
    client_secret: str | None,
    device_code: str,
    *,
    timeout: float,
    hooks: Hooks | None = None,
) -> dict[str, Any]:
    """One poll of the token endpoint for a device code (the loop and its pace are the caller's)."""
    client = _client(client_id, client_secret, timeout, hooks)
    return await _fetch(
        client, AsyncOAuth2Client.fetch_token, token_url, grant_type=DEVICE_GRANT, device_code=device_code
    )


async def revoke(
    revocation_url: str,
    client_id: str,
    client_secret: str | None,
    token: str,
    hint: str,
    *,
    timeout: float,
    hooks: Hooks | None = None,
) -> None:
    """RFC 7009: ask the issuer to revoke `token` (`hint`: access_token or refresh_token). A 200 means done (also
    for a token the issuer no longer knows); an error answer is a GrantError."""
    client = _client(client_id, client_secret, timeout, hooks)
    async with client:
        try:
            response = await client.revoke_token(revocation_url, token=token, token_type_hint=hint)
        except AnswerTooLarge as exc:
            raise GrantError("invalid_response", str(exc)) from None
    if response.status_code == 200:
        return
    try:
        body = response.json()
    except (ValueError, RecursionError):  # RecursionError: JSON nested past the parser's limit
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        raise GrantError(body["error"], body.get("error_description"))
    raise GrantError("http_error", f"HTTP {response.status_code}")
