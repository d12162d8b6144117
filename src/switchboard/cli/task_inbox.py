"""The inbox kept by the commands that see a task (send, task get|subscribe|watch|cancel), as the TUI keeps a tab's:
a task seen waiting for the person (input-required, auth-required) is remembered, ids, agent and the agent's
question (redacted), never an answer, so never a credential, and said on stderr; a task seen no longer waiting
(answered, ended) is let go of. `switchboard inbox` and the TUI's inbox list what is kept after the command has
ended. `--no-inbox` leaves the inbox as it is, for scripts that follow their tasks themselves."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from ..a2a.model import Message, Task
from ..a2a.turn import task_question
from ..inbox.item import InboxItem, first_line, question_text
from ..inbox.store import Remembered, forget, load_remembered, remember
from .output import note, warn

NAME_MAX = 80  # characters of an agent's name taken from its card

if TYPE_CHECKING:
    from .context import Target


class KeepsInbox(Protocol):
    """The options of a command that keeps the inbox: its --no-inbox, and its output (the note is text's)."""

    @property
    def no_inbox(self) -> bool: ...

    @property
    def output(self) -> str: ...


def keep_in_inbox(
    args: KeepsInbox,
    target: Target,
    link: Any,
    seen: Task | Message | None,
    *,
    answered: str | None = None,
    name: str | None = None,
) -> None:
    """Remember the task `seen` when it waits for the person (the agent as the command named it, or `name`), let go
    of it when it waits no more, and let go of `answered` (the task `send --task-id` continued) when another task
    or a message took its place. A file that cannot be written is said, never fatal: the command did its job."""
    if args.no_inbox:
        return
    url = target.entry.url if target.entry is not None else target.ref
    task = seen if isinstance(seen, Task) else None
    try:
        if answered and (task is None or task.id != answered):
            _let_go(url, answered)  # answered: it waits no more (another task, or a message, took its place)
        if task is None:
            return
        if not task.status.state.is_interrupted:
            _let_go(url, task.id)  # answered or ended: it waits no more
            return
        item = _remember(name or _agent_name(target, link), url, link, task, asked_anew=task.id == answered)
    except OSError as exc:
        warn(f"the inbox could not keep the task: {exc}")
        return
    if args.output == "text":
        note(f"kept in the inbox as {item.id}: `switchboard answer {item.id} TEXT` answers it (--no-inbox: not kept)")


def _let_go(url: str, task_id: str) -> None:
    """Forget the task if it is kept (a command that kept nothing writes nothing, not even the data dir)."""
    key = (url.rstrip("/"), task_id)
    if any(entry.key == key for entry in load_remembered()):
        forget(url, task_id)


def _remember(agent: str, url: str, link: Any, task: Task, *, asked_anew: bool) -> InboxItem:
    """Keep the waiting task; the same question seen again keeps the time it was first kept (how long it has
    waited), unless this command answered it and the agent asked it anew."""
    redactor = getattr(link.tap, "redactor", None) or getattr(link.transport, "redactor", None)
    question = question_text(task_question(task))
    question = redactor.text(question) if redactor is not None else question
    state = task.status.state.value
    key = (url.rstrip("/"), task.id)
    before = next((entry for entry in load_remembered() if entry.key == key), None)
    same = before is not None and not asked_anew and (before.state, before.question) == (state, question)
    since = (before.since if same and before is not None else None) or time.time()
    remember(Remembered(agent, url, task.id, task.context_id or "", state, question, since))
    return InboxItem("task", agent, "", state, None, "", agent_url=url, task_id=task.id)


def _agent_name(target: Target, link: Any) -> str:
    """Who asks, as the inbox shows it: the agents file's name; for an agent named by its address, its card's
    name (the agent's own text: one line, controls stripped, bounded), else the address."""
    if target.entry is not None:
        return target.entry.name
    card = getattr(link, "card", None)
    return (first_line(card.name, NAME_MAX) if card is not None and card.name else "") or target.ref
