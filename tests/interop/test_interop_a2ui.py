"""An A2UI agent built with the A2UI project's own `a2ui-a2a` helpers, on a2a-sdk 0.3.26 (native v0.3): switchboard
activates the extension its card declares, reads the form its helpers make (one message per data part, the v0.9.1
media type), answers it from the command line in the shape that agent reads, and falls back to words without."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from a2ui_schemas import client_event_errors
from cli_runner import run_cli_in_process
from servers import _pump, _wait_ready, a2a03_python

REPO = Path(__file__).resolve().parents[2]
AGENTS = Path(__file__).resolve().parent / "agents"


@pytest.fixture(scope="module")
def rsvp() -> Iterator[str]:
    """The agent's base URL; it stops with the module (or when this process goes: its stdin closes)."""
    process = subprocess.Popen(
        [a2a03_python(), str(AGENTS / "a2ui03_server.py"), "--exit-on-stdin-eof"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=AGENTS,
    )  # fmt: skip
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    try:
        yield _wait_ready(lines, 60)[0]
    finally:
        process.terminate()
        process.wait(10)


def _cli(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
    return run_cli_in_process(list(args), env)


def _fields(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.splitlines() if ": " in line and not line.startswith(" "))


def test_the_a2ui_a2a_agents_form_is_read_and_answered(rsvp, tmp_path):
    asked = _cli(tmp_path, "send", rsvp, "hello")
    assert asked.returncode == 0, asked.stderr
    assert "Form rsvp (A2UI v0.9)" in asked.stdout and "Your name [/rsvp/name]: (empty)" in asked.stdout
    task_id = _fields(asked.stdout)["Task ID"]
    refused = _cli(tmp_path, "send", rsvp, "--task-id", task_id, "--a2ui-action", "rsvp")
    assert refused.returncode == 2 and "Your name, please." in refused.stderr
    done = _cli(tmp_path, "send", rsvp, "--task-id", task_id, "--a2ui-action", "rsvp", "--data",
                json.dumps({"/rsvp/name": "Ada", "/rsvp/guests": 3, "/rsvp/veg": True}))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "RSVP from Ada, 3 guests, vegetarian True" in done.stdout
    task = json.loads(_cli(tmp_path, "task", "get", rsvp, task_id, "--history", "10", "-o", "json").stdout)
    sent = [p["data"] for m in task["history"] if m["role"] == "ROLE_USER" for p in m["parts"] if "data" in p]
    assert len(sent) == 1 and client_event_errors(sent[0], "v0.9.1") == []  # one event, as the agent's own shape


def test_without_a2ui_the_agent_asks_in_words(rsvp, tmp_path):
    asked = _cli(tmp_path, "send", rsvp, "hello", "--no-a2ui")
    assert "A2UI not activated" in asked.stdout and "Form" not in asked.stdout
