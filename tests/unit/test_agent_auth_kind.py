"""The agents table's Auth column: what the agent asks callers for, in a word, from the card's required schemes
first, else from the credential the agents file names."""

from __future__ import annotations

import pytest

from switchboard.a2a.cards import parse_card
from switchboard.agent_status import AgentStatus
from switchboard.agents import AgentEntry

SCHEMES = {
    "corp": {"oauth2SecurityScheme": {"flows": {"deviceCode": {"deviceAuthorizationUrl": "https://i/d",
             "tokenUrl": "https://i/t", "scopes": {"read": ""}}}}},
    "oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://i/.well-known/openid-configuration"}},
    "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
    "jwt": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
    "pw": {"httpAuthSecurityScheme": {"scheme": "basic"}},
    "tls": {"mtlsSecurityScheme": {}},
}  # fmt: skip


def status_for(required: list[str], declared: list[str] | None = None, **entry) -> AgentStatus:
    interface = {"url": "https://a/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    card = parse_card(
        {
            "name": "a",
            "description": "d",
            "version": "1",
            "supportedInterfaces": [interface],
            "securitySchemes": {name: SCHEMES[name] for name in (declared or required)},
            "securityRequirements": [{"schemes": {name: {"list": []}}} for name in required],
        }
    )
    status = AgentStatus(AgentEntry("a", "https://a/", **entry))
    status.card = card
    return status


@pytest.mark.parametrize(
    ("required", "word"),
    [(["corp"], "oauth"), (["oidc"], "oidc"), (["key"], "key"), (["jwt"], "bearer"), (["pw"], "basic"),
     (["tls"], "mtls"), (["corp", "key"], "oauth/key")],
)  # fmt: skip
def test_the_cards_required_scheme_names_the_column(required, word):
    assert status_for(required).auth_kind == word


def test_declared_schemes_without_a_requirement_still_say_what_they_are():
    assert status_for([], declared=["corp"]).auth_kind == "oauth"


def test_without_a_card_the_agents_file_says_it_and_nothing_is_a_dash():
    assert AgentStatus(AgentEntry("a", "https://a/", bearer_env="T")).auth_kind == "bearer"
    assert AgentStatus(AgentEntry("a", "https://a/", api_key_env="K")).auth_kind == "key"
    assert AgentStatus(AgentEntry("a", "https://a/")).auth_kind is None
