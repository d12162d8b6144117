"""The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk from npm, its lock committed) through every
scenario: the interview elicited, the writer's exact artifact with progress, the researcher canceled, a workflow's
question, a host without elicitation answering by continue_task, MCP tasks (the interview as a task, its questions
asked through tasks/result; a task canceled); over stdio, and the first three over HTTP."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from mcp_support import server_env

from switchboard.agents import AgentEntry
from switchboard.link import open_link

CLIENT = Path(__file__).resolve().parent / "ts_client"


def scenarios(*args: str, home: Path) -> dict[str, dict]:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed (make test-setup installs the client)"
    assert (CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir(), "run make test-setup"
    done = subprocess.run(
        [node, "scenarios.mjs", *args], cwd=CLIENT, env=server_env(home), capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {line["scenario"]: line for line in map(json.loads, done.stdout.splitlines())}


async def check_common(seen: dict[str, dict], fleet) -> None:
    assert {"ask_interviewer", "ask_writer", "continue_task"} <= set(seen["tools"]["tools"])
    interview = seen["interview"]
    assert interview["texts"][0] == "Interview summary: Ada came by to test my own agent."
    assert interview["asked"][0]["message"] == "interviewer asks: What is your name?"
    assert interview["asked"][1]["requestedSchema"]["properties"]["answer"]["enum"][1] == "test my own agent"
    writer = seen["writer"]
    entry = AgentEntry(name="writer", url=fleet.agent("writer").url)
    async with await open_link(entry) as link:
        task = await link.get_task(writer["structured"]["taskId"])
    assert writer["texts"][0] == "".join(p.text for p in task.artifacts[0].parts)
    assert any("drafting" in (p or "") for p in writer["progress"])
    assert "the person canceled" in seen["cancel"]["canceled"]
    async with await open_link(AgentEntry(name="researcher", url=fleet.agent("researcher").url)) as link:
        newest = max((await link.list_tasks()).tasks, key=lambda t: t.status.timestamp or "")
        await link.wait(newest.id)
        assert (await link.get_task(newest.id)).status.state.value == "canceled"


async def test_the_typescript_client_over_stdio(fleet, workflows, tmp_path):
    seen = scenarios("stdio", sys.executable, str(fleet.agents_file), str(workflows), home=tmp_path)
    await check_common(seen, fleet)
    workflow = seen["workflow"]
    assert workflow["structured"]["status"] == "completed"
    assert "Grace came by to learn how A2A works" in workflow["structured"]["outputs"]["summary"]
    task = seen["task"]
    assert task["seen"][0] == "working" and "input_required" in task["seen"] and task["asked"] == 2
    assert task["texts"][0] == "Interview summary: Ada came by to just looking around."
    assert task["outcome"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"]
    assert seen["task-cancel"]["after"]["status"] == "cancelled"
    async with await open_link(AgentEntry(name="researcher", url=fleet.agent("researcher").url)) as link:
        newest = max((await link.list_tasks()).tasks, key=lambda t: t.status.timestamp or "")
        await link.wait(newest.id)
        assert (await link.get_task(newest.id)).status.state.value == "canceled"
    continued = seen["continue"]
    assert continued["first"]["state"] == "input-required" and continued["first"]["question"] == "What is your name?"
    assert continued["texts"][0] == "Interview summary: Ada came by to learn how A2A works."


async def test_the_typescript_client_over_streamable_http(fleet, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "mcp", "--agents", str(fleet.agents_file), "--http", "--port", "0"],
        env=server_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[-1]
        token = process.stdout.readline().split()[1]
        seen = scenarios("http", url, token, home=tmp_path)
    finally:
        process.terminate()
        process.wait(10)
    await check_common(seen, fleet)
