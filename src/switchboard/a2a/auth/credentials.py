"""Credentials: read from environment variables, attached as the card's security scheme says, sent only
to the agent's own origin, and redacted from everything the tool shows or writes."""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..call_context import CallContext
from ..errors import CredentialsMissingError, UsageError
from ..model import AgentCard, SecurityScheme
from ..origin import origin_of
from ..redact import Redactor
from ..user_input import check_secret
from ..user_input import is_loopback as is_loopback  # its home is user_input; callers import it here too

if TYPE_CHECKING:
    import httpx

    from ..tap import Tap
    from .oauth.client import OAuthClient

# Environment variables the A2A CLI spec names for the credential flags.
DEFAULT_BEARER_ENV = "A2ACLI_BEARER"
DEFAULT_API_KEY_ENV = "A2ACLI_API_KEY"
DEFAULT_API_KEY_HEADER = "X-API-Key"
DEFAULT_BASIC_PASSWORD_ENV = "A2ACLI_BASIC_PASSWORD"


@dataclass(frozen=True)
class Credentials:
    """Secret values for one agent. Built from the environment, never from files on disk."""

    bearer: str | None = None
    api_key: str | None = None
    basic_user: str | None = None  # HTTP Basic: user and password go together or not at all
    basic_password: str | None = None
    client_cert: bool = False  # a client certificate goes with every TLS connection (mutual TLS)
    oauth: OAuthClient | None = None  # OAuth2 / OIDC: tokens obtained from what the card declares

    @property
    def basic(self) -> str | None:
        """The Authorization value for HTTP Basic, when both halves are there."""
        if self.basic_user is None or not self.basic_password:
            return None
        pair = f"{self.basic_user}:{self.basic_password}".encode()
        return "Basic " + base64.b64encode(pair).decode("ascii")

    @property
    def secrets(self) -> list[str]:
        pair = f"{self.basic_user}:{self.basic_password}" if self.basic else None
        client_secret = self.oauth.client_secret if self.oauth else None
        return [s for s in (self.bearer, self.api_key, self.basic_password, pair, client_secret) if s]

    def __repr__(self) -> str:  # never print a secret by accident
        return (
            f"Credentials(bearer={'set' if self.bearer else None}, api_key={'set' if self.api_key else None}, "
            f"basic={'set' if self.basic else None}, oauth={self.oauth!r})"
        )


def credentials_from_env(
    bearer_env: str | None = None,
    api_key_env: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    basic_user: str | None = None,
    basic_password_env: str | None = None,
) -> Credentials:
    """Read credentials from the named variables (or the A2ACLI_* defaults).

    A variable the caller named explicitly but left unset is an error: the caller meant to authenticate.
    """
    env = os.environ if env is None else env

    def read(name: str | None, default: str, what: str) -> str | None:
        if name:
            value = env.get(name)
            if not value:
                raise CredentialsMissingError(
                    f"the environment variable {name} named for the {what} is not set",
                    hint=f"export {name}=... before running, or name another variable",
                )
            return check_secret(value, f"the environment variable {name} ({what})")
        value = env.get(default)
        return check_secret(value, f"the environment variable {default} ({what})") if value else None

    password = None
    if basic_user is not None and ":" in basic_user:
        raise UsageError(
            "the HTTP Basic user has a colon in it, which Basic cannot carry (RFC 7617)",
            hint="Check the user given with --basic-user or auth: {user: ...} in the agents file.",
        )
    if basic_user is not None:  # a user named means Basic is meant: its password must be there
        password = read(basic_password_env or DEFAULT_BASIC_PASSWORD_ENV, "", "HTTP Basic password")
    return Credentials(
        bearer=read(bearer_env, DEFAULT_BEARER_ENV, "bearer token"),
        api_key=read(api_key_env, DEFAULT_API_KEY_ENV, "API key"),
        basic_user=check_secret(basic_user, "the HTTP Basic user") if basic_user is not None else None,
        basic_password=password,
    )


@dataclass
class AuthPlan:
    """What to attach to each request: headers, query parameters and cookies."""

    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    scheme_name: str | None = None
    oauth: httpx.Auth | None = None  # OAuthBearer: a token per request, obtained and renewed as needed

    @property
    def empty(self) -> bool:
        return not (self.headers or self.params or self.cookies or self.oauth)

    def auth_for(self, context: CallContext | None) -> httpx.Auth | None:
        """The httpx.Auth of one call: the OAuth bearer as it is, or for a call made in the background (its
        context not interactive) one that never starts a sign-in with the person."""
        if self.oauth is None or context is None or context.interactive:
            return self.oauth
        from .oauth.client import OAuthBearer

        return self.oauth.without_person() if isinstance(self.oauth, OAuthBearer) else self.oauth

    def request_headers(self) -> dict[str, str]:
        """The headers to put on one request, cookies included as a Cookie header: per request, never in a
        client-wide cookie jar that would carry them to other origins."""
        if not self.cookies:
            return dict(self.headers)
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return {**self.headers, "Cookie": cookie}


@dataclass
class _Target:
    """What an OAuth token is for: the agent's URL (the RFC 8707 resource) and the redactor for its tokens."""

    url: str
    redactor: Redactor
    tap: Tap | None = None  # where the issuer's requests are recorded, beside the agent's


def _attach(
    name: str, scheme: SecurityScheme, scopes: list[str], creds: Credentials, plan: AuthPlan, audience: _Target | None
) -> bool:
    """Add what `scheme` needs to `plan`; False when the credentials cannot satisfy it."""
    if scheme.type == "apiKey":
        if not creds.api_key:
            return False
        name = scheme.param_name or DEFAULT_API_KEY_HEADER
        target = {"query": plan.params, "cookie": plan.cookies}.get(scheme.location or "header", plan.headers)
        target[name] = creds.api_key
        return True
    if scheme.type == "http" and (scheme.scheme or "").lower() == "basic":
        if not creds.basic:
            return False
        plan.headers["Authorization"] = creds.basic
        return True
    if scheme.type == "mutualTLS":
        return creds.client_cert  # presented in the TLS handshake, nothing to add to the request
    http_bearer = scheme.type == "http" and (scheme.scheme or "bearer").lower() == "bearer"
    # An OAuth2 / OIDC access token obtained elsewhere is presented as a bearer token.
    if http_bearer or scheme.type in ("oauth2", "openIdConnect"):
        if creds.bearer:
            plan.headers["Authorization"] = f"Bearer {creds.bearer}"
            return True
        if creds.oauth is None or audience is None or scheme.type == "http":
            return False
        from .oauth.client import OAuthBearer, TokenSource, choose

        choice = choose(name, scheme, scopes, creds.oauth)
        if choice is None:
            return False
        source = TokenSource(choice, creds.oauth, audience.url, audience.redactor, tap=audience.tap)
        plan.oauth = OAuthBearer(source, origin_of(audience.url))
        return True
    return False


def wants_basic(card: AgentCard | None, creds: Credentials) -> bool:
    """Whether the agent is reached with HTTP Basic: a Basic user and password were given (the agents file, the
    flags), or the card declares a Basic scheme."""
    if creds.basic:
        return True
    schemes = card.security_schemes.values() if card else ()
    return any(s.type == "http" and (s.scheme or "").lower() == "basic" for s in schemes)


def describe_scheme(name: str, scheme: SecurityScheme) -> str:
    """One line for people: what the scheme wants and how to give it."""
    if scheme.type == "apiKey":
        where = scheme.location or "header"
        return (
            f"{name}: API key in {where} {scheme.param_name or DEFAULT_API_KEY_HEADER} "
            f"(--api-key-env VAR or {DEFAULT_API_KEY_ENV})"
        )
    if scheme.type == "http" and (scheme.scheme or "").lower() == "basic":
        return (
            f"{name}: HTTP Basic user and password (--basic-user USER with the password in --basic-password-env VAR "
            f"or {DEFAULT_BASIC_PASSWORD_ENV}; or auth: {{scheme: basic, user: USER, env: VAR}} in the agents file)"
        )
    if scheme.type == "mutualTLS":
        return (
            f"{name}: mutual TLS, a client certificate (--client-cert FILE --client-key FILE, or "
            "tls: {cert: FILE, key: FILE} in the agents file)"
        )
    if scheme.type == "http":
        return f"{name}: HTTP {scheme.scheme or 'bearer'} token (--bearer-env VAR or {DEFAULT_BEARER_ENV})"
    if scheme.type in ("oauth2", "openIdConnect"):
        flows = ", ".join(k for k, v in (scheme.flows or {}).items() if isinstance(v, dict))
        how = f"{scheme.type}{f' ({flows})' if flows else ''}"
        return f"{name}: {how}: a token obtained with your client id (oauth: in the agents file, or --client-id)"
    return f"{name}: {scheme.type} (not supported by this tool)"


def plan_auth(
    card: AgentCard | None,
    creds: Credentials,
    *,
    url: str | None = None,
    redactor: Redactor | None = None,
    tap: Tap | None = None,
) -> AuthPlan:
    """Choose how to present `creds` to the agent behind `card` (at `url`: where OAuth tokens are for).

    The first security requirement the credentials satisfy wins. When the card requires security and
    nothing satisfies it, this raises CredentialsMissingError with a hint naming the scheme. When the
    card declares nothing, given credentials are still sent (many cards omit their security).
    """
    plan = AuthPlan()
    schemes = card.security_schemes if card else {}
    requirements = list(card.security) if card else []
    if not requirements and schemes:
        requirements = [{name: []} for name in schemes]
    if not requirements:
        if creds.bearer:
            plan.headers["Authorization"] = f"Bearer {creds.bearer}"
        elif creds.basic:
            plan.headers["Authorization"] = creds.basic
        if creds.api_key:
            plan.headers[DEFAULT_API_KEY_HEADER] = creds.api_key
        return plan
    target = _Target(url, redactor or Redactor(), tap) if url else None
    for requirement in requirements:
        trial = AuthPlan()
        if requirement and all(
            name in schemes and _attach(name, schemes[name], requirement[name], creds, trial, target)
            for name in requirement
        ):
            trial.scheme_name = ", ".join(requirement)
            return trial
    if not (card and card.security):
        return plan  # schemes offered but none required: go without
    wanted = sorted({name for req in requirements for name in req})
    lines = [describe_scheme(n, schemes[n]) if n in schemes else f"{n}: (undeclared scheme)" for n in wanted]
    raise CredentialsMissingError(
        f"{card.name} requires credentials: " + "; ".join(lines),
        hint="Put the secret in an environment variable and name it with --api-key-env, --bearer-env or "
        "--basic-password-env (or the agent's apiKeyEnv or auth in the agents file); a client certificate with "
        "--client-cert and --client-key (or tls: in the agents file). For OAuth2 / OpenID Connect, name your "
        "client: oauth: {clientId: ID} in the agents file or --client-id ID, with --client-secret-env VAR for "
        "client credentials (see docs/sign-in-and-trust.md).",
    )
