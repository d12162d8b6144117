"""`--verbose` shows every request, the identity provider's too (issue 25, item 7): signing in with client
credentials at a real OpenID provider (oidc-provider) traces the discovery and token requests, and signing out the
revocation requests, beside the agent's — and no client secret, code or token appears anywhere in what the command
prints."""

from __future__ import annotations

import json

import httpx
import pytest
from oauth_cli_support import login_with_device_code, switchboard

pytestmark = pytest.mark.interop


@pytest.fixture
def home(tmp_path, oidc_provider, oauth_agent):
    (tmp_path / "agents.yaml").write_text(
        "agents:\n"
        f"  - name: svc\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-service, clientSecretEnv: SVC_SECRET, scheme: oidc}\n"
    )
    return tmp_path


def _held_tokens(home) -> list[str]:
    store = json.loads((home / "config" / "oauth-tokens.json").read_text())
    return [t[k] for t in store.values() for k in ("access_token", "refresh_token", "id_token") if t.get(k)]


def test_verbose_traces_the_identity_providers_requests_with_no_secret_in_them(home, oidc_provider):
    discovery_url = oidc_provider.issuer.rstrip("/") + "/.well-known/openid-configuration"
    discovery = httpx.get(discovery_url).json()

    login = switchboard(home, oidc_provider, "auth", "login", "svc", "--remember", "--verbose")
    assert login.returncode == 0, login.stderr
    assert f"> GET {discovery_url}" in login.stderr
    assert f"> POST {discovery['token_endpoint']}" in login.stderr
    assert "grant_type=client_credentials" in login.stderr  # the token request's form, its secrets left out
    assert "authorization: basic [redacted]" in login.stderr.lower()  # the client secret, as HTTP Basic
    assert '"access_token": "[redacted]"' in login.stderr  # the token answer, traced without its token

    sent = switchboard(home, oidc_provider, "send", "svc", "quick hi", "--verbose")
    assert sent.returncode == 0, sent.stderr
    assert "Authorization: Bearer [redacted]" in sent.stderr

    secrets = [oidc_provider.service_secret, *_held_tokens(home)]
    assert len(secrets) >= 2  # the client secret and at least the access token

    logout = switchboard(home, oidc_provider, "auth", "logout", "svc", "--verbose")
    assert logout.returncode == 0, logout.stderr
    assert f"> POST {discovery['revocation_endpoint']}" in logout.stderr
    assert "token=[redacted]" in logout.stderr

    for done in (login, sent, logout):
        for secret in secrets:
            assert secret not in done.stdout + done.stderr


def test_verbose_traces_the_device_flow_without_its_codes(tmp_path, oidc_provider, oauth_agent):
    """The device authorization request and the token polls: the device code (which redeems for a token) is
    [redacted] in the answer that gives it and in every poll that sends it back."""
    (tmp_path / "agents.yaml").write_text(
        f"agents:\n  - name: me\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-cli, flow: deviceCode}\n"
    )
    discovery = httpx.get(oidc_provider.issuer.rstrip("/") + "/.well-known/openid-configuration").json()
    code, _, stderr = login_with_device_code(tmp_path, oidc_provider, "me", "--verbose")
    assert code == 0, stderr
    assert f"> POST {discovery['device_authorization_endpoint']}" in stderr
    assert '"device_code": "[redacted]"' in stderr
    assert "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=[redacted]" in stderr
    assert '"access_token": "[redacted]"' in stderr
