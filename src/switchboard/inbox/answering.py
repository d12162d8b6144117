"""Answering a remembered task with no conversation open for it: the task read from its agent, a conversation
whose last turn is that task, and the answer sent as that conversation's next message (a follow-up to the task,
in its context). The turn is followed to its end; its view says whether the task asks again."""

from __future__ import annotations

from typing import Any

from ..a2a.client import new_message
from ..a2a.model import Part
from ..a2a.tap import Tap
from ..a2a.turn import TaskView
from ..conversation import Conversation, Turn


async def answer_task(link: Any, task_id: str, parts: list[Part], *, secret: bool, tap: Tap | None) -> TaskView:
    """Send `parts` as the answer to `task_id` (waiting at the agent); the answer's turn as it ended."""
    task = await link.get_task(task_id)
    conversation = Conversation(link, tap=tap)
    asked = Turn(new_message([], task_id=task_id, context_id=task.context_id), running=False)
    asked.view.apply(task)
    conversation.turns.append(asked)
    conversation.context_id = task.context_id
    async for _ in conversation.send(parts, secret=secret or None):
        pass
    last = conversation.last
    assert last is not None
    return last.view
