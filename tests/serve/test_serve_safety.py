"""What keeps a served workflow safe: the API key (401 without it, the card still public), shell steps refused
unless allowed, bounds on request size and on runs in flight, loopback by default, and a hostile caller's text
kept off the server's terminal."""

from __future__ import annotations

import json

import httpx
from serve_support import EXAMPLES, WORKFLOWS, cli, fields, serve_env

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.client import connect, new_message
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.model import DataPart, TaskState

SERVE_KEY = "s3rve-key"


async def test_without_the_api_key_every_call_gets_401_and_the_card_says_which_key(serve, home):
    served = serve(
        str(EXAMPLES / "interview.yaml"),
        "--api-key-env",
        "SERVE_TEST_KEY",
        env=serve_env(home, SERVE_TEST_KEY=SERVE_KEY),
    )
    url = served.url("interview")
    async with httpx.AsyncClient() as http:
        card = await http.get(url + ".well-known/agent-card.json")
        assert card.status_code == 200
        body = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}
        refused = await http.post(url, json=body, headers={"A2A-Version": "1.0"})
        assert refused.status_code == 401 and "X-API-Key" in refused.json()["detail"]
        wrong = await http.post(url, json=body, headers={"A2A-Version": "1.0", "X-API-Key": "nope"})
        assert wrong.status_code == 401
        rest = await http.get(url + "rest/tasks/x", headers={"A2A-Version": "1.0"})
        assert rest.status_code == 401
    schemes = card.json()["securitySchemes"]
    assert schemes["apiKey"]["apiKeySecurityScheme"] == {"location": "header", "name": "X-API-Key"}
    assert schemes["apiKey"]["in"] == "header"  # the v0.3 form beside it, for 0.3 clients
    # Our command line: refused (exit 4) without the key, served with it.
    refused = cli(home, "send", url, "hello")
    assert refused.returncode == 4, refused.stderr
    done = cli(home, "send", url, "hello", "--api-key-env", "KEY", env={"KEY": SERVE_KEY})
    assert done.returncode == 0, done.stderr
    assert fields(done.stdout)["State"] == "input-required"
    async with await connect(url, credentials=Credentials(api_key=SERVE_KEY)) as client:
        task = await client.send(new_message("hello"))
    assert task.status.state is TaskState.INPUT_REQUIRED


def test_an_unset_key_variable_is_a_usage_error(home, agents_file):
    done = cli(
        home,
        "serve",
        "--agents",
        str(agents_file),
        str(EXAMPLES / "interview.yaml"),
        "--api-key-env",
        "NOT_SET_ANYWHERE",
    )
    assert done.returncode == 2
    assert "NOT_SET_ANYWHERE" in done.stderr and "not set" in done.stderr


def test_a_workflow_with_shell_steps_is_refused_unless_allowed(home, agents_file, serve):
    refused = cli(home, "serve", "--agents", str(agents_file), "--port", "0", str(WORKFLOWS / "shell.yaml"))
    assert refused.returncode == 2
    assert "shell steps (say)" in refused.stderr and "--allow-shell" in refused.stderr
    assert "a caller's inputs would reach a shell" in refused.stderr
    served = serve(str(WORKFLOWS / "shell.yaml"), "--allow-shell")
    done = cli(home, "send", served.url("shell"), "it's quoted; rm -rf /")
    assert fields(done.stdout)["State"] == "completed", done.stdout
    assert "it's quoted; rm -rf /" in done.stdout  # the value reached the shell as one quoted word


async def test_runs_over_max_runs_are_rejected_with_a_clear_message(serve):
    served = serve(str(WORKFLOWS / "long.yaml"), "--max-runs", "1")
    async with await connect(served.url("long")) as client:
        first = await client.send(new_message("tides"), blocking=False)
        busy = await client.send(new_message("tides"))
        assert busy.status.state is TaskState.REJECTED
        assert "runs 1 run at once (--max-runs), all busy; try again when one ends" in busy.status.message.text
        [data] = [p for p in busy.status.message.parts if isinstance(p, DataPart)]
        assert data.data == {"code": "SERVE_BUSY"}
        await client.cancel_task(first.id)
        again = await client.send(new_message("waves"), blocking=False)
        assert again.status.state is not TaskState.REJECTED
        await client.cancel_task(again.id)


async def test_a_request_over_the_size_bound_gets_413_before_the_sdk_reads_it(serve):
    served = serve(str(WORKFLOWS / "one-echo.yaml"))
    url = served.url("one-echo")
    message = {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "x" * (2 << 20)}]}
    body = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}}
    async with httpx.AsyncClient(timeout=30) as http:
        refused = await http.post(
            url, content=json.dumps(body), headers={"A2A-Version": "1.0", "Content-Type": "application/json"}
        )
    assert refused.status_code == 413
    async with await connect(url) as client:
        with_our_client = None
        try:
            await client.send(new_message("y" * (2 << 20)))
        except SwitchboardError as exc:
            with_our_client = exc
    assert with_our_client is not None and "413" in with_our_client.message


def test_loopback_unless_a_host_is_given(serve):
    served = serve(str(WORKFLOWS / "one-echo.yaml"))
    assert served.url("one-echo").startswith("http://127.0.0.1:")


async def test_a_hostile_callers_text_never_reaches_the_servers_terminal_unescaped(serve, home):
    served = serve(str(WORKFLOWS / "one-echo.yaml"))
    evil = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202e"
    async with await connect(served.url("one-echo")) as client:
        message = new_message(evil, metadata={"correlationId": evil + "trace"})
        task = await client.send(message)
        rejected = await client.send(new_message([DataPart(data={evil: "x", "text": evil})]))
    assert task.status.state is TaskState.COMPLETED
    assert rejected.status.state is TaskState.REJECTED
    served.interrupt()
    printed = served.text + "".join(served.stderr)
    assert "owned[2J[31mredtrace" in printed  # the trace id is logged, its control characters gone
    assert not any(ch in printed for ch in "\x1b\x07\u202e")
    # Nor a terminal that shows the run: the echo step's output is the caller's text, read back from the journal.
    shown = cli(home, "runs", "show", task.id)
    assert shown.returncode == 0 and "red" in shown.stdout
    assert not any(ch in shown.stdout + shown.stderr for ch in "\x1b\x07\u202e")
