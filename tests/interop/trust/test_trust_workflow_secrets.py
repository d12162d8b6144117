"""HTTP Basic and mutual TLS in a workflow step, and the Basic password in no output or file: the run's stdout and
stderr (--verbose wire traces, --stream, -o json), a refused run, `runs show`, exports, the journal."""

from __future__ import annotations

import base64
import json
from pathlib import Path

PASSWORD = "basic-secret-1234"  # what the trust server's /basic/ agent checks
WRONG = "wrong+pass/word=9876"
FLOW = """\
version: 1
name: trusted
description: one step behind HTTP Basic, one behind mutual TLS
agents: [gate, vault]
steps:
  - name: basic
    agent: gate
    task: quick hello
  - name: mtls
    agent: vault
    task: quick hello
"""


def forms(secret: str) -> set[str]:
    pair = f"ada:{secret}".encode()
    return {
        secret,
        base64.b64encode(pair).decode(),
        base64.b64encode(secret.encode()).decode(),
        json.dumps(secret)[1:-1],
    }


def test_basic_and_mtls_steps_run_and_no_password_leaks(cli, cards_server, mtls_server, pki, tmp_path):
    bundle, _, _ = pki
    agents = tmp_path / "agents.yaml"
    agents.write_text(
        "agents:\n"
        f"  - name: gate\n    url: {cards_server.url}basic/\n    auth: {{scheme: basic, user: ada, env: GATE_PW}}\n"
        f"  - name: vault\n    url: {mtls_server.url}\n"
        f"    tls: {{cert: {bundle.client_cert}, key: {bundle.client_key}, ca: {bundle.ca}}}\n"
    )
    flow = tmp_path / "trusted.yaml"
    flow.write_text(FLOW)
    env = {"GATE_PW": PASSWORD}
    base = ["--agents", str(agents), "run", str(flow)]
    outputs = []
    streamed = cli(*base, "--verbose", "--stream", env=env)
    outputs.append(streamed.stdout + streamed.stderr)
    assert streamed.returncode == 0, streamed.stderr
    as_json = cli(*base, "-o", "json", env=env)
    outputs.append(as_json.stdout + as_json.stderr)
    run = json.loads(as_json.stdout)["run"]
    assert run["status"] == "completed", as_json.stdout
    refused = cli(*base, "--verbose", env={"GATE_PW": WRONG})
    outputs.append(refused.stdout + refused.stderr)
    assert "HTTP 401" in refused.stderr
    for command in (["runs", "show", run["runId"]], ["export", run["runId"], "--format", "json"]):
        shown = cli(*command)
        assert shown.returncode == 0, shown.stderr
        outputs.append(shown.stdout + shown.stderr)
    files = [p.read_text(errors="replace") for p in Path(tmp_path).rglob("*") if p.is_file() and p.suffix != ".pem"]
    key_body = bundle.client_key.read_text().splitlines()[1]  # a line of the client's private key
    everything = "\n".join(outputs + [f for f in files if "PRIVATE KEY" not in f])
    leaked = [form for secret in (PASSWORD, WRONG) for form in forms(secret) if form in everything]
    assert not leaked
    assert key_body not in "\n".join(outputs)


def test_an_inline_workflow_agent_takes_tls_with_paths_beside_the_workflow(cli, mtls_server, pki, tmp_path):
    bundle, _, _ = pki
    for name in ("client.pem", "client.key", "ca.pem"):
        (tmp_path / name).write_bytes((bundle.ca.parent / name).read_bytes())
    flow = tmp_path / "inline.yaml"
    flow.write_text(
        "version: 1\nname: inline\ndescription: an inline agent behind mutual TLS\n"
        f"agents:\n  vault:\n    url: {mtls_server.url}\n    tls: {{cert: client.pem, key: client.key, ca: ca.pem}}\n"
        "steps:\n  - name: hello\n    agent: vault\n    task: quick hello\n"
    )
    done = cli("run", str(flow), "-o", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["run"]["status"] == "completed", done.stdout
