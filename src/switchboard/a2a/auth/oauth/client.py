"""OAuth2 and OpenID Connect: access tokens obtained from what the card declares, kept fresh, sent as bearer.

The card names a scheme (OAuth2 flows with their endpoints, or an OpenID Connect discovery URL) and the scopes
its security requirement asks for; the person names the client (agents file `oauth:` or --client-id, the secret
in an environment variable). `OAuthBearer` is the httpx.Auth a transport sends with: it asks its `TokenSource`
for a token (cached, refreshed before expiry, else obtained by the flow), only for requests to the agent's own
origin, and renews once on a 401 when that needs no person. Token requests go to the issuer's endpoints only.
Every token and secret is registered with the redactor the moment it is known. Tokens live in memory for the
process; a `TokenStore` (token_store.py) keeps them across runs when the person asked for it (--remember).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from ....safe_text import strip_controls
from ...errors import AuthFailedError, UsageError
from ...origin import origin_of
from .endpoints import Endpoints, check_endpoint, discover
from .errors import grant_failed, unreachable
from .trace import tap_hooks
from .types import Interaction, TokenStore

if TYPE_CHECKING:
    from ...model import SecurityScheme
    from ...redact import Redactor
    from ...tap import Tap

FLOWS = ("clientCredentials", "authorizationCode", "deviceCode")
RENEW_MARGIN = 30.0  # seconds before expiry a token is renewed, so it never expires on the way
# Tokens of this process, shared by every link to the same agent and client (the TUI opens many).
_MEMORY: dict[str, dict[str, Any]] = {}


@dataclass(frozen=True)
class OAuthClient:
    """The person's OAuth settings for one agent. `client_secret` comes from the environment, never a file."""

    client_id: str
    client_secret: str | None = None
    client_secret_env: str | None = None  # for messages
    flow: str | None = None  # one of FLOWS; None: chosen from what the card offers and the secret
    resource: str | None = None  # RFC 8707 resource; None: the agent's URL
    send_resource: bool = True  # False: for providers that use `audience` and refuse `resource`
    scopes: tuple[str, ...] | None = None  # None: the card's requirement
    scheme: str | None = None  # the card's scheme to use; None: the first this client can satisfy
    issuer: str | None = None  # the only origin secrets and codes may go to; None: the card's endpoints (https)
    interaction: Interaction | None = None
    store: TokenStore | None = None  # remembered tokens are read from here, and rotated ones written back
    remember: bool = False  # also keep new tokens in `store` (auth login --remember)
    timeout: float = 30.0

    def __repr__(self) -> str:
        return f"OAuthClient(client_id={self.client_id!r}, secret={'set' if self.client_secret else None})"

    def flow_for(self, offered: list[str]) -> str | None:
        """The flow to run among those offered: the configured one, else client credentials with a secret,
        else the device code (works without a browser), else the authorization code."""
        if self.flow:
            return self.flow if self.flow in offered else None
        order = ("clientCredentials",) if self.client_secret else ("deviceCode", "authorizationCode")
        return next((flow for flow in order if flow in offered), None)


@dataclass
class Choice:
    """A scheme of the card this client can satisfy, and the scopes its requirement asks for."""

    scheme_name: str
    scheme: SecurityScheme
    scopes: list[str] = field(default_factory=list)

    def offered_flows(self) -> list[str]:
        return [name for name in FLOWS if isinstance((self.scheme.flows or {}).get(name), dict)]


def choose(name: str, scheme: SecurityScheme, scopes: list[str], client: OAuthClient) -> Choice | None:
    """`Choice` when `client` can satisfy the card's scheme `name` (None: try the next requirement)."""
    if client.scheme and client.scheme != name:
        return None
    if scheme.type == "openIdConnect":
        return Choice(name, scheme, scopes) if scheme.open_id_connect_url else None
    if scheme.type != "oauth2":
        return None
    choice = Choice(name, scheme, scopes)
    return choice if client.flow_for(choice.offered_flows()) else None


class TokenSource:
    """Access tokens for one agent, one client and one set of scopes: from memory, refreshed, or acquired."""

    def __init__(
        self,
        choice: Choice,
        client: OAuthClient,
        resource: str,
        redactor: Redactor,
        *,
        interactive: bool = True,
        tap: Tap | None = None,
    ) -> None:
        self.choice, self.client, self.redactor = choice, client, redactor
        # The issuer's requests go on the agent's wire tap (--verbose, the wire view), their secrets left out.
        self.hooks = tap_hooks(tap)
        self.resource = (client.resource or resource) if client.send_resource else None
        scopes = client.scopes if client.scopes is not None else choice.scopes
        self.scope = " ".join(scopes) or None
        self.interactive = interactive  # False: never start a flow that needs the person (auth status)
        self._endpoints: Endpoints | None = None
        self._from_store = False  # a remembered token: its successors are remembered too (refresh tokens rotate)
        self._lock = asyncio.Lock()
        self._person_signing_in = False  # a flow with the person runs (a call in the background does not wait)
        if client.client_secret:
            redactor.add(client.client_secret)

    # --- where the tokens come from ---------------------------------------------------------------

    async def endpoints(self) -> Endpoints:
        """The flow and its endpoints: from the card's flow, or from the issuer's discovery document."""
        if self._endpoints is None:
            scheme = self.choice.scheme
            if scheme.type == "openIdConnect":
                self._endpoints = await discover(scheme.open_id_connect_url or "", self.client, hooks=self.hooks)
            else:
                flow = self.client.flow_for(self.choice.offered_flows()) or ""
                info = scheme.flows[flow]  # type: ignore[index]  # set: the flow was chosen among them
                self._endpoints = Endpoints(
                    flow,
                    check_endpoint(info.get("tokenUrl"), "token endpoint", self.client.issuer),
                    authorization_url=info.get("authorizationUrl"),
                    device_url=info.get("deviceAuthorizationUrl"),
                )
        return self._endpoints

    def person_scope(self) -> str | None:
        """The scopes for a flow with the person: the card's, with offline_access (a refresh token, so the person
        signs in once, not at every expiry) and openid for an OpenID Connect scheme, unless scopes were given."""
        if self.client.scopes is not None:
            return self.scope
        extra = ["openid"] if self.choice.scheme.type == "openIdConnect" else []
        return " ".join([*extra, *(self.scope or "").split(), "offline_access"])

    async def key(self) -> str:
        """Names this source's tokens in memory and in the store: token endpoint, client, resource, scopes."""
        ends = await self.endpoints()
        return f"{ends.token_url} {self.client.client_id} {self.resource or '-'} {self.scope or '-'}"

    # --- the token -------------------------------------------------------------------------------

    async def cached(self) -> dict[str, Any] | None:
        """The token held for this source (memory, else the store), whatever its age; None when none."""
        key = await self.key()
        token = _MEMORY.get(key)
        if token is None and self.client.store is not None:
            token = self.client.store.load(key)
            if token is not None:
                _MEMORY[key] = token
                self._from_store = True
        if token is not None:
            self._register(token)
        return token

    async def token(self, *, renew: bool = False, interactive: bool = True) -> str:
        """A valid access token (renewed when it expires within RENEW_MARGIN seconds, or `renew`). `interactive`
        False (a call made in the background) or a source that is not (auth status): held or renewed silently
        (refresh token, client credentials), never by a flow with the person; AuthFailedError when it cannot be."""
        person = interactive and self.interactive
        if not person and self._person_signing_in:
            # Another call's sign-in waits for the person (minutes, holding the lock): this one does not wait.
            token = await self.cached()
            access = _access_token(token) if token else None
            if token and access and not _expiring(token) and not renew:
                return access
            raise AuthFailedError("a sign-in to the agent's issuer is under way", hint="Finish the sign-in first.")
        async with self._lock:
            token = await self.cached()
            access = _access_token(token) if token else None
            if token and access and not renew and not _expiring(token):
                return access
            needs_person = (await self.endpoints()).flow != "clientCredentials"
            if token and token.get("refresh_token"):
                try:
                    return await self._keep(await self._refresh(token))
                except AuthFailedError:
                    if needs_person and (not person or self.client.interaction is None):
                        raise  # the refresh token is dead and nobody is here to sign in: say so
                    # the refresh token is dead: sign in again below
            if needs_person and not person:
                login = "switchboard auth login AGENT (with --remember to keep the token across runs)"
                raise AuthFailedError(
                    f"not signed in to the agent's issuer as client {self.client.client_id!r}",
                    hint=f"Run {login}." if not self.interactive else f"Answer it to sign in, or run {login}.",
                )
            self._person_signing_in = needs_person
            try:
                return await self._keep(await self._acquire())
            finally:
                self._person_signing_in = False

    def widen(self, scopes: tuple[str, ...]) -> bool:
        """Ask for `scopes` besides those asked for so far (an agent wants more: auth-required, a 403
        insufficient_scope); the next sign-in asks for them all. Whether any was new."""
        held = (self.scope or "").split()
        wider = [*held, *(s for s in scopes if s not in held)]
        self.scope = " ".join(wider) or None
        return len(wider) > len(held)

    async def sign_in(self) -> dict[str, Any]:
        """Run the flow now, whatever is held (auth login), and keep the new token: its public facts."""
        async with self._lock:
            await self._keep(await self._acquire())
        return await self.facts()

    async def facts(self) -> dict[str, Any]:
        """What a person may see about the held token (auth status): never the token itself."""
        ends = await self.endpoints()
        token = await self.cached()
        facts: dict[str, Any] = {
            "scheme": self.choice.scheme_name,
            "flow": ends.flow,
            "clientId": self.client.client_id,
            "tokenEndpoint": ends.token_url,
            "resource": self.resource,
            "signedIn": bool(token),
        }
        if token:
            expires_at = token.get("expires_at")
            if isinstance(expires_at, int | float):
                facts["expiresIn"] = max(0, int(expires_at - time.time()))
            facts["scope"] = token.get("scope") or self.scope
            facts["refreshToken"] = bool(token.get("refresh_token"))
            facts["idToken"] = bool(token.get("id_token"))
        return facts

    def renews_silently(self) -> bool:
        """Whether a new token can come without the person: client credentials, or a refresh token."""
        token = _MEMORY.get(self._key_now() or "")
        return bool(self.client.client_secret or (token and token.get("refresh_token")))

    def _key_now(self) -> str | None:
        ends = self._endpoints
        return f"{ends.token_url} {self.client.client_id} {self.resource or '-'} {self.scope or '-'}" if ends else None

    async def revoke(self) -> dict[str, Any]:
        """Ask the issuer to revoke the held tokens (RFC 7009), refresh token first: it is the long-lived one, and
        revoking it ends its grant at most issuers. What happened, for the person: `revoked` (the kinds of token
        the issuer accepted to revoke), and `note` when not all could be (no endpoint, a refusal, no answer)."""
        from . import grants as oauth_grants
        from .endpoints import revocation_endpoint

        token = await self.cached()
        if not token:
            return {"revoked": [], "note": None}
        ends = await self.endpoints()
        try:
            url, why = await revocation_endpoint(
                self.choice.scheme.oauth2_metadata_url, ends, self.client, hooks=self.hooks
            )
        except AuthFailedError as exc:  # its metadata cannot be read: forgetting must still work
            url, why = None, exc.message
        if url is None:
            return {"revoked": [], "note": f"{why}: the token is forgotten here but stays valid until it expires"}
        revoked: list[str] = []
        for hint in ("refresh_token", "access_token"):
            if not isinstance(token.get(hint), str):
                continue
            try:
                await oauth_grants.revoke(
                    url,
                    self.client.client_id,
                    self.client.client_secret,
                    token[hint],
                    hint,
                    timeout=self.client.timeout,
                    hooks=self.hooks,
                )
            except oauth_grants.GrantError as exc:
                said = f" ({exc.description})" if exc.description else ""
                kind = hint.replace("_", " ")
                note = f"the issuer did not revoke the {kind}: {exc.error}{said}; it stays valid until it expires"
                return {"revoked": revoked, "note": strip_controls(note)[:300]}
            except httpx.HTTPError as exc:
                return {"revoked": revoked, "note": unreachable("revocation", url, exc).message}
            revoked.append(hint)
        return {"revoked": revoked, "note": None}

    async def forget(self) -> bool:
        """Drop the tokens held in memory and in the store; whether there were any."""
        key = await self.key()
        had = _MEMORY.pop(key, None) is not None
        if self.client.store is not None:
            had = self.client.store.delete(key) or had
        return had

    async def _keep(self, token: dict[str, Any]) -> str:
        self._register(token)
        if "expires_at" not in token and isinstance(token.get("expires_in"), int | float):
            token["expires_at"] = time.time() + token["expires_in"]
        key = await self.key()
        _MEMORY[key] = token
        if self.client.store is not None and (self.client.remember or self._from_store):
            self.client.store.save(key, token)
        access: str = token["access_token"]  # _grant made sure of it
        return access

    def _register(self, token: dict[str, Any]) -> None:
        for name in ("access_token", "refresh_token", "id_token"):
            if isinstance(token.get(name), str):
                self.redactor.add(token[name])

    async def _grant(self, call: Callable[[], Awaitable[dict[str, Any]]], flow: str, url: str) -> dict[str, Any]:
        from .grants import GrantError

        try:
            token = await call()
        except GrantError as exc:
            raise grant_failed(exc, self.client, flow, url) from None
        except httpx.HTTPError as exc:
            raise unreachable(f"{flow} token", url, exc) from None
        if not isinstance(token.get("access_token"), str) or not token["access_token"]:
            raise AuthFailedError(f"the issuer at {url} answered without an access token", url=url)
        for key in ("expires_in", "expires_at"):  # a lifetime that is no number of seconds is no lifetime
            value = token.get(key)
            if value is not None and not _seconds_like(value):
                del token[key]
        self._register(token)
        return token

    async def _refresh(self, token: dict[str, Any]) -> dict[str, Any]:
        from . import grants as oauth_grants

        ends, client = await self.endpoints(), self.client
        fresh = await self._grant(
            lambda: oauth_grants.refresh(
                ends.token_url,
                client.client_id,
                client.client_secret,
                token["refresh_token"],
                resource=self.resource,
                timeout=client.timeout,
                hooks=self.hooks,
            ),
            "refresh",
            ends.token_url,
        )
        fresh.setdefault("refresh_token", token["refresh_token"])  # a provider that does not rotate it
        return fresh

    async def _acquire(self) -> dict[str, Any]:
        from . import flows as oauth_flows
        from . import grants as oauth_grants

        ends, client = await self.endpoints(), self.client
        if ends.flow == "clientCredentials":
            if not client.client_secret:
                raise UsageError(
                    f"the client credentials flow needs a client secret for {client.client_id!r}",
                    hint="Name the variable holding it: oauth.clientSecretEnv in the agents file, or "
                    "--client-secret-env VAR.",
                )
            secret = client.client_secret
            return await self._grant(
                lambda: oauth_grants.client_credentials(
                    ends.token_url,
                    client.client_id,
                    secret,
                    scope=self.scope,
                    resource=self.resource,
                    timeout=client.timeout,
                    hooks=self.hooks,
                ),
                "clientCredentials",
                ends.token_url,
            )
        if ends.flow == "deviceCode":
            device_url = check_endpoint(ends.device_url, "device authorization endpoint", client.issuer)
            run = oauth_flows.device_flow(self, ends.token_url, device_url)
        else:
            authorize = check_endpoint(ends.authorization_url, "authorization endpoint", client.issuer)
            run = oauth_flows.authorization_code_flow(self, ends.token_url, authorize)
        return await self._grant(lambda: run, ends.flow, ends.token_url)


def _seconds_like(value: Any) -> bool:
    """A number a token's lifetime can be counted in: finite, and within the next few thousand years."""
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e11


def _access_token(token: dict[str, Any]) -> str | None:
    """The token's access token; None when a stored token has none that can be sent (it is obtained again)."""
    access = token.get("access_token")
    return access if isinstance(access, str) and access else None


def _expiring(token: dict[str, Any]) -> bool:
    expires_at = token.get("expires_at")
    return isinstance(expires_at, int | float) and expires_at - RENEW_MARGIN <= time.time()


class OAuthBearer(httpx.Auth):
    """Puts the source's access token on requests to the agent's origin, and renews it once on a 401 when no
    person is needed for that. Requests to any other origin go out without it."""

    requires_response_body = False

    def __init__(self, source: TokenSource, origin: str, *, interactive: bool = True) -> None:
        self.source = source
        self.origin = origin
        self.interactive = interactive  # False: a call in the background, never a sign-in with the person

    def without_person(self) -> OAuthBearer:
        """The same bearer for a call in the background: its token held or renewed silently, or the call fails."""
        return OAuthBearer(self.source, self.origin, interactive=False)

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        # the transports are async only
        raise RuntimeError("OAuthBearer works with httpx.AsyncClient only")

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        if origin_of(str(request.url)) != self.origin:
            yield request
            return
        request.headers["Authorization"] = f"Bearer {await self.source.token(interactive=self.interactive)}"
        response = yield request
        if response.status_code == 401 and self.source.renews_silently():
            token = await self.source.token(renew=True, interactive=self.interactive)
            request.headers["Authorization"] = f"Bearer {token}"
            yield request
