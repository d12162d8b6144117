"""An agent's HTTP client (its `tls:`) and the secrets its configuration leads to: what a one-request command
(`card get`) needs of an agent, without the link's transports, follow loop and A2UI negotiation (link.py)."""

from __future__ import annotations

import os

import httpx

from .a2a.auth.credentials import DEFAULT_API_KEY_ENV, DEFAULT_BASIC_PASSWORD_ENV, DEFAULT_BEARER_ENV
from .a2a.cards import candidate_urls
from .a2a.http import new_http_client
from .a2a.origin import origin_of
from .agents import AgentEntry
from .demo_credentials import with_demo_defaults


def agent_http_client(
    entry: AgentEntry, timeout: httpx.Timeout | float | None = None, origins: set[str] | None = None
) -> httpx.AsyncClient:
    """A client of the agent's own for its `tls:` (a client certificate, a private CA), presenting the certificate
    to the agent's origin only (and to `origins`, a set the caller may add to later). A bad path or key is a
    UsageError."""
    from .a2a.auth.trust.client_tls import client_tls_context

    tls = entry.tls
    if tls is None:
        return new_http_client(timeout)
    cert_origins = origins if origins is not None else set()
    cert_origins.add(origin_of(candidate_urls(entry.url)[0]))
    return new_http_client(
        timeout,
        tls_context=client_tls_context(tls.cert, tls.key, tls.ca),
        cert_origins=cert_origins,
        other_context=client_tls_context(None, None, tls.ca) if tls.ca else None,
    )


def known_secrets(entry: AgentEntry | None) -> list[str]:
    """Every secret an agent's configuration leads to: credential values and ${VAR} header values.

    They go to the redactor before the first request, since even a card may quote them back. Never raises.
    """
    names = [entry.api_key_env, entry.bearer_env, entry.basic_env] if entry else []
    names += [entry.oauth.client_secret_env] if entry and entry.oauth else []
    names += [DEFAULT_API_KEY_ENV, DEFAULT_BEARER_ENV, DEFAULT_BASIC_PASSWORD_ENV]
    env = with_demo_defaults(os.environ)
    return [env[n] for n in names if n and env.get(n)] + (list(entry.interpolated) if entry else [])
