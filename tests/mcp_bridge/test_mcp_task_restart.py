"""An agent call's MCP task outlives the bridge: a real `switchboard mcp` process is stopped while the researcher
works, and the next one (same switchboard home) answers tasks/get and tasks/result by reading the A2A task again
from the agent; a task the agent no longer knows is the spec's "not found"."""

from __future__ import annotations

import time

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_support import get_task, list_tasks, stdio_session, task_call, task_result, tasks_page, texts

from switchboard.a2a.client import new_message
from switchboard.a2a.model import Task, TaskState, TextPart
from switchboard.agents import AgentEntry
from switchboard.link import open_link
from switchboard.mcp_bridge.task_ledger import LedgerEntry, TaskLedger

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_an_agent_calls_task_is_read_again_from_the_agent_after_the_bridge_restarts(fleet, tmp_path):
    async with stdio_session(fleet.agents_file, tmp_path) as first:
        created = await task_call(first, "ask_researcher", {"message": "deep: tides"}, ttl=600_000)
        # once the researcher's own words show, its A2A task exists (and is kept); then this server goes away
        while not (await get_task(first, created.task_id)).status_message:
            await anyio.sleep(0.05)  # polling, as a host does: the server pushes nothing for a task's words
    assert created.ttl == 600_000

    async with stdio_session(fleet.agents_file, tmp_path) as second:
        again = await get_task(second, created.task_id)
        assert again.status in ("working", "completed") and again.ttl == 600_000
        assert again.created_at == created.created_at
        listed = {task.task_id: task for task in await list_tasks(second)}  # what tasks/get answers, tasks/list has
        # as tasks/get just read it: working (the first server went away mid-work), or completed if it ended since
        assert listed[created.task_id].status == again.status
        outcome = await task_result(second, created.task_id)  # taken up here, followed to its end
    structured = outcome.structured_content or {}
    assert structured["agent"] == "researcher" and structured["state"] == "completed", texts(outcome)
    async with await open_link(AgentEntry(name="researcher", url=fleet.agent("researcher").url)) as link:
        at_agent = await link.get_task(structured["taskId"])
    assert texts(outcome)[0] == at_agent.artifacts[0].parts[0].text  # exact, as the agent has it

    async with stdio_session(fleet.agents_file, tmp_path) as third:  # over at the agent: read, not followed
        ended = await get_task(third, created.task_id)
        assert ended.status == "completed"
        listed = {task.task_id: task for task in await list_tasks(third)}
        assert listed[created.task_id].status == "completed"  # the second server saw it end
        assert texts(await task_result(third, created.task_id)) == texts(outcome)

    kept = "".join(p.read_text() for p in (tmp_path / "data" / "mcp-tasks").glob("*.json"))
    assert structured["taskId"] in kept and "tides" not in kept  # what names the task, never the arguments


async def test_a_task_its_agent_no_longer_knows_is_not_found(fleet, tmp_path):
    ledger = TaskLedger(tmp_path / "data" / "mcp-tasks", 3_600_000)
    ledger.remember(LedgerEntry("forgotten-1", "writer", "no-such-task", None, time.time(), 3_600_000))
    ledger.remember(LedgerEntry("expired-1", "writer", "no-such-task", None, time.time() - 7200, 3_600_000))
    async with stdio_session(fleet.agents_file, tmp_path) as bridge:
        for task_id, said in (("forgotten-1", "not found"), ("expired-1", "has expired"), ("never-made", "not found")):
            with pytest.raises(MCPError) as refused:
                await get_task(bridge, task_id)
            assert refused.value.error.code == -32602 and f"Task {said}" in refused.value.error.message
            with pytest.raises(MCPError) as refused:
                await task_result(bridge, task_id)
            assert refused.value.error.code == -32602

        # a call whose result is an error is a failed task, its status message the result's last line
        failing = await task_call(bridge, "ask_flaky", {"message": "fail"}, ttl=60_000)
        outcome = await task_result(bridge, failing.task_id)
        assert outcome.is_error
        ended = await get_task(bridge, failing.task_id)
        assert ended.status == "failed" and ended.status_message == texts(outcome)[-1]


async def test_tasks_list_comes_in_pages_whose_cursor_leads_on(fleet, tmp_path):
    async with stdio_session(fleet.agents_file, tmp_path) as bridge:
        made = [(await task_call(bridge, "ask_echo", {"message": f"hi {n}"}, ttl=60_000)).task_id for n in range(11)]
        first = await tasks_page(bridge)
        assert [t.task_id for t in first.tasks] == made[:10] and first.next_cursor == made[9]
        second = await tasks_page(bridge, first.next_cursor)
        assert [t.task_id for t in second.tasks] == made[10:] and second.next_cursor is None
        with pytest.raises(MCPError) as refused:
            await tasks_page(bridge, "no-such-task")
        assert refused.value.error.code == -32602


async def test_a_task_that_ended_between_two_bridges_is_listed_as_ended_once_read(fleet, tmp_path):
    """The A2A task ended while no bridge ran: the next one reads it at its end (tasks/result), and keeps that, so
    the one after lists it as completed rather than "as last seen" working."""
    async with await open_link(AgentEntry(name="writer", url=fleet.agent("writer").url)) as link:
        done = await link.send(new_message([TextPart(text="a haiku about tides")]))
    assert isinstance(done, Task) and done.status.state is TaskState.COMPLETED
    task_id = done.id
    ledger = TaskLedger(tmp_path / "data" / "mcp-tasks", 3_600_000)
    ledger.remember(LedgerEntry("ended-1", "writer", task_id, None, time.time(), 3_600_000))
    async with stdio_session(fleet.agents_file, tmp_path) as second:
        assert {t.task_id: t.status for t in await list_tasks(second)}["ended-1"] == "working"  # as last seen
        outcome = await task_result(second, "ended-1")
    async with stdio_session(fleet.agents_file, tmp_path) as third:
        listed = {task.task_id: task for task in await list_tasks(third)}
    assert listed["ended-1"].status == "completed"
    assert listed["ended-1"].status_message == texts(outcome)[-1]
