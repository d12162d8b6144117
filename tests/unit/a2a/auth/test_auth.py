"""Credentials: read from the environment, placed as the card's security scheme says, redacted, kept on origin."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from switchboard.a2a.auth.credentials import Credentials, credentials_from_env, plan_auth
from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import CredentialsMissingError, ProtocolError
from switchboard.a2a.origin import origin_of
from switchboard.a2a.redact import REDACTED, Redactor
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport

# --- cards in both wire shapes -----------------------------------------------------------------------


def legacy_card(schemes: dict[str, Any] | None = None, security: list[dict[str, list[str]]] | None = None):
    """A v0.3 card: OpenAPI-style schemes, `security` as [{name: [scopes]}]."""
    data: dict[str, Any] = {"name": "legacy-agent", "url": "http://127.0.0.1:9101/", "protocolVersion": "0.3.0"}
    if schemes is not None:
        data["securitySchemes"] = schemes
    if security is not None:
        data["security"] = security
    return parse_card(data)


def v10_card(schemes: dict[str, Any] | None = None, requirements: list[str] | None = None, url: str | None = None):
    """A v1.0 card: oneof-wrapped schemes, securityRequirements as [{"schemes": {name: {"list": []}}}]."""
    data: dict[str, Any] = {
        "name": "v10-agent",
        "supportedInterfaces": [
            {"url": url or "http://127.0.0.1:9102/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
    }
    if schemes is not None:
        data["securitySchemes"] = schemes
    if requirements is not None:
        data["securityRequirements"] = [{"schemes": {name: {"list": []}}} for name in requirements]
    return parse_card(data)


# --- credentials_from_env ----------------------------------------------------------------------------


def test_a_named_variable_that_is_unset_is_a_credentials_error_naming_it():
    with pytest.raises(CredentialsMissingError) as caught:
        credentials_from_env(bearer_env="MY_AGENT_TOKEN", env={})
    assert caught.value.exit_code == 4
    assert "MY_AGENT_TOKEN" in caught.value.message
    assert "MY_AGENT_TOKEN" in (caught.value.hint or "")


def test_a_named_api_key_variable_set_to_empty_counts_as_unset():
    with pytest.raises(CredentialsMissingError, match="MY_KEY"):
        credentials_from_env(api_key_env="MY_KEY", env={"MY_KEY": ""})


def test_named_variables_are_read():
    creds = credentials_from_env(bearer_env="TOK", api_key_env="KEY", env={"TOK": "t-123", "KEY": "k-456"})
    assert (creds.bearer, creds.api_key) == ("t-123", "k-456")


def test_without_names_the_a2acli_defaults_are_read():
    creds = credentials_from_env(env={"A2ACLI_BEARER": "bearer-default", "A2ACLI_API_KEY": "key-default"})
    assert (creds.bearer, creds.api_key) == ("bearer-default", "key-default")


def test_without_names_or_defaults_there_are_no_credentials_and_no_error():
    creds = credentials_from_env(env={})
    assert creds.bearer is None and creds.api_key is None and creds.secrets == []


def test_credentials_repr_never_shows_the_secret():
    assert "t-secret" not in repr(Credentials(bearer="t-secret", api_key="k-secret"))
    assert "k-secret" not in repr(Credentials(bearer="t-secret", api_key="k-secret"))


# --- plan_auth: placement ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "where"),
    [("header", "headers"), ("query", "params"), ("cookie", "cookies")],
)
def test_a_v03_api_key_scheme_places_the_key_where_the_card_says(location, where):
    card = legacy_card({"key": {"type": "apiKey", "in": location, "name": "X-Agent-Key"}}, [{"key": []}])
    plan = plan_auth(card, Credentials(api_key="key-value-1"))
    assert getattr(plan, where) == {"X-Agent-Key": "key-value-1"}
    others = {"headers", "params", "cookies"} - {where}
    assert all(getattr(plan, other) == {} for other in others)
    assert plan.scheme_name == "key"


@pytest.mark.parametrize(
    ("location", "where"),
    [("header", "headers"), ("query", "params"), ("cookie", "cookies")],
)
def test_a_v10_api_key_scheme_places_the_key_where_the_card_says(location, where):
    card = v10_card({"key": {"apiKeySecurityScheme": {"location": location, "name": "api_key"}}}, ["key"])
    plan = plan_auth(card, Credentials(api_key="key-value-2"))
    assert getattr(plan, where) == {"api_key": "key-value-2"}
    assert plan.scheme_name == "key"


def test_an_api_key_scheme_without_a_name_uses_the_x_api_key_header():
    card = legacy_card({"key": {"type": "apiKey", "in": "header"}}, [{"key": []}])
    assert plan_auth(card, Credentials(api_key="key-value-3")).headers == {"X-API-Key": "key-value-3"}


def test_a_v03_http_bearer_scheme_sends_an_authorization_header():
    card = legacy_card({"bearer": {"type": "http", "scheme": "bearer"}}, [{"bearer": []}])
    plan = plan_auth(card, Credentials(bearer="tok-1"))
    assert plan.headers == {"Authorization": "Bearer tok-1"}
    assert plan.params == {} and plan.cookies == {}


def test_a_v10_http_bearer_scheme_sends_an_authorization_header():
    card = v10_card({"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}, ["bearer"])
    assert plan_auth(card, Credentials(bearer="tok-2")).headers == {"Authorization": "Bearer tok-2"}


@pytest.mark.parametrize(
    "scheme",
    [
        {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://idp/token", "scopes": {}}}},
        {"oauth2SecurityScheme": {"flows": {}}},
        {"type": "openIdConnect", "openIdConnectUrl": "https://idp/.well-known/openid-configuration"},
    ],
    ids=["v03-oauth2", "v10-oauth2", "v03-oidc"],
)
def test_an_oauth2_or_oidc_access_token_is_presented_as_a_bearer_token(scheme):
    card = legacy_card({"sso": scheme}, [{"sso": []}])
    assert plan_auth(card, Credentials(bearer="access-token")).headers == {"Authorization": "Bearer access-token"}


def test_an_http_basic_scheme_is_not_satisfied_by_a_bearer_token():
    card = legacy_card({"basic": {"type": "http", "scheme": "basic"}}, [{"basic": []}])
    with pytest.raises(CredentialsMissingError, match="basic"):
        plan_auth(card, Credentials(bearer="tok"))


# --- plan_auth: which requirement ------------------------------------------------------------------


def test_the_first_satisfiable_requirement_wins():
    schemes = {
        "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
        "bearer": {"httpAuthSecurityScheme": {"scheme": "bearer"}},
    }
    card = v10_card(schemes, ["key", "bearer"])
    both = plan_auth(card, Credentials(bearer="tok", api_key="key-1"))
    assert both.scheme_name == "key" and both.headers == {"X-Key": "key-1"}
    # Only the bearer token: the first requirement cannot be met, the second is.
    only_bearer = plan_auth(card, Credentials(bearer="tok"))
    assert only_bearer.scheme_name == "bearer" and only_bearer.headers == {"Authorization": "Bearer tok"}


def test_a_requirement_naming_two_schemes_needs_both():
    schemes = {
        "key": {"type": "apiKey", "in": "query", "name": "k"},
        "bearer": {"type": "http", "scheme": "bearer"},
    }
    card = legacy_card(schemes, [{"key": [], "bearer": []}])
    plan = plan_auth(card, Credentials(bearer="tok", api_key="key-2"))
    assert plan.params == {"k": "key-2"} and plan.headers == {"Authorization": "Bearer tok"}
    with pytest.raises(CredentialsMissingError):
        plan_auth(card, Credentials(bearer="tok"))


def test_a_required_but_unsatisfied_api_key_names_the_scheme_and_the_header():
    card = legacy_card({"agentKey": {"type": "apiKey", "in": "header", "name": "X-Agent-Key"}}, [{"agentKey": []}])
    with pytest.raises(CredentialsMissingError) as caught:
        plan_auth(card, Credentials())
    error = caught.value
    assert error.exit_code == 4 and error.workflow_code == "A2A_CREDENTIALS_MISSING"
    assert "legacy-agent" in error.message
    assert "agentKey" in error.message and "X-Agent-Key" in error.message
    assert "--api-key-env" in error.message


def test_a_required_but_unsatisfied_v10_bearer_names_the_scheme_and_how_to_give_it():
    card = v10_card({"jwt": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}, ["jwt"])
    with pytest.raises(CredentialsMissingError) as caught:
        plan_auth(card, Credentials(api_key="wrong-kind"))
    assert "jwt" in caught.value.message and "--bearer-env" in caught.value.message


def test_a_requirement_naming_an_undeclared_scheme_is_unsatisfiable_and_says_so():
    card = legacy_card({}, [{"ghost": []}])
    with pytest.raises(CredentialsMissingError, match="ghost: \\(undeclared scheme\\)"):
        plan_auth(card, Credentials(bearer="tok", api_key="key"))


def test_without_declared_security_given_credentials_are_still_sent():
    card = legacy_card()
    plan = plan_auth(card, Credentials(bearer="tok", api_key="key-3"))
    assert plan.headers == {"Authorization": "Bearer tok", "X-API-Key": "key-3"}


def test_without_a_card_given_credentials_are_still_sent():
    assert plan_auth(None, Credentials(bearer="tok")).headers == {"Authorization": "Bearer tok"}


def test_without_declared_security_and_without_credentials_nothing_is_sent():
    assert plan_auth(legacy_card(), Credentials()).empty


def test_schemes_offered_but_not_required_are_used_when_satisfiable_and_skipped_otherwise():
    card = legacy_card({"key": {"type": "apiKey", "in": "query", "name": "k"}})
    assert plan_auth(card, Credentials(api_key="key-4")).params == {"k": "key-4"}
    assert plan_auth(card, Credentials()).empty  # optional: no error when nothing fits


# --- Redactor ----------------------------------------------------------------------------------------


def test_redactor_replaces_every_occurrence_of_a_secret_in_text():
    redactor = Redactor(["s3cr3t-token"])
    assert redactor.text('{"echo": "s3cr3t-token", "again": "s3cr3t-token"}') == (
        f'{{"echo": "{REDACTED}", "again": "{REDACTED}"}}'
    )


def test_redactor_replaces_the_longer_secret_first_so_no_fragment_survives():
    redactor = Redactor(["abcd", "abcdef-long"])
    assert redactor.text("x abcdef-long y") == f"x {REDACTED} y"


def test_redactor_leaves_secrets_shorter_than_four_characters_in_free_text():
    redactor = Redactor(["abc"])
    assert redactor.text("abc and abcdef") == "abc and abcdef"


def test_redactor_masks_credential_headers_keeping_the_scheme_word():
    redactor = Redactor()
    masked = redactor.headers([("Authorization", "Bearer tok-1234"), ("proxy-authorization", "Basic Zm9vOmJhcg==")])
    assert masked == {"Authorization": f"Bearer {REDACTED}", "proxy-authorization": f"Basic {REDACTED}"}


def test_redactor_masks_credential_headers_even_with_a_short_value():
    masked = Redactor(["ab"]).headers([("X-API-Key", "ab"), ("Cookie", "sid=1"), ("Authorization", "ab")])
    assert masked == {"X-API-Key": REDACTED, "Cookie": REDACTED, "Authorization": REDACTED}


def test_redactor_masks_extra_sensitive_headers_and_redacts_secrets_in_the_rest():
    redactor = Redactor(["key-value-9"])
    masked = redactor.headers(
        [("X-Agent-Key", "anything"), ("X-Echo", "saw key-value-9"), ("Accept", "application/json")],
        extra_sensitive=["x-agent-key"],
    )
    assert masked == {"X-Agent-Key": REDACTED, "X-Echo": f"saw {REDACTED}", "Accept": "application/json"}


# --- origin_of ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://Example.COM/a/b?q=1", "https://example.com:443"),
        ("http://example.com/", "http://example.com:80"),
        ("http://127.0.0.1:9101/.well-known/agent-card.json", "http://127.0.0.1:9101"),
        ("HTTP://localhost:8080", "http://localhost:8080"),
    ],
)
def test_origin_of_is_scheme_host_and_explicit_port(url, origin):
    assert origin_of(url) == origin


def test_origin_of_tells_apart_what_differs_only_in_scheme_or_port():
    assert origin_of("https://example.com/") == origin_of("https://example.com:443/x")
    assert origin_of("http://example.com/") != origin_of("https://example.com/")
    assert origin_of("http://example.com:8080/") != origin_of("http://example.com/")


# --- A transport keeps credentials on the card's origin ---------------------------------------------------

CARD_URL = "http://127.0.0.1:9101/.well-known/agent-card.json"
BEARER_CARD_SCHEMES = {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}


class Recorder:
    """A mock agent that records each request and answers every call with TaskNotFoundError."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no task"}})


async def authorization_sent(client: Transport, agent: Recorder) -> str | None:
    """Make one call and return the Authorization header the agent received (None when absent)."""
    with pytest.raises(ProtocolError):
        await client.get_task("task-1")
    return agent.requests[-1].headers.get("Authorization")


async def test_a_client_withholds_credentials_from_an_interface_on_another_origin():
    card = v10_card(BEARER_CARD_SCHEMES, ["bearer"], url="https://elsewhere.example/rpc")
    notes: list[str] = []
    agent = Recorder()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(
            card, card_url=CARD_URL, http=http, credentials=Credentials(bearer="tok"), on_note=notes.append
        )
        assert agent.requests == []  # building the client sends nothing
        assert client.auth.empty
        assert len(notes) == 1 and notes == list(client.notes)
        assert "credentials and configured headers withheld" in notes[0]
        assert "https://elsewhere.example:443" in notes[0] and "--trust-interface-origin" in notes[0]
        assert await authorization_sent(client, agent) is None
    assert str(agent.requests[-1].url) == "https://elsewhere.example/rpc"


async def test_a_client_sends_credentials_to_another_origin_when_trusted():
    card = v10_card(BEARER_CARD_SCHEMES, ["bearer"], url="https://elsewhere.example/rpc")
    agent = Recorder()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(
            card, card_url=CARD_URL, http=http, credentials=Credentials(bearer="tok"), trust_interface_origin=True
        )
        assert client.auth.headers == {"Authorization": "Bearer tok"}
        assert not any("withheld" in note for note in client.notes)
        assert await authorization_sent(client, agent) == "Bearer tok"


async def test_a_client_sends_credentials_to_an_interface_on_the_card_origin():
    card = v10_card(BEARER_CARD_SCHEMES, ["bearer"], url="http://127.0.0.1:9101/rpc")
    agent = Recorder()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(card, card_url=CARD_URL, http=http, credentials=Credentials(bearer="tok"))
        assert list(client.notes) == []
        assert await authorization_sent(client, agent) == "Bearer tok"


async def test_a_client_built_from_a_card_file_sends_credentials_to_the_interface():
    card = v10_card(BEARER_CARD_SCHEMES, ["bearer"], url="https://elsewhere.example/rpc")
    agent = Recorder()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(
            card, card_url="file:///tmp/card.json", http=http, credentials=Credentials(bearer="tok")
        )
        # A local card file has no origin to compare with: the person chose the file.
        assert client.auth.headers == {"Authorization": "Bearer tok"}
        assert await authorization_sent(client, agent) == "Bearer tok"


async def test_configured_headers_stay_home_with_the_credentials():
    card = v10_card(BEARER_CARD_SCHEMES, ["bearer"], url="https://elsewhere.example/rpc")
    agent = Recorder()
    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(
            card,
            card_url=CARD_URL,
            http=http,
            credentials=Credentials(bearer="tok"),
            extra_headers={"X-Team-Token": "team-secret"},
        )
        await authorization_sent(client, agent)
    assert "X-Team-Token" not in agent.requests[-1].headers
    assert any("withheld" in note for note in client.notes)


def test_origin_of_keeps_ipv6_brackets():
    assert origin_of("http://[::1]:8080/rpc") == "http://[::1]:8080"
