"""sso: an agent behind OAuth. Its card declares the device code and authorization code (PKCE) flows of the demo's
identity provider (identity.py); every call but the card's needs a bearer JWT from it, checked against its keys
(issuer, audience: this agent's URL, expiry, scope). switchboard signs in from what the card says: the TUI shows a
code to enter at the provider's page, where any user name and password will do."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from .base import ASGIApp, DemoAgent, DemoSettings, ServedApp
from .sdk import DemoExecutor, Turn, a2a_app, agent_card, skill, text

DESCRIPTION = "Behind OAuth: switchboard signs in at the demo's identity provider (a device code) before talking."
SCOPE = "a2a:send"
CLIENT_ID = "switchboard-cli"  # the provider's public client: device code, authorization code with PKCE, refresh


class SsoExecutor(DemoExecutor):
    async def run(self, turn: Turn) -> None:
        await turn.reply(text(f"signed in and heard: {turn.text or '(no text)'}"))


def _jose() -> Any:
    """authlib.jose, imported without its deprecation warning (it names the importer, this module, so a test run
    that treats our warnings as errors would turn the demo's token check into an HTTP 500)."""
    import warnings

    with warnings.catch_warnings():
        import authlib.deprecate  # adds an "always" filter when imported: first, then the "ignore"

        warnings.simplefilter("ignore")
        import authlib.jose
        import authlib.jose.errors

    return authlib.jose


class TokenGate:
    """ASGI wrapper: a 401 with a Bearer challenge unless the request carries a valid token for this agent."""

    def __init__(self, app: ASGIApp, *, url: str, issuer: str) -> None:
        self.app, self.url, self.issuer = app, url, issuer
        self.keys: Any = None

    async def _keys(self) -> Any:
        if self.keys is None:
            JsonWebKey = _jose().JsonWebKey

            async with httpx.AsyncClient(timeout=5) as http:
                config = (await http.get(f"{self.issuer}/.well-known/openid-configuration")).json()
                self.keys = JsonWebKey.import_key_set((await http.get(config["jwks_uri"])).json())
        return self.keys

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable[..., Awaitable[None]]) -> None:
        if scope["type"] != "http" or (scope["method"] == "GET" and scope["path"].startswith("/.well-known/")):
            await self.app(scope, receive, send)
            return
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        status, error, why = await self._check(header)
        if status == 200:
            await self.app(scope, receive, send)
            return
        challenge = f'Bearer realm="{self.url}"' + (f', error="{error}", error_description="{why}"' if error else "")
        body = json.dumps({"error": error or "unauthorized", "error_description": why}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if status == 401:
            headers.append((b"www-authenticate", challenge.encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _check(self, header: str) -> tuple[int, str | None, str]:
        jose = _jose()
        JsonWebToken, JoseError = jose.JsonWebToken, jose.errors.JoseError

        kind, _, token = header.partition(" ")
        if kind.lower() != "bearer" or not token:
            return 401, None, "a bearer token is required"
        try:
            keys = await self._keys()
        except (httpx.HTTPError, ValueError, KeyError):
            return 503, "temporarily_unavailable", "the demo identity provider is still starting; try again"
        try:
            claims = JsonWebToken(["RS256"]).decode(
                token,
                keys,
                claims_options={
                    "iss": {"essential": True, "value": self.issuer},
                    "aud": {"essential": True, "value": self.url},
                    "exp": {"essential": True},
                },
            )
            claims.validate(leeway=0)
        except (JoseError, ValueError) as exc:
            return 401, "invalid_token", str(exc).replace('"', "'")
        if SCOPE not in str(claims.get("scope", "")).split():
            return 403, "insufficient_scope", f"the token lacks the scope {SCOPE}"
        return 200, None, ""


def build(url: str, settings: DemoSettings) -> ServedApp:
    from a2a.types import a2a_pb2 as pb

    issuer = settings.issuer or ""
    card = agent_card(
        name="SSO",
        description=DESCRIPTION + " The sign-in page takes any user name and password (it is a demo provider).",
        url=url,
        versions=("1.0",),  # v0.3 has no device code flow: its compat card would show the scheme without one
        skills=[
            skill(
                "hello",
                "Hello behind a sign-in",
                "Say anything. The first time, switchboard shows a code: open the address, enter the code, sign in "
                "with any name, approve; then the agent answers.",
                ["hello from behind the sign-in"],
                ["oauth", "device-code", "getting-started"],
            )
        ],
    )
    flows = pb.OAuthFlows(
        device_code=pb.DeviceCodeOAuthFlow(
            device_authorization_url=f"{issuer}/device/auth",
            token_url=f"{issuer}/token",
            refresh_url=f"{issuer}/token",
            scopes={SCOPE: "talk to the agent"},
        )
    )
    metadata = f"{issuer}/.well-known/openid-configuration"  # where auth logout finds the revocation endpoint
    scheme = pb.OAuth2SecurityScheme(flows=flows, oauth2_metadata_url=metadata)
    card.security_schemes["demo-sso"].CopyFrom(pb.SecurityScheme(oauth2_security_scheme=scheme))
    card.security_requirements.append(pb.SecurityRequirement(schemes={"demo-sso": pb.StringList(list=[SCOPE])}))
    served = a2a_app(card, SsoExecutor())
    served.app = TokenGate(served.app, url=url, issuer=issuer)
    return served


AGENT = DemoAgent("sso", DESCRIPTION, build, oauth={"clientId": CLIENT_ID, "flow": "deviceCode"})
