"""The `switchboard` command as a script would run it, against the official SDK servers.

Checks the output contract of the A2A CLI spec: text fields and blocks, one JSON document, JSONL under
--stream, the error envelope, and exit codes 0/1/2/3/4/5.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(tmp_path):
    def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess:
        full_env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src"), **(env or {})}
        full_env.pop("A2ACLI_API_KEY", None)
        full_env.pop("A2ACLI_BEARER", None)
        return run_cli_in_process(list(args), full_env, stdin)

    return run


def fields(stdout: str) -> dict[str, str]:
    """`Label: value` lines (the last one wins)."""
    out = {}
    for line in stdout.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label and not label.startswith(" "):
            out[label] = value
    return out


def block(stdout: str, label: str) -> str:
    """The content of a `Label:` block, up to the blank line that closes it."""
    lines = stdout.splitlines()
    start = lines.index(f"{label}:") + 1
    end = lines.index("", start)
    return "\n".join(lines[start:end])


def test_card_get_text_json_and_validate(cli, reference_server):
    text = cli("card", "get", reference_server.url)
    assert text.returncode == 0, text.stderr
    got = fields(text.stdout)
    assert got["Name"].startswith("Switchboard Reference Agent")
    binding = {"JSONRPC": "JSON-RPC", "HTTP+JSON": "HTTP+JSON", "GRPC": "gRPC"}[reference_server.binding]
    assert got["Endpoint"] == f"{reference_server.endpoint_url} ({binding}, protocol {reference_server.wire_version})"
    assert "Skill Example: hi" in text.stdout
    as_json = cli("card", "get", reference_server.url, "-o", "json")
    assert json.loads(as_json.stdout)["skills"][0]["id"] == "greet"
    validated = cli("card", "get", "--validate", reference_server.url)
    assert "Lint Result: " in validated.stdout


def test_input_required_round_trip_in_text(cli, reference_server):
    first = cli("send", reference_server.url, "hi")
    assert first.returncode == 0, first.stderr
    got = fields(first.stdout)
    assert got["State"] == "input-required"
    assert block(first.stdout, "Status Message") == "What name should I greet?"
    assert f" send {reference_server.url} --task-id {got['Task ID']}" in got["Resume"]
    assert "waiting: input-required" in first.stderr
    second = cli("send", reference_server.url, "--task-id", got["Task ID"], "--context-id", got["Context ID"], "Ada")
    assert second.returncode == 0, second.stderr
    done = fields(second.stdout)
    assert (done["State"], done["Task ID"], done["Context ID"]) == ("completed", got["Task ID"], got["Context ID"])
    assert block(second.stdout, "Artifact Text") == "Hello, Ada! Nice to meet you."
    assert "\x1b" not in first.stdout + second.stdout


def test_input_required_round_trip_in_json_and_jsonl(cli, reference_server):
    first = cli("send", reference_server.url, "hi", "-o", "json")
    task = json.loads(first.stdout)["task"]  # SendMessageResponse, v1.0 shape whatever the agent speaks
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    second = cli(
        "send", reference_server.url, "--task-id", task["id"], "--context-id", task["contextId"], "Bo", "--stream",
        "-o", "json",
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    lines = [json.loads(line) for line in second.stdout.splitlines()]
    chunks = [
        part["text"]
        for line in lines
        if "artifactUpdate" in line and line["artifactUpdate"]["artifact"]["artifactId"] == "greeting-artifact"
        for part in line["artifactUpdate"]["artifact"]["parts"]
    ]
    assert "".join(chunks) == "Hello, Bo! Nice to meet you." and len(chunks) == 3
    assert lines[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert lines[-1]["statusUpdate"]["taskId"] == task["id"]


def test_an_answer_sent_with_stream_ends_the_turn_completed(cli, reference_server):
    # A stream that answers a waiting task may open with the task as it stands, still input-required (the JS SDK
    # does; the spec has a task stream begin with the Task): that is where the turn starts, not how it ends.
    first = fields(cli("send", reference_server.url, "hi").stdout)
    assert first["State"] == "input-required"
    ids = ("--task-id", first["Task ID"], "--context-id", first["Context ID"])
    run = cli("send", reference_server.url, *ids, "Ada", "--stream")
    assert run.returncode == 0, run.stderr
    tail = fields("\n".join(run.stdout.splitlines()[-4:]))
    assert (tail["State"], tail["Task ID"], tail["Context ID"]) == ("completed", first["Task ID"], first["Context ID"])
    records = [record.splitlines() for record in run.stdout.split("\n\n")]
    chunks = [
        "\n".join(lines[lines.index("Chunk Text:") + 1 :])
        for lines in records
        if "Event: artifact-update" in lines and "Artifact ID: greeting-artifact" in lines
    ]
    assert chunks == ["Hello, ", "Ada", "! Nice to meet you."]
    assert "waiting" not in run.stderr


def test_stream_in_text_restates_ids_and_state_at_the_end(cli, reference_server):
    run = cli("send", reference_server.url, "hi", "--stream")
    assert run.returncode == 0, run.stderr
    assert "Event: status-update" in run.stdout
    tail = fields("\n".join(run.stdout.splitlines()[-4:]))
    assert tail["State"] == "input-required" and tail["Task ID"] and tail["Context ID"]


def test_parts_flags_reach_the_agent(cli, reference_server, tmp_path):
    (tmp_path / "note.txt").write_text("twelve bytes")
    # A stack that reads file bytes encoded twice gets none (see servers.py).
    file = [] if reference_server.file_bytes_twice_encoded else ["--file", str(tmp_path / "note.txt")]
    run = cli(
        "send", reference_server.url, "parts please", "--data", '{"n": 1}', *file, "--media-type", "text/plain",
        "-o", "json",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    artifacts = {a["artifactId"]: a for a in json.loads(run.stdout)["task"]["artifacts"]}
    received = artifacts["received-artifact"]["parts"][0]["data"]
    assert received["kinds"] == ["text", "data", "file"][: 2 + len(file) // 2]
    if file:
        name = "note.txt" if reference_server.file_names_travel else None
        assert received["files"][0]["name"] == name and received["files"][0]["mediaType"] == "text/plain"
        assert received["files"][0]["size"] == 12


def test_async_send_then_get_and_cancel(cli, reference_server):
    started = cli("send", reference_server.url, "slow job", "--async")
    got = fields(started.stdout)
    assert got["State"] in ("submitted", "working")
    canceled = cli("task", "cancel", reference_server.url, got["Task ID"])
    assert fields(canceled.stdout)["State"] == "canceled"
    again = cli("task", "get", reference_server.url, got["Task ID"], "-o", "json")
    assert json.loads(again.stdout)["status"]["state"] == "TASK_STATE_CANCELED"


def test_subscribe_follows_a_running_task_to_its_end(cli, reference_server, tmp_path):
    started = fields(cli("send", reference_server.url, "slow job", "--async").stdout)
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
    watcher = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "task", "subscribe", reference_server.url, started["Task ID"],
         "--stream", "-o", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    first = watcher.stdout.readline()  # the subscription is live once its first event arrives
    assert first, watcher.stderr.read()
    time.sleep(0.3)
    cli("task", "cancel", reference_server.url, started["Task ID"])
    out, err = watcher.communicate(timeout=60)
    assert watcher.returncode == 0, err
    last = json.loads(out.splitlines()[-1] if out.strip() else first)
    final = last.get("task") or last.get("statusUpdate")
    assert final["status"]["state"] == "TASK_STATE_CANCELED"


def test_unknown_task_is_the_a2a_error_with_exit_1(cli, reference_server):
    run = cli("task", "get", reference_server.url, "no-such-task", "-o", "json")
    assert run.returncode == 1
    error = json.loads(run.stdout)["error"]
    assert (error["code"], error["a2aCode"]) == ("TaskNotFoundError", -32001)
    assert error["hint"]
    text = cli("task", "get", reference_server.url, "no-such-task")
    assert "Code: TaskNotFoundError" in text.stderr and text.stdout == ""


def test_a_failed_task_is_exit_0_with_the_outcome_in_the_output(cli, reference_server):
    run = cli("send", reference_server.url, "fail please")
    assert run.returncode == 0
    assert fields(run.stdout)["State"] == "failed"
    assert "ended failed" in run.stderr


def test_api_key_agent_exit_4_without_and_0_with_and_never_shown(cli, auth_server):
    missing = cli("send", auth_server.url, "quick hello", "-o", "json")
    assert missing.returncode == 4
    assert json.loads(missing.stdout)["error"]["code"] == "A2ACLI_ERR_CREDENTIALS_MISSING"
    env = {"AGENT_KEY": auth_server.api_key}
    ok = cli("send", auth_server.url, "quick hello", "--api-key-env", "AGENT_KEY", "--verbose", env=env)
    assert ok.returncode == 0, ok.stderr
    assert "quick reply to: quick hello" in ok.stdout
    assert "x-api-key: [redacted]" in ok.stderr.lower()  # gRPC metadata keys are lower case
    assert auth_server.api_key not in ok.stdout + ok.stderr
    wrong = cli("send", auth_server.url, "quick hello", "--api-key-env", "AGENT_KEY", env={"AGENT_KEY": "nope-nope"})
    assert wrong.returncode == 4 and "A2ACLI_ERR_AUTH_FAILED" in wrong.stderr
    unset = cli("send", auth_server.url, "quick hello", "--api-key-env", "NOT_SET_ANYWHERE")
    assert unset.returncode == 4 and "NOT_SET_ANYWHERE" in unset.stderr


def test_timeout_is_exit_5(cli, reference_server):
    run = cli("send", reference_server.url, "slow job", "--timeout", "0.5", "-o", "json")
    assert run.returncode == 5
    assert json.loads(run.stdout)["error"]["code"] == "A2ACLI_ERR_TIMEOUT"


def test_task_list_on_a_v10_agent(cli, reference_server):
    run = cli("task", "list", reference_server.url, "-o", "json")
    if reference_server.wire_version == "1.0":
        assert run.returncode == 0, run.stderr
        assert "tasks" in json.loads(run.stdout)
    else:
        assert run.returncode == 2 and "1.0" in json.loads(run.stdout)["error"]["hint"]


def test_unreachable_and_usage_errors(cli):
    down = cli("card", "get", "http://127.0.0.1:9/")
    assert down.returncode == 3 and "127.0.0.1:9" in down.stderr
    usage = cli("send", "-o", "json")
    assert usage.returncode == 2
    assert json.loads(usage.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"
    bad_flag = cli("send", "--no-such-flag", "-o", "json")
    assert bad_flag.returncode == 2 and json.loads(bad_flag.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"
    bad_data = cli("send", "http://127.0.0.1:9/", "x", "--data", "{broken")
    assert bad_data.returncode == 2 and "not valid JSON" in bad_data.stderr


def test_agents_file_names_and_credentials(cli, auth_server, tmp_path):
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "agents.yaml").write_text(
        f"agents:\n  - name: guarded\n    url: {auth_server.url}\n    apiKeyEnv: GUARDED_KEY\n"
    )
    run = cli("send", "guarded", "quick hello", env={"GUARDED_KEY": auth_server.api_key})
    assert run.returncode == 0, run.stderr
    assert "quick reply to: quick hello" in run.stdout


def test_a_forced_binding_is_spoken_where_the_card_offers_it_and_else_refused_naming_what_it_does(
    cli, reference_server
):
    other = "jsonrpc" if reference_server.binding == "HTTP+JSON" else "rest"
    run = cli("send", reference_server.url, "quick hello", "--binding", other, "--verbose")
    if reference_server.stack == "js":  # its cards list both bindings
        assert run.returncode == 0, run.stderr
        assert "quick reply to: quick hello" in run.stdout
        (posted,) = [line for line in run.stderr.splitlines() if " > POST " in line]
        assert ("/rest/" in posted) == (other == "rest")
    else:
        assert run.returncode == 2, run.stderr
        assert "does not offer" in run.stderr and "Drop --binding" in run.stderr
        assert " > POST " not in run.stderr  # refused before anything was sent


def test_subscribing_to_a_finished_task_prints_the_task_and_no_warning(cli, reference_server):
    done = fields(cli("send", reference_server.url, "fail please").stdout)
    assert done["State"] == "failed"
    run = cli("task", "subscribe", reference_server.url, done["Task ID"])
    assert run.returncode == 0, run.stderr
    assert fields(run.stdout)["State"] == "failed"
    # A normal case: the task had ended, and that is the answer; its outcome is the one line about it.
    assert run.stderr.strip() == "warning: the task ended failed"
    unknown = cli("task", "subscribe", reference_server.url, "no-such-task")
    assert unknown.returncode == 1 and "Code: TaskNotFoundError" in unknown.stderr
    assert "stream broke" not in unknown.stderr


def test_a_refused_message_to_a_finished_task_hints_at_a_new_task(cli, reference_server):
    done = fields(cli("send", reference_server.url, "fail please").stdout)
    run = cli("send", reference_server.url, "more", "--task-id", done["Task ID"], "-o", "json")
    error = json.loads(run.stdout).get("error") if run.returncode else None
    if error and error["code"] == "UnsupportedOperationError":
        assert "new task" in error["hint"]
