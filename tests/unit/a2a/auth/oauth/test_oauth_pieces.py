"""The small parts of OAuth that need no server: the agents file's `oauth:` block, the choice of flow, the
WWW-Authenticate challenge, and the token store's file (on a box without a keyring backend)."""

from __future__ import annotations

import stat

import pytest

from switchboard.a2a.auth.challenge import parse_challenge
from switchboard.a2a.auth.credentials import Credentials, plan_auth
from switchboard.a2a.auth.oauth.client import OAuthClient, choose
from switchboard.a2a.auth.oauth.token_store import TokenStore
from switchboard.a2a.errors import CredentialsMissingError, UsageError
from switchboard.a2a.model import AgentCard, SecurityScheme
from switchboard.a2a.redact import Redactor
from switchboard.agents import load_agents


def agents(tmp_path, block: str):
    path = tmp_path / "agents.yaml"
    path.write_text(f"agents:\n  - name: a\n    url: http://127.0.0.1:9/\n    oauth: {block}\n")
    return load_agents(path)


def test_the_oauth_block_is_read(tmp_path):
    block = "{clientId: cli, clientSecretEnv: S, flow: deviceCode, scopes: a b, resource: false, scheme: x}"
    oauth = agents(tmp_path, block).agents[0].oauth
    assert oauth is not None
    assert (oauth.client_id, oauth.client_secret_env, oauth.flow) == ("cli", "S", "deviceCode")
    assert oauth.scopes == ["a", "b"] and oauth.send_resource is False and oauth.scheme == "x"


@pytest.mark.parametrize(
    ("block", "says"),
    [
        ("{clientSecretEnv: S}", "needs a clientId"),
        ("{clientId: c, flow: implicit}", "is not one of clientCredentials"),
        ("{clientId: c, clientSecret: s3cret}", "unknown key 'clientSecret'"),
        ("{clientId: c, resource: 5}", "resource must be a URL"),
        ("just-a-string", "must be a mapping"),
    ],
)
def test_a_mistake_in_the_oauth_block_is_a_usage_error_naming_its_line(tmp_path, block, says):
    with pytest.raises(UsageError) as caught:
        agents(tmp_path, block)
    assert says in caught.value.message and "line 4" in caught.value.message


FLOWS = {
    "clientCredentials": {"tokenUrl": "https://i/token"},
    "deviceCode": {"tokenUrl": "https://i/token", "deviceAuthorizationUrl": "https://i/device"},
    "authorizationCode": {"tokenUrl": "https://i/token", "authorizationUrl": "https://i/auth"},
}


def test_the_flow_follows_the_secret_then_the_device_code():
    scheme = SecurityScheme(type="oauth2", flows=FLOWS)
    assert OAuthClient("c", client_secret="s" * 8).flow_for(list(FLOWS)) == "clientCredentials"
    assert OAuthClient("c").flow_for(list(FLOWS)) == "deviceCode"
    assert OAuthClient("c", flow="authorizationCode").flow_for(list(FLOWS)) == "authorizationCode"
    only_cc = SecurityScheme(type="oauth2", flows={"clientCredentials": FLOWS["clientCredentials"]})
    assert choose("s", only_cc, [], OAuthClient("public")) is None  # no secret: this scheme cannot be satisfied
    assert choose("s", scheme, ["x"], OAuthClient("c", scheme="other")) is None


def card(**schemes: SecurityScheme) -> AgentCard:
    return AgentCard(
        name="t", shape="v1.0", security_schemes=schemes, security=[{name: ["a2a:send"]} for name in schemes]
    )


def test_the_plan_skips_a_requirement_the_client_cannot_meet_and_takes_the_next():
    only_cc = SecurityScheme(type="oauth2", flows={"clientCredentials": FLOWS["clientCredentials"]})
    device = SecurityScheme(type="oauth2", flows={"deviceCode": FLOWS["deviceCode"]})
    plan = plan_auth(card(cc=only_cc, dev=device), Credentials(oauth=OAuthClient("cli")), url="https://a/")
    assert plan.scheme_name == "dev" and plan.oauth is not None
    assert plan.oauth.source.scope == "a2a:send"  # type: ignore[attr-defined]


def test_an_oauth_card_without_a_client_says_how_to_give_one():
    with pytest.raises(CredentialsMissingError) as caught:
        plan_auth(card(cc=SecurityScheme(type="oauth2", flows=FLOWS)), Credentials(), url="https://a/")
    assert "--client-id" in caught.value.message and "oauth:" in (caught.value.hint or "")


def test_a_client_secret_is_redacted_as_soon_as_the_plan_is_made():
    redactor = Redactor()
    secret = "client-secret-value-123"
    plan_auth(
        card(cc=SecurityScheme(type="oauth2", flows=FLOWS)),
        Credentials(oauth=OAuthClient("c", client_secret=secret)),
        url="https://a/",
        redactor=redactor,
    )
    assert secret not in redactor.text(f"echo {secret}")
    assert "secret=set" in repr(Credentials(oauth=OAuthClient("c", client_secret=secret)))


def test_the_challenge_parameters_are_read():
    header = (
        'Bearer realm="http://a/", error="insufficient_scope", error_description="needs \\"admin\\"", '
        'scope="a2a:admin a2a:send", resource_metadata="http://a/.well-known/oauth-protected-resource"'
    )
    params = parse_challenge(header)
    assert params["error"] == "insufficient_scope" and params["scope"] == "a2a:admin a2a:send"
    assert params["error_description"] == 'needs "admin"'
    assert params["resource_metadata"].endswith("oauth-protected-resource")
    assert parse_challenge('Basic realm="x"') == {} and parse_challenge(None) == {}
    assert parse_challenge("Bearer error=invalid_token")["error"] == "invalid_token"


def test_without_a_keyring_the_store_is_a_0600_file_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    import keyring.core

    monkeypatch.setattr(keyring.core, "_keyring_backend", None)  # pick the backend again from the variable
    warnings: list[str] = []
    store = TokenStore(tmp_path / "config", warnings.append)
    store.save("k", {"access_token": "tok-123456"})
    path = tmp_path / "config" / "oauth-tokens.json"
    assert store.where == str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert warnings and str(path) in warnings[0] and "0600" in warnings[0]
    assert store.load("k") == {"access_token": "tok-123456"}
    assert store.delete("k") and store.load("k") is None and not store.delete("k")
