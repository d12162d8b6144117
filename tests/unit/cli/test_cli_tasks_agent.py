"""`switchboard send` to an agents-file entry with `protocol: tasks`, against the REST task API reference server.

Each test runs the real command (`python -m switchboard`) in a subprocess, with SWITCHBOARD_HOME in tmp_path.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tasks_api_server import ASK_CONTEXT, TOKEN, TasksApiServer

SRC = Path(__file__).resolve().parents[3] / "src"
TOKEN_ENV = "ECHO_AGENT_TOKEN"


@pytest.fixture(scope="module")
def server() -> Iterator[TasksApiServer]:
    running = TasksApiServer()
    running.start()
    yield running
    running.stop()


@pytest.fixture
def home(tmp_path: Path, server: TasksApiServer) -> Path:
    """A SWITCHBOARD_HOME whose agents file names the server as `echo`, bearer token from TOKEN_ENV."""
    config = tmp_path / "home" / "config"
    config.mkdir(parents=True)
    (config / "agents.yaml").write_text(
        "agents:\n"
        "  - name: echo\n"
        f"    url: {server.base_url}\n"
        "    protocol: tasks\n"
        f"    auth: {{scheme: bearer, env: {TOKEN_ENV}}}\n",
        encoding="utf-8",
    )
    return tmp_path / "home"


def switchboard(home: Path, *argv: str, token: str | None = TOKEN) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_") and k != TOKEN_ENV}
    env.update({"PYTHONPATH": str(SRC), "SWITCHBOARD_HOME": str(home), "NO_COLOR": "1"})
    if token is not None:
        env[TOKEN_ENV] = token
    return subprocess.run(
        [sys.executable, "-m", "switchboard", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def fields(stdout: str) -> dict[str, str]:
    """The `Label: value` lines of text output (the last value of a repeated label)."""
    out = {}
    for line in stdout.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label and not label.startswith(" "):
            out[label] = value
    return out


FAST = ("--poll-interval", "0.02")


def test_send_hello_shows_completed_and_the_output_text(home, server):
    result = switchboard(home, "send", "echo", "hello", *FAST)
    assert result.returncode == 0, result.stderr
    assert fields(result.stdout)["State"] == "completed"
    assert "Hello back" in result.stdout.splitlines()
    assert result.stderr == ""
    # The token went to the server, from the variable the agents file names.
    assert server.seen[-1].headers["authorization"] == f"Bearer {TOKEN}"


def test_send_hello_as_json_is_one_task_document_with_the_output_artifact(home):
    result = switchboard(home, "send", "echo", "hello", "-o", "json", *FAST)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    task = document["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["artifacts"] == [{"artifactId": "output", "name": "output", "parts": [{"text": "Hello back"}]}]
    assert task["id"].startswith("task-")


def test_ask_stops_at_input_required_and_the_answer_with_task_id_completes_it(home):
    first = switchboard(home, "send", "echo", "ask", *FAST)
    assert first.returncode == 0, first.stderr  # waiting for input is the agent's verdict, not a failure
    asked = fields(first.stdout)
    assert asked["State"] == "input-required"
    assert "What is your name?" in first.stdout.splitlines()
    task_id = asked["Task ID"]
    assert asked["Context ID"] == ASK_CONTEXT
    assert asked["Resume"].endswith(f'send echo --task-id {task_id} --context-id {ASK_CONTEXT} "<your reply>"')
    assert "input-required" in first.stderr  # the warning that the task waits

    second = switchboard(home, "send", "echo", "--task-id", task_id, "Ada", "-o", "json", *FAST)
    assert second.returncode == 0, second.stderr
    task = json.loads(second.stdout)["task"]
    assert task["id"] == task_id
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["artifacts"] == [
        {"artifactId": "output", "name": "output", "parts": [{"data": {"greeting": "Hi Ada"}}]}
    ]


def test_the_resume_line_as_printed_keeps_the_task_in_its_context(home):
    first = switchboard(home, "send", "echo", "ask", *FAST)
    resume = fields(first.stdout)["Resume"]
    tokens = shlex.split(resume)
    argv = tokens[tokens.index("send") : -1]  # drop how the program was started and the "<your reply>" placeholder
    assert argv[:2] == ["send", "echo"]
    second = switchboard(home, *argv, "Grace", *FAST)
    assert second.returncode == 0, second.stderr
    answered = fields(second.stdout)
    assert answered["State"] == "completed"
    assert answered["Context ID"] == ASK_CONTEXT
    assert '"greeting": "Hi Grace"' in second.stdout


def test_without_the_token_variable_the_command_exits_4_naming_it(home, server):
    before = len(server.seen)
    result = switchboard(home, "send", "echo", "hello", *FAST, token=None)
    assert result.returncode == 4
    assert TOKEN_ENV in result.stderr and "A2ACLI_ERR_CREDENTIALS_MISSING" in result.stderr
    assert result.stdout == ""
    assert len(server.seen) == before  # nothing was sent without credentials


def test_a_wrong_token_is_refused_with_exit_4_and_the_echoed_token_redacted(home):
    result = switchboard(home, "send", "echo", "hello", *FAST, token="wrong-token-123")
    assert result.returncode == 4
    assert "A2ACLI_ERR_AUTH_FAILED" in result.stderr and "401" in result.stderr
    assert "wrong-token-123" not in result.stderr + result.stdout


def test_a_file_part_for_a_tasks_agent_is_a_usage_error(home, tmp_path, server):
    attachment = tmp_path / "a.txt"
    attachment.write_text("hi", encoding="utf-8")
    before = len(server.seen)
    result = switchboard(home, "send", "echo", "--file", str(attachment), "-o", "json")
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_USAGE" and "text only" in error["message"]
    assert len(server.seen) == before
