"""The MCP Inspector's CLI mode (@modelcontextprotocol/inspector from npm, its lock committed) lists switchboard
mcp's tools and calls one: a third client, written by the protocol's own maintainers, reading the same server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from mcp_support import SRC

INSPECTOR = Path(__file__).resolve().parent / "inspector"


def inspector(agents_file: Path, home: Path, *method: str) -> dict:
    node = shutil.which("node")
    binary = INSPECTOR / "node_modules" / ".bin" / "mcp-inspector"
    assert node is not None and binary.exists(), "run make test-setup (it installs the inspector)"
    argv = [str(binary), "--cli", "-e", f"PYTHONPATH={SRC}", "-e", f"SWITCHBOARD_HOME={home}"]
    argv += [sys.executable, "-m", "switchboard", "mcp", "--agents", str(agents_file), *method]
    done = subprocess.run(argv, cwd=INSPECTOR, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_inspector_lists_the_tools_and_calls_one(fleet, tmp_path):
    listed = inspector(fleet.agents_file, tmp_path, "--method", "tools/list")
    names = {tool["name"] for tool in listed["tools"]}
    assert {"ask_echo", "ask_interviewer", "continue_task", "list_agents"} <= names
    called = inspector(
        fleet.agents_file, tmp_path, "--method", "tools/call", "--tool-name", "ask_interviewer",
        "--tool-arg", "message=interview me",
    )  # fmt: skip
    # the inspector's CLI takes no elicitations: the question comes back with the call that answers it
    assert called["structuredContent"]["state"] == "input-required"
    assert called["structuredContent"]["answerWith"]["tool"] == "continue_task"
