"""What every transport's fuzz test does with a transport: call one operation, and show what came back as the
CLI would (text and JSON), checking that no terminal control gets through."""

from __future__ import annotations

import io
from typing import Any

from fuzz_inputs import has_terminal_controls

from switchboard.a2a.client import new_message
from switchboard.a2a.model import AgentCard, StreamEvent, Task, TaskPage
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView
from switchboard.cli.output import Out, json_text
from switchboard.cli.render import render_card, render_event, render_task, render_task_page, stream_response

OPS = ("send", "get", "cancel", "status", "list", "card", "push_set", "push_get", "push_list", "push_delete")
STREAM_OPS = ("stream", "subscribe")
CARD_URL = "http://agent.test/.well-known/agent-card.json"


async def call(transport: Transport, op: str) -> list[Any]:
    """What the operation gives back, as a list of results (a stream's events, or the one result)."""
    if op in STREAM_OPS:
        events: list[Any] = []
        stream = transport.stream(new_message("hi")) if op == "stream" else transport.subscribe("t-1")
        async for event in stream:
            events.append(event)
        return events
    if op == "send":
        return [await transport.send(new_message("hi"))]
    if op == "get":
        return [await transport.get_task("t-1", history_length=2)]
    if op == "cancel":
        return [await transport.cancel_task("t-1")]
    if op == "status":
        return [await transport.task_status("t-1")]
    if op == "list":
        return [await transport.list_tasks(page_size=3)]
    if op == "card":
        return [await transport.extended_card()]
    if op == "push_set":
        return [await transport.create_push_config("t-1", "https://hook.test/", token="tok")]
    if op == "push_get":
        return [await transport.get_push_config("t-1", "c-1")]
    if op == "push_list":
        return await transport.list_push_configs("t-1")
    await transport.delete_push_config("t-1", "c-1")
    return []


def show(result: Any) -> None:
    """What the CLI would print of `result`, in text and in JSON: no terminal control, writable as UTF-8."""
    buffer = io.StringIO()
    out = Out(buffer)
    if isinstance(result, StreamEvent):
        render_event(out, result)
        written = json_text(stream_response(result))
        TaskView().apply(result)
        if isinstance(result, Task):
            render_task(out, result, history=True)
    elif isinstance(result, TaskPage):
        render_task_page(out, result)
        written = json_text([t.model_dump(mode="json", by_alias=True) for t in result.tasks])
    elif isinstance(result, AgentCard):
        render_card(out, result, CARD_URL, validate=True)
        written = json_text(result.raw, indent=2)
    else:  # a push config: the agent's JSON object, printed as JSON
        written = json_text(result, indent=2)
    assert not has_terminal_controls(buffer.getvalue())
    assert not has_terminal_controls(written.replace("\n", ""))
    written.encode("utf-8")
