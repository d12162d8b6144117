"""`switchboard auth login|status|logout` and OAuth on `send`, as a person at a shell would run them: the device
code read from stderr, entered at oidc-provider over HTTP; --remember on a box without a keyring backend (the
0600 file, with its warning); no token, refresh token or client secret in any output or in the agents file."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from oauth_cli_support import environment, login_with_device_code, switchboard, with_the_person

pytestmark = pytest.mark.interop


@pytest.fixture
def home(tmp_path, oidc_provider, oauth_agent):
    (tmp_path / "agents.yaml").write_text(
        "agents:\n"
        f"  - name: svc\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-service, clientSecretEnv: SVC_SECRET}\n"
        f"  - name: me\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-cli, flow: deviceCode}\n"
    )
    return tmp_path


def secrets_in(home: Path, provider) -> list[str]:
    """Every secret switchboard holds for these agents: the client secret and each remembered token."""
    found = [provider.service_secret]
    store = home / "config" / "oauth-tokens.json"
    if store.exists():
        for token in json.loads(store.read_text()).values():
            found += [token[k] for k in ("access_token", "refresh_token", "id_token") if token.get(k)]
    return found


def test_client_credentials_from_the_agents_file(home, oidc_provider):
    done = switchboard(home, oidc_provider, "send", "svc", "quick hi", "--verbose")
    assert done.returncode == 0, done.stderr
    assert "quick reply to: quick hi" in done.stdout
    assert "Authorization: Bearer [redacted]" in done.stderr
    for secret in secrets_in(home, oidc_provider):
        assert secret not in done.stdout + done.stderr


def test_wrong_client_secret_exit_4_with_hint(home, oidc_provider):
    env_home = home
    (env_home / "agents.yaml").write_text(
        (env_home / "agents.yaml").read_text().replace("clientSecretEnv: SVC_SECRET", "clientSecretEnv: NOT_IT")
    )
    argv = [sys.executable, "-m", "switchboard", "--agents", str(home / "agents.yaml"), "send", "svc", "hi"]
    env = {**environment(home, oidc_provider), "NOT_IT": "wrong-secret-value"}
    done = subprocess.run([*argv, "-o", "json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 4
    error = json.loads(done.stdout or done.stderr)["error"]
    assert "wrong client id or secret" in error["message"] and "NOT_IT" in error["hint"]
    assert "wrong-secret-value" not in done.stdout + done.stderr


def test_unset_secret_variable_is_named(home, oidc_provider):
    env = environment(home, oidc_provider)
    del env["SVC_SECRET"]
    argv = [sys.executable, "-m", "switchboard", "--agents", str(home / "agents.yaml"), "send", "svc", "hi"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 4 and "SVC_SECRET" in done.stderr


def test_device_login_remember_status_send_logout(home, oidc_provider):
    code, stdout, stderr = login_with_device_code(home, oidc_provider, "me", "--remember")
    assert code == 0, stderr
    assert "Signed in: yes" in stdout and "Flow: deviceCode" in stdout
    store = home / "config" / "oauth-tokens.json"
    assert f"no OS keyring here: the token is kept in {store}" in stderr
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    secrets = secrets_in(home, oidc_provider)
    assert len(secrets) >= 3, "an access and a refresh token are remembered"

    status = switchboard(home, oidc_provider, "auth", "status", "me", "-o", "json")
    assert status.returncode == 0, status.stderr
    facts = json.loads(status.stdout)
    assert facts["signedIn"] and facts["refreshToken"] and facts["rememberedIn"] == str(store)

    sent = switchboard(home, oidc_provider, "send", "me", "quick hi", "--verbose")
    assert sent.returncode == 0, sent.stderr
    assert "enter the code" not in sent.stderr  # the remembered token, no second sign-in

    remembered = json.loads((home / "config" / "oauth-tokens.json").read_text())
    (refresh_token,) = [token["refresh_token"] for token in remembered.values()]
    logout = switchboard(home, oidc_provider, "auth", "logout", "me")
    assert logout.returncode == 0 and "removed" in logout.stdout
    assert "Revoked: the refresh token" in logout.stdout, logout.stdout
    # oidc-provider cannot revoke its JWT access tokens (unsupported_token_type): said, not hidden
    assert "Revoked: the refresh token and the access token" in logout.stdout or (
        "did not revoke the access token" in logout.stdout and "until it expires" in logout.stdout
    )
    # revoked at the issuer, not just forgotten here: it no longer redeems
    refused = httpx.post(
        f"{oidc_provider.issuer}/token",
        data={"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": "switchboard-cli"},
    )
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"
    after = switchboard(home, oidc_provider, "auth", "status", "me")
    assert "Signed in: no" in after.stdout

    outputs = stdout + stderr + status.stdout + status.stderr + sent.stdout + sent.stderr + logout.stdout
    for secret in secrets:
        assert secret not in outputs
    assert all(secret not in (home / "agents.yaml").read_text() for secret in secrets)


def test_logout_where_the_issuer_names_no_revocation_endpoint_forgets_and_says_so(home, oidc_provider):
    login = switchboard(home, oidc_provider, "auth", "login", "svc", "--remember")
    assert login.returncode == 0, login.stderr
    logout = switchboard(home, oidc_provider, "auth", "logout", "svc", "-o", "json")
    assert logout.returncode == 0, logout.stderr
    outcome = json.loads(logout.stdout)
    assert outcome["signedOut"] and outcome["revoked"] == []
    assert "names no revocation endpoint" in outcome["note"] and "stays valid until it expires" in outcome["note"]
    after = switchboard(home, oidc_provider, "auth", "status", "svc", "-o", "json")
    assert json.loads(after.stdout)["signedIn"] is False


PKCE_RUN = """\
version: 1
name: pkce
agents: [pkce]
steps:
  - name: hello
    agent: pkce
    task: quick hello
outputs:
  said: "{{steps.hello.output}}"
"""


@pytest.fixture
def pkce_home(tmp_path, oidc_provider, oauth_agent):
    (tmp_path / "agents.yaml").write_text(
        f"agents:\n  - name: pkce\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-cli, flow: authorizationCode}\n"
    )
    (tmp_path / "pkce.yaml").write_text(PKCE_RUN)
    return tmp_path


def test_authorization_code_login_a_workflow_step_and_a_refusal(pkce_home, oidc_provider):
    """Authorization code with PKCE from the command line: `auth login --no-browser` prints the address (the
    person visits it), a workflow step's agent signs in the same way, and a refused consent is exit 4 with a hint."""
    code, stdout, stderr = with_the_person(pkce_home, oidc_provider, "auth", "login", "pkce", "--no-browser")
    assert code == 0, stderr
    assert "To sign in, open: http://127.0.0.1:" in stderr and "code_challenge_method=S256" in stderr

    code, stdout, stderr = with_the_person(pkce_home, oidc_provider, "run", str(pkce_home / "pkce.yaml"), "-o", "json")
    assert code == 0, stderr
    run = json.loads(stdout)["run"]
    assert run["status"] == "completed" and run["outputs"]["said"] == "quick reply to: quick hello", run

    code, stdout, stderr = with_the_person(pkce_home, oidc_provider, "auth", "login", "pkce", "--no-browser", "-o",
                                           "json", deny=True)  # fmt: skip
    assert code == 4, stderr
    error = json.loads(stdout or stderr)["error"]
    assert "consent denied" in error["message"] and error["hint"], error


def test_device_login_on_the_merged_card_the_sdk_publishes(tmp_path, oidc_provider, merged_card_oauth_agent):
    """a2a-sdk 1.3 serving v1.0 and v0.3 publishes each scheme twice in one card: the v1.0 oneof with the device
    code flow and a v0.3 `type: oauth2` copy whose `flows` is empty. The sign-in reads the v1.0 shape. The scheme is
    named: the card's OpenID Connect scheme would otherwise reach the device code through the issuer's discovery."""
    card = httpx.get(f"{merged_card_oauth_agent.url.rstrip('/')}/.well-known/agent-card.json").json()
    device = card["securitySchemes"]["device"]
    assert device["type"] == "oauth2" and device["flows"] == {}, "the SDK's card is no longer the mixed one"
    assert "deviceCode" in device["oauth2SecurityScheme"]["flows"]
    (tmp_path / "agents.yaml").write_text(
        f"agents:\n  - name: me\n    url: {merged_card_oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-cli, flow: deviceCode, scheme: device}\n"
    )
    code, stdout, stderr = login_with_device_code(tmp_path, oidc_provider, "me", "--remember")
    assert code == 0, stderr
    assert "Signed in: yes" in stdout and "Flow: deviceCode" in stdout
    sent = switchboard(tmp_path, oidc_provider, "send", "me", "quick hi")
    assert sent.returncode == 0, sent.stderr
    assert "quick reply to: quick hi" in sent.stdout
