"""Where an OAuth flow's requests go: the endpoints of the card's flow, or those of the issuer's OpenID Connect
discovery document (OIDC Discovery 1.0, read once per process), each checked before any secret is sent there:
https (http on loopback only), and on the person's pinned issuer when there is one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from ....safe_text import strip_controls
from ...errors import AuthFailedError, UsageError
from ...origin import origin_of
from ...user_input import is_loopback
from .errors import unreachable
from .trace import tap_hooks

if TYPE_CHECKING:
    from .client import OAuthClient

Hooks = Mapping[str, list[Callable[..., Awaitable[None]]]]  # httpx event hooks (oauth_trace.tap_hooks)
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
    revocation_url: str | None = None  # RFC 7009, from the discovery document (None: not named there)


def check_endpoint(url: str | None, what: str, issuer: str | None = None) -> str:
    """An endpoint secrets go to: https, or http on loopback only (a test or local issuer); with `issuer` (the
    person's oauth.issuer), on that origin only, whatever the card says."""
    try:  # an issuer's document may name anything here: a number, an object, a URL urlsplit refuses
        parts = urlsplit(url) if isinstance(url, str) else None
        secure = parts is not None and (
            parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname or ""))
        )
    except ValueError:
        secure = False
    if not isinstance(url, str) or not secure:
        raise AuthFailedError(
            f"the {what} {strip_controls(str(url))[:200]!r} is not an https URL; no credentials are sent to it",
            hint="The agent's card names its OAuth endpoints; ask its operator to serve them over https.",
        )
    if issuer and origin_of(url) != origin_of(issuer):
        raise AuthFailedError(
            f"the card names the {what} {strip_controls(str(url))[:200]!r}, not on the issuer {issuer} the agents "
            "file trusts; no credentials are sent to it",
            hint="If the agent moved to another identity provider, change oauth.issuer in the agents file.",
        )
    return url


async def discover(url: str, client: OAuthClient, *, hooks: Hooks | None = None) -> Endpoints:
    """The flow and endpoints from the issuer's discovery document (read once per process), checked."""
    check_endpoint(url, "OpenID Connect discovery URL", client.issuer)
    config = await _document(
        url,
        client,
        "OpenID Connect discovery",
        "The card's openIdConnectUrl should point at the issuer's .well-known/openid-configuration.",
        hooks,
    )
    issuer = str(config.get("issuer", ""))
    # OpenID Connect Discovery 4.3: the document must belong to the issuer it was fetched from.
    if url.rstrip("/") != issuer.rstrip("/") + DISCOVERY_SUFFIX:
        raise AuthFailedError(
            f"the discovery document at {url} names another issuer ({strip_controls(issuer)[:100]!r})",
            hint="The card's openIdConnectUrl must be the issuer's own discovery URL.",
            url=url,
        )
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
        authorization_url=_url(config, "authorization_endpoint"),
        device_url=_url(config, "device_authorization_endpoint"),
        issuer=issuer,
        revocation_url=_url(config, "revocation_endpoint"),
    )


def _url(config: dict[str, Any], key: str) -> str | None:
    """An endpoint the document names, as text (each is checked where it is used); anything else is none."""
    value = config.get(key)
    return value if isinstance(value, str) else None


async def _document(url: str, client: OAuthClient, what: str, hint: str, hooks: Hooks | None) -> dict[str, Any]:
    """An issuer's metadata document (JSON object), read once per process."""
    config = _DISCOVERED.get(url)
    if config is None:
        try:
            hooked = dict(hooks or tap_hooks(None))
            async with httpx.AsyncClient(timeout=client.timeout, follow_redirects=False, event_hooks=hooked) as http:
                response = await http.get(url, headers={"Accept": "application/json"})
            config = response.json() if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError, RecursionError) as exc:  # RecursionError: JSON nested past any use
            raise unreachable(what, url, exc) from None
        if not isinstance(config, dict):
            raise AuthFailedError(
                f"the {what} document at {url} could not be read (HTTP {response.status_code})", hint=hint, url=url
            )
        _DISCOVERED[url] = config
    return config


async def revocation_endpoint(
    metadata_url: str | None, ends: Endpoints, client: OAuthClient, *, hooks: Hooks | None = None
) -> tuple[str | None, str]:
    """The issuer's RFC 7009 revocation endpoint, or None and why there is none. An OpenID Connect issuer names it
    in its discovery document; an OAuth2 scheme in the RFC 8414 metadata at the card's oauth2MetadataUrl. Tokens
    and the client secret go there, so it must be on the token endpoint's origin (and https, or loopback http)."""
    url = ends.revocation_url
    if url is None and metadata_url:
        check_endpoint(metadata_url, "authorization server metadata URL", client.issuer)
        hint = "The card's oauth2MetadataUrl should point at the issuer's RFC 8414 metadata."
        document = await _document(metadata_url, client, "authorization server metadata", hint, hooks)
        found = document.get("revocation_endpoint")
        url = found if isinstance(found, str) else None
    if not url:
        where = "its discovery document" if ends.issuer else "the card (no oauth2MetadataUrl, or none in it)"
        return None, f"the issuer names no revocation endpoint (RFC 7009) in {where}"
    if origin_of(url) != origin_of(ends.token_url):
        return None, f"the revocation endpoint {strip_controls(url)[:200]} is not on the token endpoint's origin"
    return check_endpoint(url, "revocation endpoint", client.issuer), ""
