"""A workflow whose interactive step runs on each stack of the matrix, answered headless with --answer.

The answer's turn may open with the task still asking (the JavaScript SDK's stream does): the step must take the
agent's real outcome, complete with the greeting, not stop at awaiting-input on a task that is done.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

from cli_runner import run_cli_in_process

REPO = Path(__file__).resolve().parents[2]


def run_workflow(tmp_path: Path, url: str, *args: str, binding: str | None = None) -> subprocess.CompletedProcess:
    workflow = tmp_path / "greet.yaml"
    forced = f"binding: {binding}" if binding else ""
    workflow.write_text(
        textwrap.dedent(
            f"""
            version: 1
            name: greet
            agents:
              - name: ref
                url: {url}
                {forced}
            steps:
              - name: greet
                agent: ref
                task: hi
                interactive: true
            outputs:
              greeting: "{{{{steps.greet.output}}}}"
            """
        ).lstrip()
    )
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
    return run_cli_in_process(["run", str(workflow), *args], env, "")


def test_an_interactive_step_answered_with_answer_completes(reference_server, tmp_path):
    done = run_workflow(tmp_path, reference_server.url, "--answer", "greet=Grace", "-o", "json")
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)["run"]
    assert run["status"] == "completed", done.stderr
    assert run["outputs"] == {"greeting": "Hello, Grace! Nice to meet you."}


def test_a_binding_forced_for_the_inline_agent_is_spoken_or_the_step_fails_as_misconfigured(reference_server, tmp_path):
    other = "jsonrpc" if reference_server.binding == "HTTP+JSON" else "rest"
    done = run_workflow(tmp_path, reference_server.url, "--answer", "greet=Grace", "-o", "json", binding=other)
    run = json.loads(done.stdout)["run"]
    if reference_server.stack == "js":  # its cards list both bindings
        assert run["status"] == "completed", done.stderr
        assert run["outputs"] == {"greeting": "Hello, Grace! Nice to meet you."}
    else:
        assert run["status"] == "failed"
        assert "A2A_CONFIG_INVALID" in done.stdout and "does not offer" in done.stdout
