"""A host that cannot elicit, and calls that must not be held: the question comes back at once with the tool that
answers it; a task still working past the bound comes back by id and continue_task waits for it again; a changed
agents file tells the host its tool list changed. Then the same over streamable HTTP, behind its token and
Origin check. And a client of the 2026-07-28 revision, which takes a question as the call's result."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys

import httpx
import mcp_types as types
import pytest
from cli_runner import run_cli_in_process
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp_support import Person, http_session, server_env, texts


async def test_a_client_without_elicitation_gets_the_question_and_answers_it_with_continue_task(fleet, tmp_path):
    agents = tmp_path / "agents.yaml"
    shutil.copy(fleet.agents_file, agents)
    changed = asyncio.Event()

    async def messages(message: object) -> None:
        if isinstance(message, types.ServerNotification) and message.method == "notifications/tools/list_changed":
            changed.set()

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "switchboard", "mcp", "--agents", str(agents), "--wait", "1.5"],
        env=server_env(tmp_path),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write, message_handler=messages) as host:
        await host.initialize()
        asked = await host.call_tool("ask_interviewer", {"message": "interview me"})
        assert asked.structured_content["state"] == "input-required"
        assert asked.structured_content["question"] == "What is your name?"
        task_id = asked.structured_content["taskId"]
        assert asked.structured_content["answerWith"] == {
            "tool": "continue_task",
            "arguments": {"agent": "interviewer", "taskId": task_id},
        }
        second = await host.call_tool("continue_task", {"agent": "interviewer", "taskId": task_id, "answer": "Ada"})
        assert second.structured_content["choices"][0] == "learn how A2A works"
        done = await host.call_tool("continue_task", {"agent": "interviewer", "taskId": task_id, "answer": "2"})
        assert texts(done)[0] == "Interview summary: Ada came by to test my own agent."

        # the researcher takes 4 s; the call gives back after 1.5 s, and continue_task waits again
        running = await host.call_tool("ask_researcher", {"message": "deep: tides"})
        assert running.structured_content["state"] == "working"
        research = running.structured_content["taskId"]
        for _ in range(5):
            again = await host.call_tool("continue_task", {"agent": "researcher", "taskId": research})
            if again.structured_content["state"] != "working":
                break
        assert again.structured_content["state"] == "completed"

        await host.list_tools()
        agents.write_text(agents.read_text() + "  - name: newcomer\n    url: http://127.0.0.1:9/\n")
        await asyncio.wait_for(changed.wait(), 30)
        assert "ask_newcomer" in {tool.name for tool in (await host.list_tools()).tools}


@pytest.fixture
def http_server(fleet, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "mcp", "--agents", str(fleet.agents_file), "--http", "--port", "0"],
        env=server_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    url = process.stdout.readline().split()[-1]
    token = re.match(r"token: (\S+)", process.stdout.readline()).group(1)
    yield url, token
    process.terminate()
    process.wait(10)


async def test_over_streamable_http_the_token_and_origin_are_checked_before_anything_and_the_interview_elicited(
    http_server,
):
    url, token = http_server
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient() as raw:
        assert (await raw.post(url, json=ping, headers=headers)).status_code == 401
        wrong = {**headers, "authorization": "Bearer not-the-token"}
        assert (await raw.post(url, json=ping, headers=wrong)).status_code == 401
        elsewhere = {**headers, "authorization": f"Bearer {token}", "origin": "http://localhost:1"}
        assert (await raw.post(url, json=ping, headers=elsewhere)).status_code == 403
    person = Person(["Ada", "just looking around"])
    async with http_session(url, token, person=person) as host:
        result = await host.call_tool("ask_interviewer", {"message": "interview me"})
    assert texts(result)[0] == "Interview summary: Ada came by to just looking around."
    assert len(person.asked) == 2


def test_the_command_says_what_is_wrong_with_its_flags(tmp_path):
    missing = run_cli_in_process(["mcp", "--agents", str(tmp_path / "nowhere.yaml")], server_env(tmp_path))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    no_folder = run_cli_in_process(
        ["mcp", "--agents", str(tmp_path / "nowhere.yaml"), "--workflows", str(tmp_path / "none")], server_env(tmp_path)
    )
    assert no_folder.returncode == 2
    weak = run_cli_in_process(["mcp", "--http", "--token-env", "SHORT"], server_env(tmp_path, {"SHORT": "abc"}))
    assert weak.returncode == 2 and "shorter than 16" in weak.stderr


async def test_a_2026_client_gets_the_question_as_the_calls_result_and_calls_again_with_the_answer(fleet, tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "switchboard", "mcp", "--agents", str(fleet.agents_file)],
        env=server_env(tmp_path),
    )
    person = Person(["Ada", "learn how A2A works"])
    async with Client(params, elicitation_callback=person) as host:  # negotiates 2026-07-28: no handshake
        assert host.protocol_version == "2026-07-28"
        result = await host.call_tool("ask_interviewer", {"message": "interview me"})
        assert texts(result)[0] == "Interview summary: Ada came by to learn how A2A works."
        assert [a.message for a in person.asked][1].startswith("interviewer asks: Nice to meet you, Ada.")
        forged = await host.session.call_tool(
            "ask_interviewer",
            {"message": "interview me"},
            request_state="e30.AAAA",
            input_responses={"answer": types.ElicitResult(action="accept", content={"answer": "x"})},
            allow_input_required=True,
        )
    assert forged.is_error and "does not go with a question of this server" in texts(forged)[0]


async def test_a_server_with_no_agents_says_so_and_where_to_add_them(tmp_path):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "switchboard", "mcp"], env=server_env(tmp_path)
    )  # fmt: skip
    with (tmp_path / "stderr.txt").open("w+") as log:
        async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as host:
            await host.initialize()
            listed = await host.call_tool("list_agents", {})
        log.seek(0)
        said = log.read()
    agents_file = str(tmp_path / "config" / "agents.yaml")
    assert f"no agents: the agents file {agents_file} does not exist yet" in said
    assert texts(listed)[0].startswith(f"No agents in the agents file ({agents_file}). Add each agent there")
