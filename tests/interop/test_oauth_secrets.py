"""The secrets check for OAuth: the client secret and every access, refresh and ID token switchboard holds appear
in no output and no file (journals, records, exports), in any form they could leak in, through the CLI and a
workflow. The one place tokens are meant to be, the --remember store, is the source of the list, not searched."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from oauth_cli_support import login_with_device_code, switchboard

pytestmark = pytest.mark.interop

WORKFLOW = """\
version: 1
name: oauth
description: one step per OAuth flow
agents: [svc, oidcme]
steps:
  - name: machine
    agent: svc
    task: quick from the service
  - name: person
    agent: oidcme
    dependsOn: [machine]
    task: "quick after {{steps.machine.state}}"
"""


def forms(secret: str) -> set[str]:
    raw = secret.encode()
    middle = secret[len(secret) // 2 - 8 : len(secret) // 2 + 8]
    return {
        secret,
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        quote(secret, safe=""),
        quote_plus(secret),
        json.dumps(secret)[1:-1],
        middle,
    }


def held(home: Path, provider) -> dict[str, str]:
    found = {"client secret": provider.service_secret}
    store = home / "config" / "oauth-tokens.json"
    for n, token in enumerate(json.loads(store.read_text()).values()):
        for kind in ("access_token", "refresh_token", "id_token"):
            if token.get(kind):
                found[f"{kind} {n}"] = token[kind]
    return found


@pytest.fixture
def home(tmp_path, oauth_agent):
    (tmp_path / "agents.yaml").write_text(
        "agents:\n"
        f"  - name: svc\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-service, clientSecretEnv: SVC_SECRET}\n"
        f"  - name: oidcme\n    url: {oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-cli, flow: deviceCode, scheme: oidc}\n"
    )
    (tmp_path / "oauth.yaml").write_text(WORKFLOW)
    return tmp_path


def test_no_client_secret_or_token_in_any_output_or_file(home, oidc_provider):
    code, stdout, stderr = login_with_device_code(home, oidc_provider, "oidcme", "--remember")
    assert code == 0, stderr
    outputs = [stdout, stderr]
    secrets = held(home, oidc_provider)
    assert any(k.startswith("id_token") for k in secrets), "the OpenID Connect sign-in gives an ID token"
    assert any(k.startswith("refresh_token") for k in secrets)

    def run(*args: str) -> None:
        done = switchboard(home, oidc_provider, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        outputs.extend([done.stdout, done.stderr])
        secrets.update(held(home, oidc_provider))  # a refresh may have rotated them: the new ones count too

    run("send", "svc", "quick hi", "--verbose")
    run("send", "oidcme", "quick hi", "--verbose", "--record", str(home / "exchange.json"))
    run("send", "oidcme", "hello", "--stream", "-o", "json", "--verbose")
    run("card", "get", "oidcme")
    run("auth", "status", "oidcme", "-o", "json")
    run("auth", "status", "svc")
    run("run", str(home / "oauth.yaml"), "--verbose", "--stream")
    run("run", str(home / "oauth.yaml"), "-o", "json")
    run_id = json.loads(outputs[-2])["run"]["runId"]
    assert json.loads(outputs[-2])["run"]["status"] == "completed", outputs[-2]
    run("runs", "show", run_id)
    run("export", run_id, "--format", "json")

    files = {
        str(path): path.read_text(errors="replace")
        for path in home.rglob("*")
        if path.is_file() and path.name != "oauth-tokens.json"
    }
    assert any("exchange" in name for name in files) and any(name.endswith(".jsonl") for name in files)
    leaks = [
        f"{what} in {where}"
        for what, secret in secrets.items()
        for where, text in [("outputs", "\n".join(outputs)), *files.items()]
        if any(form in text for form in forms(secret))
    ]
    assert not leaks, leaks
