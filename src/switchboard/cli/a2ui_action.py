"""`send --task-id T --a2ui-action NAME --data JSON`: answer a task's A2UI form from the command line.

The task is read (get-task) for the forms its messages made; --data's values go into the form's data model, the
form's own checks run, and the action event its button NAME sends goes to the task, shaped as the form's version
says, with the capabilities every message carries.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..a2a.client import new_message
from ..a2a.errors import UsageError
from ..a2a.model import Message, Role, Task
from ..a2ui.answer import answer
from ..a2ui.surfaces import SurfaceSet

if TYPE_CHECKING:
    from ..link import AgentLink
    from .groups.send import SendOptions


def task_surfaces(task: Task) -> SurfaceSet:
    """The forms a task's agent messages made, in order: its history, then its status message."""
    surfaces = SurfaceSet()
    for message in task.history or []:
        if message.role is Role.AGENT:
            surfaces.take(message.message_id, message.parts)
    if task.status.message is not None:
        surfaces.take(task.status.message.message_id, task.status.message.parts)
    return surfaces


def form_values(args: SendOptions) -> dict[str, Any]:
    """--data's objects, merged in the order given; nothing else may go with --a2ui-action."""
    from .message_parts import _read_json

    if args.words or any(kind != "data" for kind, _, _ in args.parts):
        hint = """Drop the text and files; give the values as --data '{"/path": "value"}'."""
        raise UsageError("--a2ui-action answers a form: its values come from --data JSON alone", hint=hint)
    values: dict[str, Any] = {}
    for _, raw, _ in args.parts:
        value = _read_json(raw)
        if not isinstance(value, dict):
            raise UsageError("--data with --a2ui-action must be a JSON object",
                             hint="""For example --data '{"/booking/name": "Ada"}'.""")  # fmt: skip
        values.update(value)
    return values


async def action_message(link: AgentLink, args: SendOptions, values: dict[str, Any]) -> Message:
    """The message that answers the task's form with the action `args.a2ui_action`."""
    if not args.task_id:
        raise UsageError("--a2ui-action answers a task's form", hint="Add --task-id (the task that shows the form).")
    assert args.a2ui_action is not None
    task = await link.get_task(args.task_id)
    surfaces = task_surfaces(task)
    part, _ = answer(surfaces, args.a2ui_action, values)
    metadata = surfaces.metadata(link.a2ui)
    return new_message([part], task_id=task.id, context_id=args.context_id or task.context_id, metadata=metadata)


def describe(message: Message) -> str:
    """The event sent, for --verbose readers and tests: the data part's JSON."""
    return json.dumps(message.parts[0].model_dump(mode="json", exclude_none=True), ensure_ascii=False)
