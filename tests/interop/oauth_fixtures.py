"""Session fixtures for the OAuth tests: one OpenID Provider and the agents behind it, started on first use.
A test that cannot start them fails (ServerStartError), never skips."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from oauth_servers import Process, Provider, start_oauth_agent, start_provider


@pytest.fixture(scope="session")
def oidc_provider() -> Iterator[Provider]:
    provider = start_provider()
    yield provider
    provider.stop()


@pytest.fixture(scope="session")
def oauth_agent(oidc_provider: Provider) -> Iterator[Process]:
    """Its card declares client credentials, authorization code (PKCE), device code and OIDC; it needs a2a:send."""
    agent = start_oauth_agent(oidc_provider.issuer)
    yield agent
    agent.stop()


@pytest.fixture(scope="session")
def narrow_oauth_agent(oidc_provider: Provider) -> Iterator[Process]:
    """Its card asks for a2a:send but it needs a2a:admin: the token it is given lacks a scope (403)."""
    agent = start_oauth_agent(oidc_provider.issuer, card_scope="a2a:send", required_scope="a2a:admin")
    yield agent
    agent.stop()


@pytest.fixture(scope="session")
def merged_card_oauth_agent(oidc_provider: Provider) -> Iterator[Process]:
    """The same agent serving v0.3 too: the SDK publishes each scheme in both shapes in its one card."""
    agent = start_oauth_agent(oidc_provider.issuer, with_v03=True)
    yield agent
    agent.stop()
