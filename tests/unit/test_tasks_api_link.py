"""The REST task API as one more link (transports/tasks_api.py), against its reference server on 127.0.0.1: the
follower drives it as it drives any agent, streamed or polled, and what the API cannot do is a usage error."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from tasks_api_server import ASK_CONTEXT, TOKEN, TasksApiServer

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import UsageError
from switchboard.a2a.follow import FollowPolicy, Notice
from switchboard.a2a.model import DataPart, Task, TaskState
from switchboard.a2a.turn import TaskView
from switchboard.agents import AgentEntry
from switchboard.link import AgentLink, open_link

# A stall timeout far below the polling's silences: a polled stream must not be taken for a wedged one.
POLICY = FollowPolicy(poll_interval=0.05, stall_timeout=0.2)


@pytest.fixture(scope="module")
def server() -> Iterator[TasksApiServer]:
    running = TasksApiServer()
    running.start()
    yield running
    running.stop()


async def link_to(server: TasksApiServer, streaming: bool | None = None) -> AgentLink:
    entry = AgentEntry("echo", server.base_url, protocol="tasks")
    link = await open_link(entry, credentials=Credentials(bearer=TOKEN), streaming=streaming)
    link.transport.client.poll_interval = 0.05
    return link


async def turn(link: AgentLink, message) -> tuple[TaskView, list]:
    view, events = TaskView(), []
    async for event in link.follow(message, POLICY, view=view):
        events.append(event)
    return view, events


@pytest.mark.parametrize("streaming", [None, False], ids=["followed", "polled"])
async def test_a_question_and_its_answer_end_completed_either_way(server, streaming):
    async with await link_to(server, streaming) as link:
        assert (link.card, link.label, link.protocol_label, link.takes_files) == (None, "tasks API", "tasks API", False)
        asked, events = await turn(link, new_message("ask"))
        assert not [e for e in events if isinstance(e, Notice)]  # no stall, no reconciling
        assert (asked.state, asked.status_text, asked.context_id) == (
            TaskState.INPUT_REQUIRED,
            "What is your name?",
            ASK_CONTEXT,
        )
        answer = new_message("Grace", task_id=asked.task_id, context_id=asked.context_id)
        done, _ = await turn(link, answer)
    assert (done.task_id, done.state) == (asked.task_id, TaskState.COMPLETED)
    (output,) = done.artifacts["output"].parts
    assert isinstance(output, DataPart) and output.data == {"greeting": "Hi Grace"}


async def test_a_task_is_started_without_waiting_read_and_re_attached(server):
    async with await link_to(server) as link:
        started = await link.send(new_message("hello"), blocking=False)
        assert isinstance(started, Task) and not started.status.state.ends_turn
        view = TaskView()
        async for _ in link.resume(started.id, POLICY, view=view):
            pass
        assert view.state is TaskState.COMPLETED and view.output_text == "Hello back"
        assert (await link.get_task(started.id)).status.state is TaskState.COMPLETED


async def test_a_long_silence_while_polling_is_no_stall(server):
    async with await link_to(server) as link:
        events = []

        async def follow() -> None:
            async for event in link.follow(new_message("forever"), POLICY):
                events.append(event)

        with pytest.raises(TimeoutError):
            async with asyncio.timeout(1.0):  # five stall timeouts of nothing but the same state
                await follow()
    assert not [e for e in events if isinstance(e, Notice)]


async def test_what_the_api_cannot_do_is_a_usage_error_that_sends_nothing(server):
    async with await link_to(server) as link:
        seen = len(server.seen)
        for call in (
            link.cancel("t-1"),
            link.list_tasks(),
            link.extended_card(),
            link.send(new_message([DataPart(data={"k": 1})])),
        ):
            with pytest.raises(UsageError):
                await call
        with pytest.raises(UsageError, match="takes text only"):
            async for _ in link.follow(new_message([DataPart(data={"k": 1})]), POLICY):
                pass
        assert await link.find_task("m-1") is None  # no task list to look a lost send up in
    assert len(server.seen) == seen
