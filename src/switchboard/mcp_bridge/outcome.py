"""Where a turn ended, as a tool's result: the artifacts exactly as the agent sent them (text as text, data as
structured content, files as resources), and the task's ids and state for the next call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mcp_types as types

from ..a2a.model import DataPart, FilePart, Part, TaskState, TextPart
from ..a2a.turn import TaskView
from ..safe_text import strip_controls

# What the host should call next, by the state a task was left in (the tool that continues it is named).
CONTINUE_TOOL = "continue_task"


def part_contents(parts: Sequence[Part], where: str) -> tuple[list[types.ContentBlock], list[Any]]:
    """Content blocks for the text and file parts, in order, and the values of the data parts."""
    blocks: list[types.ContentBlock] = []
    data: list[Any] = []
    for index, part in enumerate(parts):
        if type(part) is TextPart:
            blocks.append(types.TextContent(text=part.text))
        elif type(part) is DataPart:
            data.append(part.data)
        elif type(part) is FilePart:
            blocks.append(_file_block(part, f"{where}/{index}"))
    return blocks, data


def _file_block(part: FilePart, where: str) -> types.ContentBlock:
    name = part.name or where.rsplit("/", 1)[-1]
    media_type = part.media_type or "application/octet-stream"
    if part.url is not None:
        return types.ResourceLink(uri=part.url, name=name, mime_type=media_type)
    uri = f"a2a://{where}/{name}"
    return types.EmbeddedResource(
        resource=types.BlobResourceContents(uri=uri, mime_type=media_type, blob=part.raw or "")
    )


def question_text(view: TaskView) -> str:
    """The task's question as one text (its text parts joined by the agent's own line breaks: none added)."""
    return strip_controls("\n".join(p.text for p in view.question if type(p) is TextPart)).strip()


def ids_of(agent: str, view: TaskView) -> dict[str, Any]:
    """The machine-readable head of every result: which agent, which task, where it stands."""
    return {
        "agent": agent,
        "taskId": view.task_id,
        "contextId": view.context_id,
        "state": view.state.value if view.state else ("replied" if view.reply is not None else None),
    }


def turn_result(agent: str, view: TaskView, note: str = "", *, sign_in: bool = False) -> types.CallToolResult:
    """The result of a turn that ended: the artifacts (or the direct reply, or the status message), then one line
    saying where the task stands and what to call next if it is not over (`sign_in`: the note says it, for a task
    waiting for a sign-in switchboard does itself)."""
    blocks: list[types.ContentBlock] = []
    structured = ids_of(agent, view)
    artifacts: list[dict[str, Any]] = []
    if view.reply is not None:
        blocks, data = part_contents(view.reply.parts, f"{agent}/reply")
        if data:
            structured["data"] = data
    else:
        for artifact in view.artifacts.values():
            # The artifact's text whole, as the agent sent it (a long one is read back from disk), then its files.
            text = artifact.text
            if text:
                blocks.append(types.TextContent(text=text))
            others = [p for p in artifact.parts if type(p) is not TextPart]
            found, data = part_contents(others, f"{agent}/{view.task_id}/{artifact.artifact_id}")
            blocks += found
            artifacts.append({"artifactId": artifact.artifact_id, "name": artifact.name, "data": data})
        if artifacts:
            structured["artifacts"] = artifacts
    state = view.state
    if state is not None and state.is_interrupted:
        question = question_text(view)
        structured["question"] = question
        choices = choices_of(view)
        if choices:
            structured["choices"] = choices
        structured["answerWith"] = {"tool": CONTINUE_TOOL, "arguments": {"agent": agent, "taskId": view.task_id}}
        blocks.append(types.TextContent(text=_waiting_line(agent, view, question, note, sign_in)))
    else:
        if not blocks and view.status_text:
            blocks.append(types.TextContent(text=view.status_text))
        blocks.append(types.TextContent(text=_summary_line(agent, view, note)))
    failed = state in (TaskState.FAILED, TaskState.REJECTED)
    return types.CallToolResult(content=blocks, structured_content=structured, is_error=failed)


def running_result(agent: str, view: TaskView, waited: float) -> types.CallToolResult:
    """A task still at work when the call's bound ran out: its id and state, and how to pick it up again."""
    structured = ids_of(agent, view)
    if view.task_id is None:  # no task made yet: nothing to wait for by id
        text = (
            f"{agent} did not answer within {waited:g} s and has made no task for the message yet, so there is "
            "nothing to wait for by id. Try again later; a host that supports MCP tasks waits as long as it takes."
        )
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=structured, is_error=True
        )
    structured["waitWith"] = {"tool": CONTINUE_TOOL, "arguments": {"agent": agent, "taskId": view.task_id}}
    last = strip_controls(view.status_text).strip()
    said = f" Last word: {last}{'' if last.endswith(('.', '!', '?')) else '.'}" if last else ""
    text = (
        f"{agent} is still working on task {view.task_id} ({_state(view)}) after {waited:g} s; it goes on at the "
        f"agent.{said} Call {CONTINUE_TOOL} with agent={agent!r} and taskId={view.task_id!r} to wait for it again, "
        "or cancel_task to stop it."
    )
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=structured)


def ended_already(agent: str, view: TaskView, tool: str) -> types.CallToolResult:
    """An answer sent to a task that has ended: nothing is sent, and the result says how to go on instead."""
    text = (
        f"{agent}'s task {view.task_id} has ended ({_state(view)}): it takes no new messages, so the answer was not "
        f"sent. Call {tool} with contextId={view.context_id!r} to start a new task in the same conversation."
    )
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content=ids_of(agent, view), is_error=True
    )


def not_signed_in(agent: str, view: TaskView, why: str) -> types.CallToolResult:
    """A call that ended because the person did not sign in where the agent's card asks for it."""
    if view.task_id is not None:
        again = f"Call {CONTINUE_TOOL} with agent={agent!r} and taskId={view.task_id!r} to be asked again."
        return turn_result(agent, view, f"{agent} asks for a sign-in, and {why}: the task could not go on. {again}")
    structured = ids_of(agent, view)
    text = (
        f"{agent} asks for a sign-in (its card requires it), and {why}: nothing was sent. Call the same tool again "
        "to be asked again."
    )
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=structured, is_error=True)


def choices_of(view: TaskView) -> list[str]:
    """The choices the task's question offers (choices_in)."""
    return choices_in(view.question)


def choices_in(question: list[Part]) -> list[str]:
    """The choices a question offers in a data part (`{"choices": [...]}` of strings), else none."""
    for part in question:
        if type(part) is DataPart and isinstance(part.data, dict):
            choices = part.data.get("choices") or part.data.get("options") or part.data.get("enum")
            if isinstance(choices, list) and choices and all(isinstance(c, str) for c in choices):
                return [strip_controls(c)[:500] for c in choices[:50]]
    return []


def _state(view: TaskView) -> str:
    return view.state.value if view.state else "no state yet"


def _summary_line(agent: str, view: TaskView, note: str) -> str:
    if view.reply is not None:
        line = f"{agent} replied (no task)."
    else:
        line = f"{agent}: task {view.task_id} {_state(view)} (context {view.context_id})."
    return f"{line} {note}".strip()


def _waiting_line(agent: str, view: TaskView, question: str, note: str, sign_in: bool) -> str:
    what = "a credential or a sign-in" if view.state is TaskState.AUTH_REQUIRED else "an answer"
    asked = f" It asks: {question}" if question else ""
    if sign_in:
        return f"{agent}'s task {view.task_id} waits for a sign-in ({_state(view)}).{asked} {note}".strip()
    return (
        f"{note} {agent}'s task {view.task_id} waits for {what} ({_state(view)}).{asked} To answer, call "
        f"{CONTINUE_TOOL} with agent={agent!r}, taskId={view.task_id!r} and answer=..."
    ).strip()
