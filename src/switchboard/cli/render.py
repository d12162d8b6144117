"""Output: `-o text` as `Label: value` lines and blocks (no control sequences), `-o json` as the protocol's
own v1.0 types, one document, or JSONL under --stream."""

from __future__ import annotations

from typing import Any

from ..a2a.model import (
    Artifact,
    ArtifactUpdate,
    DataPart,
    FilePart,
    Message,
    Part,
    StatusUpdate,
    StreamEvent,
    Task,
    TaskPage,
    TextPart,
)
from ..a2a.turn import task_question
from ..a2a.wire import v10
from ..a2ui.messages import is_a2ui_part
from ..a2ui.surfaces import SurfaceSet
from ..a2ui.text import surface_lines
from .output import Out, json_text
from .render_card import render_card as render_card  # its home since card get stopped importing this module

# --- parts, artifacts, tasks ------------------------------------------------------------------------


def describe_file(part: FilePart) -> str:
    bits = [part.media_type or "type unknown"]
    if part.size is not None:
        bits.append(f"{part.size} bytes")
    if part.url:
        bits.append(part.url)
    return f"{part.name or '(unnamed)'} ({', '.join(bits)})"


def render_parts(out: Out, label: str, parts: list[Part], text_label: str | None = None) -> None:
    """Text parts joined exactly as sent; data as formatted JSON; files by name, type and size.

    Block labels never repeat a field label, so a reader can tell fields and blocks apart.
    """
    text = "".join(p.text for p in parts if isinstance(p, TextPart))
    if text:
        out.block(text_label or label, text)
    forms = a2ui_forms(parts)
    if forms:
        out.block(f"{label} Form", forms)
    for part in parts:
        if is_a2ui_part(part):
            continue  # drawn as a form above (-o json keeps the messages as sent)
        if isinstance(part, DataPart):
            out.block(f"{label} Data", json_text(part.data, indent=2))
        elif isinstance(part, FilePart):
            out.field(f"{label} File", describe_file(part))


def a2ui_forms(parts: list[Part]) -> str:
    """The A2UI surfaces these parts make, as readable text (labels, values, actions): empty when none."""
    surfaces = SurfaceSet()
    touched = surfaces.take(None, parts)
    lines: list[str] = []
    for surface_id in touched:
        surface = surfaces.get(surface_id)
        lines += surface_lines(surface) if surface is not None else [f"(form {surface_id} removed)"]
    lines += [f"! {note}" for note in surfaces.notes]
    return "\n".join(lines)


def render_artifact(out: Out, artifact: Artifact) -> None:
    title = artifact.name or artifact.artifact_id
    out.field("Artifact", f"{title} ({artifact.artifact_id})" if artifact.name else title)
    render_parts(out, "Artifact", artifact.parts, "Artifact Text")


def render_task(out: Out, task: Task, *, history: bool = False) -> None:
    out.field("Task ID", task.id)
    out.field("Context ID", task.context_id)
    out.field("State", task.status.state.value)
    out.field("Updated", task.status.timestamp)
    if task.status.message is not None:
        render_parts(out, "Status Message", task.status.message.parts)
    elif task.status.state.is_interrupted:
        render_parts(out, "Question", task_question(task))  # asked in the history, not the status
    for artifact in task.artifacts or []:
        render_artifact(out, artifact)
    if history:
        for message in task.history or []:
            render_parts(out, f"History {message.role.value}", message.parts)


def render_message(out: Out, message: Message) -> None:
    out.field("Message ID", message.message_id)
    out.field("Context ID", message.context_id)
    out.field("Task ID", message.task_id)
    out.field("Role", message.role.value)
    render_parts(out, "Message", message.parts)


def resume_hint(command: str, task: Task) -> str:
    """The command that answers the task: `command` is how this one named the agent (see reply_command)."""
    return f'{command} --task-id {task.id} --context-id {task.context_id} "<your reply>"'


def render_event(out: Out, event: StreamEvent) -> None:
    """One live event in the field-and-block form."""
    if isinstance(event, Task):
        out.field("Event", "task")
        render_task(out, event)
    elif isinstance(event, Message):
        out.field("Event", "message")
        render_message(out, event)
    elif isinstance(event, StatusUpdate):
        out.field("Event", "status-update")
        out.field("State", event.status.state.value)
        if event.status.message is not None:
            render_parts(out, "Status Message", event.status.message.parts)
    elif isinstance(event, ArtifactUpdate):
        out.field("Event", "artifact-update")
        out.field("Artifact ID", event.artifact.artifact_id)
        out.field("Artifact Name", event.artifact.name)
        out.field("Append", "true" if event.append else "false")
        out.field("Last Chunk", "true" if event.last_chunk else "false")
        render_parts(out, "Chunk", event.artifact.parts, "Chunk Text")
    out.separate()
    out.flush()


def stream_response(event: StreamEvent) -> dict[str, Any]:
    return v10.encode_event(event)


def render_task_page(out: Out, page: TaskPage) -> None:
    for task in page.tasks:
        out.field("Task ID", task.id)
        out.field("Context ID", task.context_id)
        out.field("State", task.status.state.value)
        out.field("Updated", task.status.timestamp)
        out.separate()
    out.field("Tasks", len(page.tasks))
    out.field("Total", page.total_size)
    out.field("Next Page Token", page.next_page_token)
