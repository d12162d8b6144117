"""Where an OAuth flow's requests go: the endpoints of the card's flow, or those of the issuer's OpenID Connect
discovery document (OIDC Discovery 1.0, read once per process), each checked before any secret is sent there:
https (http on loopback only), and on the person's pinned issuer when there is one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from ..safe_text import strip_controls
from .errors import AuthFailedError, UsageError
from .oauth_errors import unreachable
from .user_input import is_loopback

if TYPE_CHECKING:
    from .oauth import OAuthClient

DISCOVERY_SUFFIX = "/.well-known/openid-configuration"
# Discovery documents read in this process, by URL: a link per conversation need not read them again.
_DISCOVERED: dict[str, dict[str, Any]] = {}


@dataclass
class Endpoints:
    flow: str
    token_url: str
    authorization_url: str | None = None
    device_url: str | None = None
    issuer: str | None = None


def check_endpoint(url: str | None, what: str, issuer: str | None = None) -> str:
    """An endpoint secrets go to: https, or http on loopback only (a test or local issuer); with `issuer` (the
    person's oauth.issuer), on that origin only, whatever the card says."""
    from .auth import origin_of

    parts = urlsplit(url or "")
    if url is None or not (parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname or ""))):
        raise AuthFailedError(
            f"the {what} {strip_controls(str(url))[:200]!r} is not an https URL; no credentials are sent to it",
            hint="The agent's card names its OAuth endpoints; ask its operator to serve them over https.",
        )
    if issuer and origin_of(url or "") != origin_of(issuer):
        raise AuthFailedError(
            f"the card names the {what} {strip_controls(str(url))[:200]!r}, not on the issuer {issuer} the agents "
            "file trusts; no credentials are sent to it",
            hint="If the agent moved to another identity provider, change oauth.issuer in the agents file.",
        )
    return url


async def discover(url: str, client: OAuthClient) -> Endpoints:
    """The flow and endpoints from the issuer's discovery document (read once per process), checked."""
    check_endpoint(url, "OpenID Connect discovery URL", client.issuer)
    config = _DISCOVERED.get(url)
    if config is None:
        try:
            async with httpx.AsyncClient(timeout=client.timeout, follow_redirects=False) as http:
                response = await http.get(url, headers={"Accept": "application/json"})
            config = response.json() if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError) as exc:
            raise unreachable("OpenID Connect discovery", url, exc) from None
        if not isinstance(config, dict):
            raise AuthFailedError(
                f"the OpenID Connect discovery document at {url} could not be read (HTTP {response.status_code})",
                hint="The card's openIdConnectUrl should point at the issuer's .well-known/openid-configuration.",
                url=url,
            )
    issuer = str(config.get("issuer", ""))
    # OpenID Connect Discovery 4.3: the document must belong to the issuer it was fetched from.
    if url.rstrip("/") != issuer.rstrip("/") + DISCOVERY_SUFFIX:
        raise AuthFailedError(
            f"the discovery document at {url} names another issuer ({strip_controls(issuer)[:100]!r})",
            hint="The card's openIdConnectUrl must be the issuer's own discovery URL.",
            url=url,
        )
    _DISCOVERED[url] = config
    offered = [
        flow
        for flow, key in (
            ("clientCredentials", "token_endpoint"),
            ("authorizationCode", "authorization_endpoint"),
            ("deviceCode", "device_authorization_endpoint"),
        )
        if config.get(key)
    ]
    flow = client.flow_for(offered)
    if flow is None:
        raise UsageError(
            f"the issuer {issuer} offers none of the flows this client can run ({', '.join(offered)})",
            hint="Set oauth.flow in the agents file (or --oauth-flow), or give a client secret.",
        )
    return Endpoints(
        flow,
        check_endpoint(config.get("token_endpoint"), "token endpoint", client.issuer),
        authorization_url=config.get("authorization_endpoint"),
        device_url=config.get("device_authorization_endpoint"),
        issuer=issuer,
    )
