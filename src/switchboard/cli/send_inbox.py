"""A task `send` leaves waiting for the person is kept in the inbox, as the TUI keeps a tab's: ids, agent and the
agent's question (redacted), never an answer, so never a credential. `switchboard inbox` and the TUI's inbox list
it after the command has ended; a task that `send --task-id` (or `switchboard answer`) answered and that no longer
waits is let go of, and one that asks again is kept with its new question. `send --no-inbox` keeps nothing."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..a2a.model import Message, Task
from ..a2a.turn import task_question
from ..inbox.item import InboxItem, first_line, question_text
from ..inbox.store import Remembered, forget, remember
from .output import note, warn

NAME_MAX = 80  # characters of an agent's name taken from its card

if TYPE_CHECKING:
    from .context import Target
    from .groups.send import SendOptions


def keep_in_inbox(args: SendOptions, target: Target, link: Any, result: Task | Message | None) -> None:
    """Remember the task `result` leaves waiting (the agent as the command named it), or let go of the task the
    command answered when it waits no more. A file that cannot be written is said, never fatal: the task is
    sent."""
    if args.no_inbox:
        return
    agent = args.inbox_name or _agent_name(target, link)
    url = target.entry.url if target.entry is not None else target.ref
    task = result if isinstance(result, Task) else None
    try:
        if args.task_id and (task is None or task.id != args.task_id or not task.status.state.is_interrupted):
            forget(url, args.task_id)  # answered: it waits no more (or another task took its place)
        if task is None or not task.status.state.is_interrupted:
            return
        redactor = getattr(link.tap, "redactor", None) or getattr(link.transport, "redactor", None)
        question = question_text(task_question(task))
        kept = Remembered(
            agent,
            url,
            task.id,
            task.context_id or "",
            task.status.state.value,
            redactor.text(question) if redactor is not None else question,
            time.time(),
        )
        remember(kept)
    except OSError as exc:
        warn(f"the inbox could not keep the task: {exc}")
        return
    if args.output == "text":
        item = InboxItem("task", agent, "", kept.state, None, "", agent_url=url, task_id=task.id)
        note(f"kept in the inbox as {item.id}: `switchboard answer {item.id} TEXT` answers it (--no-inbox: not kept)")


def _agent_name(target: Target, link: Any) -> str:
    """Who asks, as the inbox shows it: the agents file's name; for an agent named by its address, its card's
    name (the agent's own text: one line, controls stripped, bounded), else the address."""
    if target.entry is not None:
        return target.entry.name
    card = getattr(link, "card", None)
    return (first_line(card.name, NAME_MAX) if card is not None and card.name else "") or target.ref
