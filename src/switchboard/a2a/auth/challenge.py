"""What a refusal says: the `WWW-Authenticate` challenge of a 401 or 403 (RFC 6750 section 3: `error`,
`error_description`, `scope`; RFC 9728: `resource_metadata`, the protected-resource document naming the
authorization servers), turned into a message and a hint a person can act on."""

from __future__ import annotations

import re

import httpx

from ...safe_text import strip_controls
from ..errors import AuthFailedError
from ..origin import origin_of

_PARAM = re.compile(r'([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)')


def parse_challenge(header: str | None) -> dict[str, str]:
    """The Bearer challenge's parameters (lower-cased names, unquoted values); {} without one."""
    if not header:
        return {}
    at = re.search(r"(?i)\bbearer\b", header)
    if at is None:
        return {}
    params: dict[str, str] = {"scheme": "Bearer"}
    for name, value in _PARAM.findall(header[at.end() :]):
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        params.setdefault(name.lower(), strip_controls(value)[:500])
    return params


async def authorization_servers(metadata_url: str, agent_url: str, http: httpx.AsyncClient) -> list[str]:
    """The `authorization_servers` of the RFC 9728 document (read only from the agent's own origin, or https);
    [] when it cannot be read. It only feeds the hint, so no failure here is an error."""
    if not (metadata_url.startswith("https://") or origin_of(metadata_url) == origin_of(agent_url)):
        return []
    try:
        response = await http.get(metadata_url, headers={"Accept": "application/json"}, timeout=10)
        document = response.json()
    except (httpx.HTTPError, ValueError):
        return []
    servers = document.get("authorization_servers") if isinstance(document, dict) else None
    return [strip_controls(s)[:200] for s in servers if isinstance(s, str)][:5] if isinstance(servers, list) else []


async def explain(
    error: AuthFailedError, status: int, header: str | None, agent_url: str, http: httpx.AsyncClient, oauth: bool
) -> None:
    """Rewrite `error` (a 401/403 from the agent) from its challenge, in place."""
    params = parse_challenge(header)
    if not params:
        return
    code, said, scope = params.get("error", ""), params.get("error_description", ""), params.get("scope", "")
    servers: list[str] = []
    if params.get("resource_metadata"):
        servers = await authorization_servers(params["resource_metadata"], agent_url, http)
    detail = f" ({said})" if said else ""
    where = f" Its authorization server: {', '.join(servers)}." if servers else ""
    if status == 403 and code == "insufficient_scope":
        detail = "" if scope and scope in said else detail  # the description often says just that
        error.message = f"{agent_url} refused the request: the token lacks the scope {scope or '(unnamed)'}{detail}"
        from .sign_in_offer import SignInOffer, valid_scopes

        error.wanted_scopes = tuple(valid_scopes(scope.split()))
        flags = SignInOffer(error.wanted_scopes, None, "").scope_flags() or "--scope SCOPE"
        error.hint = (
            f"Ask for it: oauth.scopes in the agents file (e.g. scopes: [{scope}]), or sign in with it now: "
            f"switchboard auth login AGENT {flags} --remember (with --scope for each scope the agent needs), "
            f"and give the same --scope flags to the commands that follow.{where}"
        )
    elif code == "invalid_token":
        error.message = f"{agent_url} refused the access token{detail}"
        error.hint = (
            "The token expired, was revoked, or was minted for another audience: sign in again "
            f"(switchboard auth login AGENT), or check oauth.resource in the agents file.{where}"
        )
    elif not oauth:
        error.message = f"{agent_url} wants a bearer token (HTTP {status}){detail}"
        error.hint = (
            "Give an OAuth client (oauth: with clientId in the agents file, or --client-id) so switchboard can "
            f"sign in, or a token with --bearer-env VAR.{where}"
        )
    else:
        error.message = f"{agent_url} refused the request with HTTP {status}{detail}"
        error.hint = (error.hint or "") + where
    error.args = (error.message,)
