"""auth-required mid-task, answered by a sign-in: the agent (oauth_server.py's vault) stops its task asking for
the scope a2a:admin; `send` at a terminal offers the flow and goes on with the new token, elsewhere it prints the
`auth login` command that would. Real parts: oidc-provider, an a2a-sdk agent checking the JWT's scope."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import threading

import pytest
from oauth_cli_support import DEVICE_LINE, environment, switchboard
from oidc_user import enter_device_code

from switchboard.a2a.auth.sign_in_offer import sign_in_offer
from switchboard.a2a.model import AgentCard, DataPart, Message, TextPart

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


def test_away_from_a_terminal_the_hint_names_the_login_then_the_answer_completes(home, oidc_provider):
    asked = switchboard(home, oidc_provider, "send", "svc", "open the vault")
    assert asked.returncode == 0, asked.stderr
    assert "State: auth-required" in asked.stdout
    login = re.search(r"`([^`]*auth login svc[^`]*)`", asked.stderr)
    assert login, asked.stderr
    assert "--scope a2a:send --scope a2a:admin --remember" in login.group(1)
    task_id = re.search(r"Task ID: (\S+)", asked.stdout).group(1)
    context_id = re.search(r"Context ID: (\S+)", asked.stdout).group(1)

    signed = switchboard(home, oidc_provider, "auth", "login", "svc", "--scope", "a2a:send", "--scope", "a2a:admin",
                         "--remember")  # fmt: skip
    assert signed.returncode == 0, signed.stderr
    assert "a2a:admin" in signed.stdout
    scopes = ["--scope", "a2a:send", "--scope", "a2a:admin"]
    answered = switchboard(home, oidc_provider, "send", "svc", *scopes, "--task-id", task_id, "--context-id",
                           context_id, "signed in")  # fmt: skip
    assert answered.returncode == 0, answered.stderr
    assert "State: completed" in answered.stdout and "The vault is open." in answered.stdout


def at_a_terminal(home, provider, *args: str) -> tuple[int, str, str, int]:
    """`switchboard ARGS` with stdin a pseudo-terminal where the person answers yes; each device code printed is
    entered at the provider. Returns the exit code, stdout, stderr and how many codes were entered."""
    primary, secondary = pty.openpty()
    argv = [sys.executable, "-m", "switchboard", "--agents", str(home / "agents.yaml"), *args]
    process = subprocess.Popen(
        argv, stdin=secondary, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(home, provider),
    )  # fmt: skip
    os.close(secondary)
    os.write(primary, b"y\n")
    played: list[BaseException | str] = []
    stderr_lines: list[str] = []
    assert process.stderr is not None
    codes = 0
    for line in process.stderr:
        stderr_lines.append(line)
        found = DEVICE_LINE.search(line)
        if found:
            codes += 1

            def play(uri: str = found.group(1), code: str = found.group(2)) -> None:
                try:
                    played.append(enter_device_code(uri, code))
                except BaseException as exc:
                    played.append(exc)

            threading.Thread(target=play, daemon=True).start()
    stdout = process.stdout.read() if process.stdout else ""
    code = process.wait(60)
    os.close(primary)
    assert all(isinstance(p, str) for p in played), played
    return code, stdout, "".join(stderr_lines), codes


def test_at_a_terminal_send_offers_the_sign_in_and_the_task_goes_on(home, oidc_provider):
    code, stdout, stderr, codes = at_a_terminal(home, oidc_provider, "send", "me", "open the vault")
    assert code == 0, stderr
    assert codes == 2, stderr  # the first sign-in (a2a:send), then the one the task asked for
    assert "wants a sign-in with a2a:admin (the agent's question). Sign in now? [Y/n]" in stderr
    assert "State: completed" in stdout and "The vault is open." in stdout


def test_insufficient_scope_at_a_terminal_signs_in_wider_and_sends_again(tmp_path, oidc_provider, narrow_oauth_agent):
    (tmp_path / "agents.yaml").write_text(
        f"agents:\n  - name: narrow\n    url: {narrow_oauth_agent.url}\n"
        "    oauth: {clientId: switchboard-service, clientSecretEnv: SVC_SECRET}\n"
    )
    away = switchboard(tmp_path, oidc_provider, "send", "narrow", "quick hi")
    assert away.returncode == 4
    assert "auth login AGENT --scope a2a:admin --remember" in away.stderr
    code, stdout, stderr, _ = at_a_terminal(tmp_path, oidc_provider, "send", "narrow", "quick hi")
    assert code == 0, stderr
    assert "insufficient_scope). Sign in now?" in stderr
    assert "quick reply to: quick hi" in stdout


CARD = {
    "name": "c",
    "securitySchemes": {
        "corp": {"oauth2SecurityScheme": {"flows": {"deviceCode": {"deviceAuthorizationUrl": "https://i/d",
                 "tokenUrl": "https://i/t", "scopes": {"read": "", "admin:all": ""}}}}},
        "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}},
    },
    "securityRequirements": [{"schemes": {"corp": {"list": ["read"]}}}],
}  # fmt: skip


def _card(raw: dict) -> AgentCard:
    from switchboard.a2a.cards import parse_card

    interface = {"url": "https://a/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    return parse_card({**raw, "supportedInterfaces": [interface], "version": "1", "description": "d"})


@pytest.mark.parametrize(
    ("parts", "scopes", "source"),
    [
        ([TextPart(text='Bearer error="insufficient_scope", scope="admin:all read"')], ("admin:all", "read"),
         "the agent's question"),
        ([TextPart(text="This needs admin:all. Please sign in.")], ("admin:all",), "the agent's question"),
        ([DataPart(data={"scopes": ["x:y"], "scheme": "corp"})], ("x:y",), "the agent's question"),
        ([TextPart(text="Give me your passcode")], ("read",), "the card's security requirement"),
        ([TextPart(text='scope="$(rm -rf ~) ok"')], ("ok",), "the agent's question"),
    ],
)  # fmt: skip
def test_what_a_question_asks_for(parts, scopes, source):
    offer = sign_in_offer(_card(CARD), Message(role="agent", message_id="m", parts=parts))
    assert offer is not None and offer.scopes == scopes and offer.source == source


def test_no_oauth_scheme_no_offer():
    card = _card({**CARD, "securitySchemes": {"key": CARD["securitySchemes"]["key"]}, "securityRequirements": []})
    assert sign_in_offer(card, Message(role="agent", message_id="m", parts=[TextPart(text='scope="a"')])) is None


VAULT_RUN = """\
version: 1
name: vault
agents: [{agent}]
steps:
  - name: open
    agent: {agent}
    task: open the vault
outputs:
  said: "{{{{steps.open.output}}}}"
"""


def test_a_workflow_step_at_a_terminal_offers_the_sign_in_and_the_run_goes_on(home, oidc_provider):
    flow = home / "vault.yaml"
    flow.write_text(VAULT_RUN.format(agent="me"))
    code, stdout, stderr, codes = at_a_terminal(home, oidc_provider, "run", str(flow), "-o", "json")
    assert code == 0, stderr
    assert codes == 2, stderr  # the step's link signs in (a2a:send), then the task's question asks for a2a:admin
    assert "open (me) asks (auth-required)" in stderr
    assert "wants a sign-in with a2a:admin (the agent's question). Sign in now? [Y/n]" in stderr
    run = json.loads(stdout)["run"]
    assert run["status"] == "completed", run
    assert run["outputs"]["said"] == "The vault is open."


def test_a_workflow_step_away_from_a_terminal_says_how_then_a_resume_at_one_signs_in(home, oidc_provider):
    flow = home / "vault.yaml"
    flow.write_text(VAULT_RUN.format(agent="svc"))
    away = switchboard(home, oidc_provider, "run", str(flow), "-o", "json")
    assert away.returncode == 0, away.stderr
    run = json.loads(away.stdout)["run"]
    assert run["status"] == "awaiting_input", run
    assert "open wants a sign-in with a2a:admin (the agent's question): continue the run at a terminal" in away.stderr
    # Client credentials need no person: at a terminal the yes is all it takes.
    code, stdout, stderr, codes = at_a_terminal(home, oidc_provider, "run", "--resume", run["runId"], "-o", "json")
    assert code == 0, stderr
    assert codes == 0 and "Sign in now? [Y/n]" in stderr
    resumed = json.loads(stdout)["run"]
    assert resumed["status"] == "completed" and resumed["outputs"]["said"] == "The vault is open.", resumed


def test_send_stream_at_a_terminal_offers_the_sign_in_and_streams_the_next_turn(home, oidc_provider):
    code, stdout, stderr, codes = at_a_terminal(home, oidc_provider, "send", "me", "open the vault", "--stream")
    assert code == 0, stderr
    assert codes == 2, stderr
    assert "Sign in now? [Y/n]" in stderr
    assert "auth-required" in stdout and "The vault is open." in stdout and "completed" in stdout
